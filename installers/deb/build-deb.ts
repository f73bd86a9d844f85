/**
 * `npm run package:deb`: builds installers/dist/printwire-agent_<version>_amd64.deb on Linux x64.
 *
 * What goes in, and why so:
 * - the agent and the shared engines bundled by esbuild into ES modules
 *   (/opt/printwire-agent/agent/dist/printwire-agent.mjs and the chunks it imports when a job
 *   needs them): no TypeScript, tsx or dev
 *   dependencies at run time, and the pure JavaScript dependencies (zod, ws, iconv-lite,
 *   node-forge, yazl, pngjs, jpeg-js, qrcode) inside it;
 * - the dependencies that cannot be bundled, copied from this checkout's production install
 *   with their own dependencies, trimmed of sources, tests, type files and other platforms'
 *   binaries: the native modules (better-sqlite3, usb, serialport, sharp, and pdf.js's canvas),
 *   pino and pino-roll (loaded by name in a worker thread), pdf.js (reads its fonts and
 *   character maps from its folder), puppeteer-core (loads parts of itself on demand) and
 *   harfbuzzjs (reads its WebAssembly file from its folder);
 * - the Node.js that runs this script (linux-x64), stripped of its symbol table;
 * - the data files of shared/ that the bundle reads (fonts, the scripts' fonts, printer profiles), in the same
 *   places relative to the bundle as in the checkout.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { generatedInstallerFiles } from '../generated.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const HERE = fileURLToPath(new URL('./', import.meta.url));
const OPT = 'opt/printwire-agent';
const MAINTAINER = 'Printwire <packages@printwire.example>';

/** Loaded from node_modules at run time, not bundled (see above). */
export const EXTERNAL_PACKAGES = [
  'better-sqlite3',
  'usb',
  'serialport',
  'sharp',
  'pino',
  'pino-roll',
  'pdfjs-dist',
  'puppeteer-core',
  'harfbuzzjs',
];
/** Optional native helpers of ws, absent here: ws falls back to JavaScript. */
const ABSENT_OPTIONAL = ['bufferutil', 'utf-8-validate'];

/**
 * The bundle is one file, but the sources find their data files (fonts, printer profiles, the
 * agent's package.json) and resolve packages relative to `import.meta.url`. This plugin gives
 * each source file the URL it would have in the installed tree, which mirrors the checkout.
 */
function sourceLocation(bundleDir: string): Plugin {
  return {
    name: 'source-location',
    setup(b) {
      b.onLoad({ filter: /\/(agent|shared)\/src\/.*\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rel = relative(bundleDir, args.path).split(sep).join('/');
        return {
          contents: text.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(rel)}, import.meta.url).href`,
          ),
          loader: 'ts',
        };
      });
    },
  };
}

export async function bundle(stage: string): Promise<void> {
  await build({
    entryPoints: { 'printwire-agent': join(ROOT, 'agent/src/cli.ts') },
    outdir: join(stage, OPT, 'agent/dist'),
    outExtension: { '.js': '.mjs' },
    // The modules the agent imports when a job needs them (pdf.js, sharp, puppeteer-core) stay
    // in chunks loaded then: the agent starts, and reaches the cloud, without them.
    splitting: true,
    chunkNames: '[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...EXTERNAL_PACKAGES, ...ABSENT_OPTIONAL],
    plugins: [sourceLocation(join(ROOT, 'agent/dist'))],
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire as __pwRequire } from 'node:module';\nconst require = __pwRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
  });
}

/** Node's lookup: <dir>/node_modules/<name>, then the same from each parent, within the checkout. */
function findPackage(name: string, from: string): string | null {
  for (let dir = from; dir.startsWith(ROOT); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === dirname(dir)) break;
  }
  return null;
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** The packages to ship: the externals and everything they depend on, as installed here. */
export function productionClosure(): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string, optional: boolean) => {
    const dir = findPackage(name, from);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} (needed from ${relative(ROOT, from)}) is not installed: run npm ci`);
    }
    if (lstatSync(dir).isSymbolicLink()) {
      throw new Error(`${name} is a workspace link: it must be bundled, not shipped`);
    }
    if (found.has(dir)) return;
    found.add(dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const name of EXTERNAL_PACKAGES) visit(name, join(ROOT, 'agent'), false);
  return [...found].sort();
}

const KEEP_ALWAYS = /^(licen[cs]e|notice|copying)/i;
/** Source maps, TypeScript (Node runs none from node_modules), docs, build files, dotfiles. */
const DROP_FILE = /\.(map|ts|mts|cts|md|markdown|gyp|gypi|tsbuildinfo)$|^\./i;
const DROP_TOP_DIRS = new Set([
  'test',
  'tests',
  '__tests__',
  'docs',
  'example',
  'examples',
  '.github',
  'bench',
  'benchmark',
]);
/** Sources of native modules, present only to build them. */
const NATIVE_SOURCE_DIRS = new Set(['src', 'deps', 'libusb', 'libusb_config']);
/** pdf.js: the Node build (legacy/build), its fonts, character maps and decoders only. */
const PDFJS_DROP =
  /^(build|web|types|image_decoders|legacy\/web|legacy\/image_decoders)(\/|$)|\.min\.mjs$|sandbox/;

/** Whether a file or folder of a package (path relative to the package) is left out. */
export function prunedFromPackage(
  pkg: string,
  rel: string,
  isNative: boolean,
  isDir: boolean,
): boolean {
  const parts = rel.split('/');
  const base = parts[parts.length - 1] ?? '';
  if (parts[0] === 'node_modules') return true; // nested packages come through the closure
  if (!isDir && KEEP_ALWAYS.test(base)) return false;
  if (!isDir && DROP_FILE.test(base)) return true;
  if (DROP_TOP_DIRS.has(parts[0]!)) return true;
  if (parts.length === 1 && !isDir && base.endsWith('.html')) return true; // a package's docs page
  if (parts[0] === 'prebuilds' && parts[1] !== undefined && parts[1] !== 'linux-x64') return true;
  if (parts[0] === 'prebuilds' && base.includes('musl')) return true; // Debian is glibc
  if (isNative && NATIVE_SOURCE_DIRS.has(parts[0]!)) return true;
  if (parts[0] === 'build' && isNative) {
    // Keep build/Release/*.node only (not the objects, the static library or test addons).
    if (isDir) return !(rel === 'build' || rel === 'build/Release');
    return !(
      parts.length === 3 &&
      parts[1] === 'Release' &&
      base.endsWith('.node') &&
      !base.startsWith('test_')
    );
  }
  if (pkg === 'pdfjs-dist' && PDFJS_DROP.test(rel)) return true;
  if (pkg === 'puppeteer-core' && rel.startsWith('lib/es5-iife')) return true;
  if (pkg === 'harfbuzzjs' && base === 'harfbuzz-subset.wasm') return true; // shaping only
  if (pkg === 'date-fns' && /(^|\/)cdn(\.min)?\.js$/.test(rel)) return true; // browser bundles
  return false;
}

function copyPackages(stage: string): number {
  const dirs = productionClosure();
  for (const dir of dirs) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    const isNative = existsSync(join(dir, 'binding.gyp'));
    const target = join(stage, OPT, relative(ROOT, dir));
    cpSync(dir, target, {
      recursive: true,
      dereference: true,
      filter: (src) => {
        if (src === dir) return true;
        const rel = relative(dir, src).split(sep).join('/');
        return !prunedFromPackage(pkg.name, rel, isNative, statSync(src).isDirectory());
      },
    });
  }
  return dirs.length;
}

