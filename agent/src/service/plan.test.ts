import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrintwireError } from '@printwire/shared/errors/index';
import {
  LAUNCHD_PLIST,
  LOCAL_UNIT,
  PACKAGED_UNITS,
  servicePlan,
  type ServiceHost,
  type ServiceStep,
} from './plan.js';
import { runServicePlan, type ServiceEffects } from './run.js';

const BIN = new URL('../../bin/printwire-agent.mjs', import.meta.url).pathname;

function host(platform: NodeJS.Platform, extra: Partial<ServiceHost> = {}): ServiceHost {
  return {
    platform,
    agentCommand: ['/usr/bin/node', '/srv/printwire/agent/bin/printwire-agent.mjs'],
    exists: () => false,
    env: {},
    ...extra,
  };
}

const commands = (steps: ServiceStep[]) =>
  steps.map((s) =>
    s.kind === 'run' ? s.argv.join(' ') : `${s.kind} ${'path' in s ? s.path : s.to}`,
  );

/** Effects that record what they were asked and answer exit codes from a table. */
function recorder(codes: Record<string, number> = {}) {
  const done: string[] = [];
  const effects: ServiceEffects = {
    run: (argv, quiet) => {
      done.push(`${quiet ? 'check' : 'run'} ${argv.join(' ')}`);
      return codes[argv.join(' ')] ?? 0;
    },
    writeFile: (path) => done.push(`write ${path}`),
    copyFile: (from, to) => done.push(`copy ${from} ${to}`),
    mkdir: (path) => done.push(`mkdir ${path}`),
    remove: (path) => done.push(`remove ${path}`),
  };
  return { done, effects };
}

describe('service plans', () => {
  test('on Linux with the Debian package, install and uninstall only enable and disable its unit', () => {
    const packaged = host('linux', { exists: (p) => p === PACKAGED_UNITS[0] });
    assert.deepEqual(commands(servicePlan('install', packaged)), [
      'systemctl enable --now printwire-agent.service',
    ]);
    assert.deepEqual(commands(servicePlan('uninstall', packaged)), [
      'systemctl disable --now printwire-agent.service',
    ]);
    assert.deepEqual(commands(servicePlan('status', packaged)), [
      'systemctl status printwire-agent.service --no-pager',
    ]);
  });

  test('on Linux without the package, install writes a unit that runs this agent under a user systemd makes', () => {
    const steps = servicePlan('install', host('linux'));
    assert.deepEqual(commands(steps), [
      `write ${LOCAL_UNIT}`,
      'systemctl daemon-reload',
      'systemctl enable --now printwire-agent.service',
    ]);
    const unit = (steps[0] as { content: string }).content;
    assert.match(
      unit,
      /^ExecStart=\/usr\/bin\/node \/srv\/printwire\/agent\/bin\/printwire-agent\.mjs start$/m,
    );
    assert.match(unit, /^DynamicUser=yes$/m);
    assert.match(unit, /^SupplementaryGroups=lp dialout$/m);
    assert.match(unit, /^Restart=on-failure$/m);
    assert.deepEqual(commands(servicePlan('uninstall', host('linux'))), [
      'systemctl disable --now printwire-agent.service',
      `remove ${LOCAL_UNIT}`,
      'systemctl daemon-reload',
    ]);
  });

  test('the unit written outside the package passes systemd-analyze verify', (t) => {
    if (spawnSync('systemd-analyze', ['--version']).status !== 0) {
      t.skip('systemd-analyze is missing');
      return;
    }
    const steps = servicePlan('install', host('linux', { agentCommand: [process.execPath, BIN] }));
    const dir = mkdtempSync(join(tmpdir(), 'pw-unit-'));
    const file = join(dir, 'printwire-agent.service');
    writeFileSync(file, (steps[0] as { content: string }).content);
    const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /printwire-agent\.service/);
  });

  test('on macOS, install makes the role account unless it exists, then loads the daemon', () => {
    const steps = servicePlan('install', host('darwin'));
    assert.deepEqual(commands(steps), [
      `/bin/sh -c ${(steps[0] as { argv: string[] }).argv[2]}`,
      'mkdir /Library/Application Support/Printwire Agent/logs',
      'chown -R _printwire:_printwire /Library/Application Support/Printwire Agent',
      `write ${LAUNCHD_PLIST}`,
      `launchctl bootstrap system ${LAUNCHD_PLIST}`,
    ]);
    assert.deepEqual((steps[0] as { unless: string[] }).unless, [
      'dscl',
      '.',
      '-read',
      '/Users/_printwire',
    ]);
    assert.match(
      (steps[3] as { content: string }).content,
      /<string>\/usr\/bin\/node<\/string>\n {4}<string>\/srv\/printwire\/agent\/bin\/printwire-agent\.mjs<\/string>\n {4}<string>start<\/string>/,
    );
    assert.deepEqual(commands(servicePlan('uninstall', host('darwin'))), [
      'launchctl bootout system/com.printwire.agent',
      `remove ${LAUNCHD_PLIST}`,
    ]);
  });

  test('on Windows, install needs WinSW, then registers and starts the service under LocalService', () => {
    assert.throws(
      () => servicePlan('install', host('win32')),
      (e: unknown) => e instanceof PrintwireError && /--winsw PATH/.test(e.message),
    );
    const windows = host('win32', {
      agentCommand: ['C:\\Program Files\\nodejs\\node.exe', 'C:\\agent\\bin\\printwire-agent.mjs'],
      env: { ProgramData: 'D:\\ProgramData' },
      winsw: 'C:\\Downloads\\WinSW-x64.exe',
    });
    const steps = servicePlan('install', windows);
    const wrapper = 'D:\\ProgramData\\Printwire\\Agent\\service\\printwire-agent-service.exe';
    assert.deepEqual(commands(steps), [
      'mkdir D:\\ProgramData\\Printwire\\Agent\\service',
      'mkdir D:\\ProgramData\\Printwire\\Agent\\logs',
      'icacls D:\\ProgramData\\Printwire\\Agent /grant *S-1-5-19:(OI)(CI)M /T /Q',
      `copy ${wrapper}`,
      'write D:\\ProgramData\\Printwire\\Agent\\service\\printwire-agent-service.xml',
      `${wrapper} install`,
      `${wrapper} start`,
    ]);
    const xml = (steps[4] as { content: string }).content;
    assert.match(xml, /<executable>C:\\Program Files\\nodejs\\node\.exe<\/executable>/);
    assert.match(
      xml,
      /<argument>C:\\agent\\bin\\printwire-agent\.mjs<\/argument>\n {2}<argument>start<\/argument>/,
    );
    assert.match(
      xml,
      /<env name="PRINTWIRE_AGENT_DATA_DIR" value="D:\\ProgramData\\Printwire\\Agent"\/>/,
    );
    assert.deepEqual(commands(servicePlan('status', windows)), [`${wrapper} status`]);
  });

  test('another OS is refused by name', () => {
    assert.throws(() => servicePlan('install', host('freebsd')), /freebsd is not supported/);
  });
});

