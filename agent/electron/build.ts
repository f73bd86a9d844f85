/**
 * Builds the desktop app's main process and preload into agent/electron/dist/ with Vite: our
 * TypeScript (the agent core, @printwire/shared) bundled, every npm dependency left to
 * node_modules (electron-builder ships the agent's dependencies, native modules rebuilt for
 * Electron). The preload is CommonJS, as a sandboxed preload must be.
 *
 *   npm run build:desktop   (then: npx electron-builder, see docs/installing.md)
 */
import { cpSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const agentPackage = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as {
  dependencies: Record<string, string>;
};
const sharedPackage = JSON.parse(
  readFileSync(new URL('../../shared/package.json', import.meta.url), 'utf8'),
) as { dependencies?: Record<string, string> };
const npmDependencies = [
  ...Object.keys(agentPackage.dependencies),
  ...Object.keys(sharedPackage.dependencies ?? {}),
].filter((name) => !name.startsWith('@printwire/'));
const external = (id: string) =>
  id === 'electron' ||
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  npmDependencies.some((name) => id === name || id.startsWith(`${name}/`));

const agentDir = resolve(here, '..');
const outDir = join(here, 'dist');

/**
 * `new URL('../x', import.meta.url)` in a bundled module points next to the bundle instead:
 * files of the agent's workspace (its package.json, the window's build) are found at the same
 * place from dist/ in a checkout and in the packed app (whose root is the agent's workspace);
 * files of @printwire/shared (printer profiles) are copied into dist/shared-assets/.
 */
function relocateFileUrls(): Plugin {
  return {
    name: 'printwire-relocate-file-urls',
    transform(code, id) {
      if (id.includes(`${sep}node_modules${sep}`) || !code.includes('import.meta.url')) return null;
      const out = code.replace(
        /new URL\((['"])(\.{1,2}\/[^'"]*)\1, import\.meta\.url\)/g,
        (_match, quote: string, path: string) => {
          const target = resolve(dirname(id), path);
          const trailing = path.endsWith('/') ? '/' : '';
          let from: string;
          if (target.startsWith(agentDir + sep)) {
            from = relative(outDir, target);
          } else {
            const copy = join(outDir, 'shared-assets', relative(resolve(agentDir, '..'), target));
            cpSync(target, copy, { recursive: true });
            from = relative(outDir, copy);
          }
          return `new URL(${quote}${from.startsWith('.') ? '' : './'}${from}${trailing}${quote}, import.meta.url)`;
        },
      );
      return out === code ? null : { code: out, map: null };
    },
  };
}

for (const entry of [
  { input: 'main.ts', format: 'es' as const, file: 'main.js' },
  { input: 'preload.ts', format: 'cjs' as const, file: 'preload.cjs' },
]) {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: here,
    build: {
      ssr: `${here}${entry.input}`,
      outDir,
      emptyOutDir: false,
      target: 'node22',
      minify: false,
      sourcemap: true,
      rollupOptions: {
        external,
        output: { format: entry.format, entryFileNames: entry.file },
      },
    },
    plugins: [relocateFileUrls()],
    ssr: { noExternal: true, external: npmDependencies },
  });
}
process.stdout.write(`built ${here}dist/main.js and preload.cjs\n`);
