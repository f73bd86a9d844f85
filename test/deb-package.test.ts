/**
 * The Debian package on this Debian machine: built by `npm run package:deb`, installed with
 * dpkg, its unit verified by systemd-analyze, run as its own user, its udev rules parsed by
 * udevadm, removed (the data stays) and purged (the data and the user go). Needs root and dpkg
 * (CI has both); the package is purged afterwards even when a step fails.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { freePort } from './e2e-support.js';
import { fileURLToPath } from 'node:url';

// The installed command by its path: under `npm test` the PATH starts with node_modules/.bin,
// whose printwire-agent is the checkout's.
const INSTALLED = '/usr/bin/printwire-agent';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VERSION = (
  JSON.parse(readFileSync(new URL('../agent/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
const DEB = `${ROOT}installers/dist/printwire-agent_${VERSION}_amd64.deb`;
const UNIT = '/lib/systemd/system/printwire-agent.service';
const RULES = '/lib/udev/rules.d/60-printwire-agent.rules';

function run(command: string, ...args: string[]) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status ?? (r.error ? 127 : 1), stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
const has = (command: string) => run('sh', '-c', `command -v ${command}`).code === 0;

function whyNot(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'the package is linux-x64';
  if (process.getuid?.() !== 0) return 'dpkg -i needs root (CI runs as root)';
  for (const tool of ['dpkg', 'dpkg-deb', 'runuser', 'objdump']) {
    if (!has(tool)) return `${tool} is missing (a Debian machine has it; objdump is in binutils)`;
  }
  return null;
}
const skip = whyNot();
if (skip) process.stdout.write(`# deb-package: skipped: ${skip}\n`);

/** dpkg's state of the package: 'installed', 'config-files' or null. */
function packageState(): string | null {
  const r = run('dpkg-query', '-W', '-f=${db:Status-Status}', 'printwire-agent');
  return r.code === 0 && r.stdout !== 'not-installed' ? r.stdout : null;
}

function purge(): void {
  if (packageState() !== null) run('dpkg', '--purge', 'printwire-agent');
}