/** The data files the bundle reads, where the sources would find them. */
function copyData(stage: string, version: string): void {
  // The window's pages (built by the root `prepare`), served by the local server.
  if (!existsSync(join(ROOT, 'agent/window/dist/index.html'))) {
    throw new Error('the window is not built: npm run build -w @printwire/agent-window');
  }
  for (const dir of ['shared/fonts', 'shared/data/printers', 'agent/window/dist']) {
    cpSync(join(ROOT, dir), join(stage, OPT, dir), { recursive: true });
  }
  // AGENT_VERSION reads agent/package.json; the bundle is an ES module.
  writeFileSync(
    join(stage, OPT, 'agent/package.json'),
    JSON.stringify({ name: '@printwire/agent', version, type: 'module', private: true }, null, 2) +
      '\n',
  );
}

/** The Node.js running this script, stripped of symbols it does not need (about 10 MB). */
function copyNode(stage: string): void {
  const target = join(stage, OPT, 'bin/node');
  mkdirSync(dirname(target), { recursive: true });
  try {
    execFileSync('strip', ['--strip-unneeded', '-o', target, process.execPath], {
      stdio: 'ignore',
    });
  } catch {
    copyFileSync(process.execPath, target);
  }
  chmodSync(target, 0o755);
}

/** Shared libraries the binaries need, and the Debian packages that have them. */
const LIBRARY_PACKAGES: Record<string, string> = {
  'libc.so.6': 'libc6 (>= 2.28)',
  'libm.so.6': 'libc6 (>= 2.28)',
  'libdl.so.2': 'libc6 (>= 2.28)',
  'libpthread.so.0': 'libc6 (>= 2.28)',
  'librt.so.1': 'libc6 (>= 2.28)',
  'libresolv.so.2': 'libc6 (>= 2.28)',
  'ld-linux-x86-64.so.2': 'libc6 (>= 2.28)',
  'libstdc++.so.6': 'libstdc++6',
  'libgcc_s.so.1': 'libgcc-s1',
  'libudev.so.1': 'libudev1',
};

/** Every file under a folder. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

const isElf = (path: string) => readFileSync(path).subarray(0, 4).toString('latin1') === '\x7fELF';

/**
 * Debian's modes under /opt/printwire-agent: 0644 for every file but Node (nothing in
 * node_modules is run as a program), shared objects stripped of their symbol tables.
 */
function normalizeFiles(stage: string): void {
  const node = join(stage, OPT, 'bin/node');
  for (const file of filesUnder(join(stage, OPT))) {
    if (file === node) continue;
    if (isElf(file)) {
      try {
        execFileSync('strip', ['--strip-unneeded', file], { stdio: 'ignore' });
      } catch {
        // Not strippable (or no strip): shipped as it is.
      }
    }
    chmodSync(file, 0o644);
  }
}

