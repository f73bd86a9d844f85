/**
 * electron-builder.yml without Electron's binary: electron-builder's own validation (its JSON
 * schema, app-builder-lib/scheme.json), every path the file names exists (the app's build output
 * once `npm run build:desktop` and the window's build have run), the targets the issue asks for,
 * and the fuses of the afterPack hook.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Config {
  appId: string;
  directories: { app: string; buildResources: string; output: string };
  extraMetadata: { main: string };
  files: Array<string | { filter: string[] }>;
  extraResources: Array<{ from: string; to: string }>;
  asar: boolean;
  asarUnpack: string[];
  npmRebuild: boolean;
  afterPack: string;
  publish: { provider: string; url: string };
  win: { icon: string; target: Array<{ target: string; arch: string[] }> };
  nsis: { perMachine: boolean; oneClick: boolean; include: string };
  mac: {
    icon: string;
    target: Array<{ target: string; arch: string[] }>;
    hardenedRuntime: boolean;
    entitlements: string;
    entitlementsInherit: string;
  };
  linux: { icon: string; target: Array<{ target: string }> };
  deb: { afterInstall: string };
}

const { getConfig, validateConfiguration } =
  require('app-builder-lib/out/util/config/config.js') as {
    getConfig(dir: string, path: string, extra: null): Promise<Config>;
    validateConfiguration(config: Config, logger: unknown): Promise<void>;
  };
const { DebugLogger } = require('builder-util') as { DebugLogger: new (on: boolean) => unknown };

let config: Config;

before(async () => {
  config = await getConfig(ROOT, 'electron-builder.yml', null);
});

describe('electron-builder.yml', () => {
  test('passes electron-builder’s own validation (its JSON schema)', async () => {
    await validateConfiguration(config, new DebugLogger(false));
    // The check is real: a misspelt option fails it.
    await assert.rejects(
      validateConfiguration(
        { ...config, nsis: { ...config.nsis, perMachin: true } } as Config,
        new DebugLogger(false),
      ),
      /configuration\.nsis/,
    );
  });

  test('every path it names exists', () => {
    const fromRoot = [
      config.directories.app,
      config.directories.buildResources,
      config.afterPack,
      config.win.icon,
      config.mac.icon,
      config.linux.icon,
      config.mac.entitlements,
      config.mac.entitlementsInherit,
      config.nsis.include,
      config.deb.afterInstall,
      ...config.extraResources.map((r) => r.from),
    ];
    for (const path of fromRoot) assert.ok(existsSync(join(ROOT, path)), `${path} exists`);
    for (const icon of ['connected', 'attention', 'paused', 'offline', 'not-activated']) {
      const file = join(ROOT, 'installers/desktop/icons', `tray-${icon}.png`);
      assert.ok(existsSync(file), `${file} exists`);
    }
  });

  test('the files it packs are what the app builds, and the main process loads from them', () => {
    execFileSync(process.execPath, ['--import', 'tsx', 'agent/electron/build.ts'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    const app = join(ROOT, config.directories.app);
    assert.ok(existsSync(join(app, config.extraMetadata.main)), config.extraMetadata.main);
    assert.ok(existsSync(join(app, 'electron/dist/preload.cjs')));
    assert.ok(existsSync(join(app, 'window/dist/index.html')), 'the window is built (prepare)');
    const patterns = config.files.flatMap((f) => (typeof f === 'string' ? [f] : f.filter));
    for (const pattern of patterns.filter((f) => !f.startsWith('!'))) {
      const base = pattern.replace(/\/\*\*$/, '');
      assert.ok(existsSync(join(app, base)), `files: ${pattern}`);
    }
    // Files the bundle reads beside itself are there (the printer profiles, the version).
    const main = readFileSync(join(app, config.extraMetadata.main), 'utf8');
    for (const m of main.matchAll(/new URL\("(\.[^"]+)", import\.meta\.url\)/g)) {
      const target = join(app, 'electron/dist', m[1]!);
      assert.ok(existsSync(target), `${m[1]} read by main.js exists`);
    }
    // Everything it imports is Electron, Node, or a dependency the agent ships.
    const deps = Object.keys(
      (JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { dependencies: object })
        .dependencies,
    );
    const shared = Object.keys(
      (
        JSON.parse(readFileSync(join(ROOT, 'shared/package.json'), 'utf8')) as {
          dependencies?: object;
        }
      ).dependencies ?? {},
    );
    for (const m of main.matchAll(/^import .* from "([^"]+)";$/gm)) {
      // A chunk the bundler split off (code main.js shares with a lazily loaded module) is
      // packed beside it, with the rest of electron/dist/.
      if (m[1]!.startsWith('./')) {
        assert.ok(existsSync(join(app, 'electron/dist', m[1]!)), `${m[1]} beside main.js`);
        continue;
      }
      const name = m[1]!.startsWith('@')
        ? m[1]!.split('/').slice(0, 2).join('/')
        : m[1]!.split('/')[0]!;
      assert.ok(
        name === 'electron' ||
          name.startsWith('node:') ||
          deps.includes(name) ||
          shared.includes(name),
        `main.js imports ${m[1]}, which the app does not ship`,
      );
    }
  });

  test('Windows NSIS per machine, macOS universal dmg with the hardened runtime, Linux AppImage and deb', () => {
    assert.deepEqual(
      config.win.target.map((t) => t.target),
      ['nsis'],
    );
    assert.equal(config.nsis.perMachine, true);
    assert.match(readFileSync(join(ROOT, config.nsis.include), 'utf8'), /CurrentVersion\\Run/);
    assert.deepEqual(config.mac.target, [{ target: 'dmg', arch: ['universal'] }]);
    assert.equal(config.mac.hardenedRuntime, true);
    const entitlements = readFileSync(join(ROOT, config.mac.entitlements), 'utf8');
    for (const key of [
      'com.apple.security.device.usb',
      'com.apple.security.network.client',
      'com.apple.security.network.server',
    ]) {
      assert.match(entitlements, new RegExp(`<key>${key.replace(/\./g, '\\.')}</key>\\s*<true/>`));
    }
    assert.deepEqual(config.linux.target.map((t) => t.target).sort(), ['AppImage', 'deb']);
  });

  test('native modules are rebuilt for Electron and unpacked from the ASAR', () => {
    assert.equal(config.asar, true);
    assert.equal(config.npmRebuild, true);
    for (const name of ['better-sqlite3', 'usb', 'serialport', 'sharp']) {
      assert.ok(
        config.asarUnpack.some((p) => p.includes(`/node_modules/${name}/`)),
        `${name} unpacked`,
      );
    }
  });

  test('auto-update reads a generic feed from PRINTWIRE_UPDATE_URL', () => {
    assert.deepEqual(
      { provider: config.publish.provider, url: config.publish.url },
      { provider: 'generic', url: '${env.PRINTWIRE_UPDATE_URL}' },
    );
  });

  test('the afterPack hook turns RunAsNode, NODE_OPTIONS and inspect off, ASAR integrity on', async () => {
    const { fuseConfig } = (await import(join(ROOT, config.afterPack))) as {
      fuseConfig(): Record<string, unknown>;
    };
    const { FuseV1Options } = require('@electron/fuses') as {
      FuseV1Options: Record<string, number>;
    };
    const fuses = fuseConfig();
    assert.equal(fuses[FuseV1Options.RunAsNode!], false);
    assert.equal(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable!], false);
    assert.equal(fuses[FuseV1Options.EnableNodeCliInspectArguments!], false);
    assert.equal(fuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation!], true);
    assert.equal(fuses[FuseV1Options.OnlyLoadAppFromAsar!], true);
  });
});
