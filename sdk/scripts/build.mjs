#!/usr/bin/env node
// Builds the SDK: dist/printwire.js (the browser entry as one minified ES module, for
// <script type=module>), and dist/index.js + dist/server.js with their .d.ts for bundlers and Node.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The browser bundle; returns its bytes (the size test measures them). */
export async function buildBrowserBundle({ write = true } = {}) {
  const result = await build({
    entryPoints: [`${root}src/index.ts`],
    bundle: true,
    format: 'esm',
    minify: true,
    target: ['chrome111', 'firefox111', 'safari16.4', 'edge111'],
    platform: 'browser',
    outfile: `${root}dist/printwire.js`,
    write,
    legalComments: 'none',
  });
  return write ? null : result.outputFiles[0].contents;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildBrowserBundle();
  await build({
    entryPoints: [`${root}src/index.ts`, `${root}src/server.ts`],
    format: 'esm',
    outdir: `${root}dist`,
    platform: 'neutral',
  });
  const tsc = spawnSync(
    'npx',
    [
      'tsc',
      '-p',
      root,
      '--noEmit',
      'false',
      '--declaration',
      '--emitDeclarationOnly',
      '--outDir',
      `${root}dist`,
    ],
    { stdio: 'inherit' },
  );
  process.exit(tsc.status ?? 1);
}