describe('running a plan', () => {
  test('a step whose check succeeds is skipped; a failing step stops the plan unless it may fail', () => {
    const steps = servicePlan('install', host('darwin'));
    const { done, effects } = recorder({ 'dscl . -read /Users/_printwire': 0 });
    const lines: string[] = [];
    assert.equal(
      runServicePlan(steps, { dryRun: false, effects, print: (l) => lines.push(l) }),
      true,
    );
    assert.deepEqual(done.slice(0, 2), [
      'check dscl . -read /Users/_printwire',
      'mkdir /Library/Application Support/Printwire Agent/logs',
    ]);
    assert.ok(lines.includes('    (skipped: already done)'));

    const failing = recorder({ 'systemctl daemon-reload': 1 });
    assert.equal(
      runServicePlan(servicePlan('install', host('linux')), {
        dryRun: false,
        effects: failing.effects,
        print: () => {},
      }),
      false,
    );
    assert.deepEqual(failing.done, [`write ${LOCAL_UNIT}`, 'run systemctl daemon-reload']);

    const stopped = recorder({ 'systemctl disable --now printwire-agent.service': 5 });
    assert.equal(
      runServicePlan(servicePlan('uninstall', host('linux')), {
        dryRun: false,
        effects: stopped.effects,
        print: () => {},
      }),
      true,
    );
    assert.equal(stopped.done.length, 3);
  });

  test('a dry run does nothing and prints each command and the files it would write', () => {
    const { done, effects } = recorder();
    const lines: string[] = [];
    runServicePlan(servicePlan('install', host('linux')), {
      dryRun: true,
      effects,
      print: (l) => lines.push(l),
    });
    assert.deepEqual(done, []);
    const text = lines.join('\n');
    assert.match(text, /\$ systemctl enable --now printwire-agent\.service/);
    assert.match(text, /^ {6}ExecStart=\/usr\/bin\/node /m);
  });

  test('printwire-agent service install --dry-run prints the plan for this OS and changes nothing', (t) => {
    if (process.platform !== 'linux') {
      t.skip('the real dry run is checked on Linux');
      return;
    }
    const r = spawnSync(process.execPath, [BIN, 'service', 'install', '--dry-run'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^service install: would do these steps$/m);
    assert.match(r.stdout, /\$ systemctl enable --now printwire-agent\.service/);
    if (!PACKAGED_UNITS.some(existsSync)) {
      assert.match(
        r.stdout,
        new RegExp(`ExecStart=${process.execPath} \\S+printwire-agent\\.mjs start`),
      );
      assert.equal(existsSync(LOCAL_UNIT), false, 'a dry run writes no unit');
    }
    const asNobody = (...args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], {
        encoding: 'utf8',
        timeout: 20_000,
        uid: 65534,
        gid: 65534,
        env: { ...process.env, HOME: tmpdir() },
      });
    // As another user (when root can be one and the checkout is readable), a real install is
    // refused before anything is done.
    if (process.getuid?.() === 0 && asNobody('--version').status === 0) {
      const user = asNobody('service', 'install');
      assert.equal(user.status, 2, user.stderr);
      assert.match(user.stderr, /service install changes the system: run it as root \(sudo\)/);
    }
    const bad = spawnSync(process.execPath, [BIN, 'service', 'restart'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /expected: service install\|uninstall\|status/);
  });
});
