#!/usr/bin/env node
// Builds the SDK: dist/printwire.js (the browser entry as one minified ES module, for
// <script type=module>), and dist/index.js + dist/server.js with their .d.ts for bundlers and Node.
// The local API's wire contract (@printwire/shared/contracts/local-api, a module with no imports)
// is inlined into each, and its declarations copied beside them: the SDK has no runtime dependency.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The one module of another package the SDK may import (the lint's sdk-stands-alone rule). */
const WIRE = '@printwire/shared/contracts/local-api';
const wireSource = fileURLToPath(
  new URL('../../shared/src/contracts/local-api.ts', import.meta.url),
);

/** Points the declarations at the copy of the wire contract that ships in dist/. */
function localizeDeclarations(dir) {
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.d.ts'))) {
    const path = `${dir}/${name}`;
    const text = readFileSync(path, 'utf8');
    if (text.includes(WIRE)) writeFileSync(path, text.replaceAll(`'${WIRE}'`, `'./local-api.js'`));
  }
}

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
    bundle: true,
    external: ['node:*'],
    format: 'esm',
    outdir: `${root}dist`,
    platform: 'neutral',
  });
  const declarations = (args) =>
    spawnSync(
      'npx',
      ['tsc', ...args, '--declaration', '--emitDeclarationOnly', '--outDir', `${root}dist`],
      {
        stdio: 'inherit',
      },
    ).status;
  const status =
    declarations(['-p', root, '--noEmit', 'false']) ||
    declarations([
      wireSource,
      '--target',
      'ES2022',
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
      '--skipLibCheck',
      '--types',
      'node',
    ]);
  if (status) process.exit(status);
  localizeDeclarations(`${root}dist`);
}