describe('the Debian package', { skip: skip ?? false, concurrency: false }, () => {
  before(() => {
    // A run that died half way may have left it installed.
    purge();
  });
  after(() => {
    purge();
    rmSync(DEB, { force: true });
  });

  test('npm run package:deb builds it and prints its path last', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'installers/deb/build-deb.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, PRINTWIRE_DEB_COMPRESSION: 'gzip' },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').at(-1), DEB);
    const info = run('dpkg-deb', '--field', DEB, 'Package', 'Version', 'Architecture', 'Depends');
    assert.match(info.stdout, /^Package: printwire-agent$/m);
    assert.match(info.stdout, new RegExp(`^Version: ${VERSION.replace(/\./g, '\\.')}$`, 'm'));
    assert.match(info.stdout, /^Architecture: amd64$/m);
    assert.match(info.stdout, /^Depends: adduser, init-system-helpers, .*libc6/m);
  });

  test('dpkg -i installs the agent, its user in group lp, its unit, rules and folders', () => {
    const r = run('dpkg', '-i', DEB);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(packageState(), 'installed');
    for (const path of ['/usr/bin/printwire-agent', '/opt/printwire-agent/bin/node', UNIT, RULES]) {
      assert.ok(existsSync(path), `${path} is installed`);
    }
    const passwd = run('getent', 'passwd', 'printwire').stdout.trim().split(':');
    assert.equal(passwd[5], '/var/lib/printwire');
    assert.match(passwd[6] ?? '', /nologin$/);
    const groups = run('id', '-nG', 'printwire').stdout.trim().split(' ');
    assert.ok(groups.includes('lp'), `printwire is in lp (${groups.join(' ')})`);
    assert.ok(groups.includes('dialout'), `printwire is in dialout (${groups.join(' ')})`);
    const data = statSync('/var/lib/printwire');
    assert.equal(data.mode & 0o777, 0o750);
    assert.equal(
      run('stat', '-c', '%U:%G', '/var/lib/printwire').stdout.trim(),
      'printwire:printwire',
    );
    assert.equal(
      run('stat', '-c', '%a %U:%G', '/etc/printwire/agent.env').stdout.trim(),
      '640 root:printwire',
    );
    assert.match(
      run('dpkg-query', '-W', '-f=${Conffiles}', 'printwire-agent').stdout,
      /\/etc\/printwire\/agent\.env [0-9a-f]{32}/,
    );
  });

  test(
    'the unit passes systemd-analyze verify',
    { skip: !has('systemd-analyze') && 'systemd-analyze is missing' },
    () => {
      const r = run('systemd-analyze', 'verify', UNIT);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /printwire-agent\.service/);
      const unit = readFileSync(UNIT, 'utf8');
      assert.match(unit, /^Restart=on-failure$/m);
      assert.match(unit, /^User=printwire$/m);
    },
  );

  test('printwire-agent --version runs as the printwire user, with its native modules', () => {
    const version = run('runuser', '-u', 'printwire', '--', INSTALLED, '--version');
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), VERSION);
    // The native modules load from the package, with the package's Node.
    const natives = run(
      'runuser',
      '-u',
      'printwire',
      '--',
      '/opt/printwire-agent/bin/node',
      '-e',
      `const { createRequire } = require('node:module');
       const from = createRequire('/opt/printwire-agent/agent/dist/printwire-agent.mjs');
       new (from('better-sqlite3'))(':memory:').prepare('select 1').get();
       from('usb'); from('serialport'); from('sharp');
       createRequire(from.resolve('pdfjs-dist/package.json'))('@napi-rs/canvas');
       console.log('loaded');`,
    );
    assert.equal(natives.stdout.trim(), 'loaded', natives.stderr);
    // The chunks loaded with the first pdf, image or html job resolve pdf.js (and its fonts'
    // folder), sharp and puppeteer-core from the package.
    const chunks = run(
      'runuser',
      '-u',
      'printwire',
      '--',
      '/opt/printwire-agent/bin/node',
      '--input-type=module',
      '-e',
      `import { readdirSync } from 'node:fs';
       const dist = '/opt/printwire-agent/agent/dist/';
       const lazy = readdirSync(dist).filter((f) => /^(media-job|html)-.*\\.mjs$/.test(f));
       for (const f of lazy) await import(dist + f);
       console.log(lazy.length);`,
    );
    assert.equal(chunks.stdout.trim(), '2', chunks.stderr);
    // As from a checkout, the agent starts without the modules only some jobs need.
    const entry = readFileSync('/opt/printwire-agent/agent/dist/printwire-agent.mjs', 'utf8');
    assert.doesNotMatch(entry, /^import .* from "(sharp|puppeteer-core|pdfjs-dist[^"]*)";$/m);
  });

  test('the agent starts as the printwire user, logs into /var/lib/printwire and serves its window', async () => {
    const port = await freePort();
    const child = spawn(
      'runuser',
      ['-u', 'printwire', '--', INSTALLED, 'start', '--local-port', String(port)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const lines = createInterface({ input: child.stdout });
    let started = false;
    for await (const line of lines) {
      if (line.includes('printwire-agent started')) {
        started = true;
        break;
      }
    }
    // The window's pages come with the package: `printwire-agent window` names the address.
    const address = started
      ? run('runuser', '-u', 'printwire', '--', INSTALLED, 'window')
      : undefined;
    const page = address?.code === 0 ? await fetch(new URL(address.stdout.trim())) : undefined;
    child.kill('SIGTERM');
    await exited;
    assert.ok(started, `the agent did not start: ${stderr}`);
    assert.equal(address?.code, 0, address?.stderr);
    assert.equal(page?.status, 200, 'the window is built into the package');
    assert.match(page?.headers.get('content-type') ?? '', /text\/html/);
    assert.ok(
      existsSync('/var/lib/printwire/queue.db'),
      `the queue is in the data folder (it holds: ${readdirSync('/var/lib/printwire').join(', ')}; the agent said: ${stderr})`,
    );
    assert.ok(existsSync('/var/lib/printwire/logs/agent.1.log'), 'the log is in the data folder');

    // The support zip, made by the packaged agent as its user.
    const zip = '/var/lib/printwire/support.zip';
    const exported = run(
      'runuser',
      '-u',
      'printwire',
      '--',
      INSTALLED,
      'logs',
      'export',
      '--out',
      zip,
    );
    assert.equal(exported.code, 0, exported.stderr);
    if (has('unzip')) assert.match(run('unzip', '-Z1', zip).stdout, /^logs\/agent\.1\.log$/m);
  });

  test(
    'udevadm parses the udev rules without an error',
    { skip: !has('udevadm') && 'udevadm is missing (Debian package udev)' },
    () => {
      // systemd 254 and later verify rules files by themselves; 252 (Debian 12) reads every rules
      // file for a test event and reports each bad line as "file:line message".
      const verify = run('udevadm', 'verify', RULES);
      if (verify.code === 0 || !/unknown command|invalid/i.test(verify.stderr)) {
        assert.equal(verify.code, 0, verify.stdout + verify.stderr);
        return;
      }
      // Any device will do: the rules files are all read before the event is matched.
      const device = ['/sys/devices/virtual/mem/null', '/sys/class/net/lo']
        .filter((p) => existsSync(p))
        .map((p) => realpathSync(p))[0];
      assert.ok(device, 'a device under /sys to test the rules with');
      const r = run('udevadm', 'test', '--action=add', device);
      const output = r.stdout + r.stderr;
      assert.match(output, /Reading rules file: \S*60-printwire-agent\.rules/);
      const problems = output.split('\n').filter((l) => /60-printwire-agent\.rules:\d+/.test(l));
      assert.deepEqual(problems, [], 'udevadm reports no problem in the rules');
    },
  );

  test('dpkg -r keeps /var/lib/printwire; dpkg -P removes it and the user', () => {
    writeFileSync('/var/lib/printwire/device-token', 'kept across dpkg -r');
    // An admin enabled the service (systemctl works on the files without a running systemd).
    const wants = '/etc/systemd/system/multi-user.target.wants/printwire-agent.service';
    const enabled =
      has('systemctl') && run('systemctl', 'enable', 'printwire-agent.service').code === 0;
    if (enabled) assert.ok(existsSync(wants), 'systemctl enable made its link');
    const remove = run('dpkg', '-r', 'printwire-agent');
    assert.equal(remove.code, 0, remove.stdout + remove.stderr);
    assert.equal(packageState(), 'config-files');
    assert.equal(existsSync('/usr/bin/printwire-agent'), false);
    assert.equal(existsSync('/opt/printwire-agent'), false);
    assert.equal(readFileSync('/var/lib/printwire/device-token', 'utf8'), 'kept across dpkg -r');
    assert.ok(existsSync('/etc/printwire/agent.env'), 'the configuration stays until purge');
    assert.equal(existsSync(wants), false, 'no link to a removed unit is left');

    const purged = run('dpkg', '-P', 'printwire-agent');
    assert.equal(purged.code, 0, purged.stdout + purged.stderr);
    assert.equal(packageState(), null);
    assert.equal(existsSync('/var/lib/printwire'), false);
    assert.equal(existsSync('/etc/printwire'), false);
    assert.notEqual(run('getent', 'passwd', 'printwire').code, 0, 'the user is removed');
    assert.notEqual(run('getent', 'group', 'printwire').code, 0, 'its group is removed');
  });
});