/** Every ELF file's needed libraries must be in the package or in LIBRARY_PACKAGES. */
function dependsOf(stage: string): string[] {
  const depends = new Set(['adduser', 'init-system-helpers']);
  const elves = filesUnder(join(stage, OPT)).filter(isElf);
  const shipped = new Set(elves.map((f) => f.slice(f.lastIndexOf('/') + 1)));
  for (const file of elves) {
    const dynamic = execFileSync('objdump', ['-p', file], { encoding: 'utf8' });
    for (const [, lib] of dynamic.matchAll(/^\s+NEEDED\s+(\S+)$/gm)) {
      if (shipped.has(lib!)) continue;
      const pkg = LIBRARY_PACKAGES[lib!];
      if (!pkg)
        throw new Error(
          `${relative(stage, file)} needs ${lib}: add its Debian package to LIBRARY_PACKAGES`,
        );
      depends.add(pkg);
    }
  }
  return [...depends].sort();
}

function duKiB(dir: string): number {
  return Number(
    execFileSync('du', ['-sk', '--apparent-size', dir], { encoding: 'utf8' }).split('\t')[0],
  );
}

function install(stage: string, rel: string, content: string | Buffer, mode: number): void {
  const path = join(stage, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  chmodSync(path, mode);
}

export interface BuildOptions {
  /** dpkg-deb's compressor; default xz (gzip is faster for tests). */
  compression?: 'xz' | 'gzip' | 'none';
  /** Print progress; default true. */
  log?: (line: string) => void;
}

/** Builds the package and returns its path. */
export async function buildDeb(options: BuildOptions = {}): Promise<string> {
  const log = options.log ?? ((line: string) => process.stdout.write(line + '\n'));
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the Debian package is built on linux-x64 (this is ${process.platform}-${process.arch})`,
    );
  }
  const version = (
    JSON.parse(readFileSync(join(ROOT, 'agent/package.json'), 'utf8')) as PackageJson
  ).version;
  const dist = join(ROOT, 'installers/dist');
  const stage = join(dist, `printwire-agent_${version}_amd64`);
  const deb = `${stage}.deb`;
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });

  log('bundling the agent (esbuild)');
  await bundle(stage);
  const count = copyPackages(stage);
  log(`copied ${count} packages that stay outside the bundle`);
  copyData(stage, version);
  copyNode(stage);
  normalizeFiles(stage);

  const generated = generatedInstallerFiles();
  install(stage, 'usr/bin/printwire-agent', readFileSync(join(HERE, 'printwire-agent')), 0o755);
  install(
    stage,
    'lib/systemd/system/printwire-agent.service',
    generated['deb/printwire-agent.service']!,
    0o644,
  );
  install(
    stage,
    'lib/udev/rules.d/60-printwire-agent.rules',
    generated['deb/60-printwire-agent.rules']!,
    0o644,
  );
  install(stage, 'etc/printwire/agent.env', readFileSync(join(HERE, 'agent.env')), 0o640);
  install(
    stage,
    'usr/share/doc/printwire-agent/installing.md',
    readFileSync(join(ROOT, 'docs/installing.md')),
    0o644,
  );
  install(
    stage,
    'usr/share/doc/printwire-agent/copyright',
    readFileSync(join(HERE, 'copyright')),
    0o644,
  );
  // A native package's changelog (Debian policy 12.7): the agent's version, built now.
  install(
    stage,
    'usr/share/doc/printwire-agent/changelog.gz',
    gzipSync(
      `printwire-agent (${version}) stable; urgency=medium\n\n  * printwire-agent ${version}.\n\n` +
        ` -- ${MAINTAINER}  ${new Date().toUTCString().replace('GMT', '+0000')}\n`,
      { level: 9 },
    ),
    0o644,
  );

  const control = readFileSync(join(HERE, 'control'), 'utf8')
    .replace('@VERSION@', version)
    .replace('@MAINTAINER@', MAINTAINER)
    .replace('@INSTALLED_SIZE@', String(duKiB(stage)))
    .replace('@DEPENDS@', dependsOf(stage).join(', '));
  install(stage, 'DEBIAN/control', control, 0o644);
  install(stage, 'DEBIAN/conffiles', '/etc/printwire/agent.env\n', 0o644);
  for (const script of ['postinst', 'prerm', 'postrm']) {
    install(stage, `DEBIAN/${script}`, readFileSync(join(HERE, script)), 0o755);
  }

  const compression = options.compression ?? 'xz';
  log(`packing (${compression})`);
  execFileSync('dpkg-deb', ['--root-owner-group', `-Z${compression}`, '--build', stage, deb], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  rmSync(stage, { recursive: true, force: true });
  return deb;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const compression = process.env.PRINTWIRE_DEB_COMPRESSION as BuildOptions['compression'];
  buildDeb(compression ? { compression } : {}).then(
    (deb) => process.stdout.write(`${deb}\n`),
    (error: unknown) => {
      process.stderr.write(`package:deb failed: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
