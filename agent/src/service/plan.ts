import { posix, win32 } from 'node:path';
import { PrintwireError } from '@printwire/shared/errors/index';
import { SERVICE_DATA_DIRS, SERVICE_NAMES, launchdPlist, systemdUnit, winswXml } from './units.js';

export type ServiceAction = 'install' | 'uninstall' | 'status';
export const SERVICE_ACTIONS: readonly ServiceAction[] = ['install', 'uninstall', 'status'];

/** One thing `printwire-agent service` does; `say` is what it tells the person running it. */
export type ServiceStep =
  | {
      kind: 'run';
      say: string;
      argv: string[];
      /** Skip the step when this command succeeds (e.g. the user exists already). */
      unless?: string[];
      /** A failure is reported but does not stop the plan (stopping what is not running). */
      mayFail?: boolean;
    }
  | { kind: 'write'; say: string; path: string; content: string; mode: number }
  | { kind: 'copy'; say: string; from: string; to: string }
  | { kind: 'mkdir'; say: string; path: string }
  | { kind: 'remove'; say: string; path: string };

type RunStep = Extract<ServiceStep, { kind: 'run' }>;

/** What the plan depends on, injected so that every OS's plan is tested on any OS. */
export interface ServiceHost {
  platform: NodeJS.Platform;
  /** How to start the agent: `[node, script]` from a checkout, or one packaged executable. */
  agentCommand: string[];
  /** Whether a file exists (the Debian package's unit). */
  exists(path: string): boolean;
  env: NodeJS.ProcessEnv;
  /** Windows: the WinSW 2.x executable (`--winsw PATH`). */
  winsw?: string;
}

/** Where the Debian package puts its unit; when present `service` only enables it. */
export const PACKAGED_UNITS = [
  `/lib/systemd/system/${SERVICE_NAMES.systemdUnit}`,
  `/usr/lib/systemd/system/${SERVICE_NAMES.systemdUnit}`,
];
export const LOCAL_UNIT = `/etc/systemd/system/${SERVICE_NAMES.systemdUnit}`;
export const LAUNCHD_PLIST = `/Library/LaunchDaemons/${SERVICE_NAMES.launchdLabel}.plist`;

function systemdPlan(action: ServiceAction, host: ServiceHost): ServiceStep[] {
  const unit = SERVICE_NAMES.systemdUnit;
  const packaged = PACKAGED_UNITS.some((p) => host.exists(p));
  const systemctl = (say: string, ...args: string[]): RunStep => ({
    kind: 'run',
    say,
    argv: ['systemctl', ...args],
  });
  switch (action) {
    case 'status':
      return [
        { ...systemctl(`show the state of ${unit}`, 'status', unit, '--no-pager'), mayFail: true },
      ];
    case 'install':
      if (packaged)
        return [systemctl(`start ${unit} now and at every boot`, 'enable', '--now', unit)];
      return [
        {
          kind: 'write',
          say: `write the unit ${LOCAL_UNIT} (user made by systemd, group lp, data in ${SERVICE_DATA_DIRS.linux})`,
          path: LOCAL_UNIT,
          content: systemdUnit({ mode: 'dynamic', execStart: [...host.agentCommand, 'start'] }),
          mode: 0o644,
        },
        systemctl('make systemd read it', 'daemon-reload'),
        systemctl(`start ${unit} now and at every boot`, 'enable', '--now', unit),
      ];
    case 'uninstall': {
      const stop = {
        ...systemctl(`stop ${unit} and no longer start it at boot`, 'disable', '--now', unit),
        mayFail: true,
      };
      if (packaged) return [stop];
      return [
        stop,
        {
          kind: 'remove',
          say: `remove ${LOCAL_UNIT} (the data in ${SERVICE_DATA_DIRS.linux} stays)`,
          path: LOCAL_UNIT,
        },
        systemctl('make systemd forget it', 'daemon-reload'),
      ];
    }
  }
}

/**
 * Makes the `_printwire` role account (hidden, no shell, no password) with the first free id
 * from 300 up: macOS has no `useradd`, and role accounts live below 500.
 */
export const MACOS_CREATE_USER = `set -e
u=${SERVICE_NAMES.macosUser}
id=300
while dscl . -list /Users UniqueID | awk '{print $2}' | grep -qx "$id" || dscl . -list /Groups PrimaryGroupID | awk '{print $2}' | grep -qx "$id"; do id=$((id + 1)); done
dscl . -create /Groups/$u PrimaryGroupID "$id"
dscl . -create /Users/$u UniqueID "$id"
dscl . -create /Users/$u PrimaryGroupID "$id"
dscl . -create /Users/$u UserShell /usr/bin/false
dscl . -create /Users/$u NFSHomeDirectory /var/empty
dscl . -create /Users/$u RealName "Printwire Agent"
dscl . -create /Users/$u IsHidden 1`;

function launchdPlan(action: ServiceAction, host: ServiceHost): ServiceStep[] {
  const target = `system/${SERVICE_NAMES.launchdLabel}`;
  const dataDir = SERVICE_DATA_DIRS.darwin;
  const user = SERVICE_NAMES.macosUser;
  switch (action) {
    case 'status':
      return [
        {
          kind: 'run',
          say: `show the state of ${target}`,
          argv: ['launchctl', 'print', target],
          mayFail: true,
        },
      ];
    case 'install':
      return [
        {
          kind: 'run',
          say: `make the role account ${user} unless it exists`,
          argv: ['/bin/sh', '-c', MACOS_CREATE_USER],
          unless: ['dscl', '.', '-read', `/Users/${user}`],
        },
        {
          kind: 'mkdir',
          say: `make the data folder ${dataDir}`,
          path: posix.join(dataDir, 'logs'),
        },
        {
          kind: 'run',
          say: `give the data folder to ${user}`,
          argv: ['chown', '-R', `${user}:${user}`, dataDir],
        },
        {
          kind: 'write',
          say: `write the daemon ${LAUNCHD_PLIST}`,
          path: LAUNCHD_PLIST,
          content: launchdPlist({ programArguments: [...host.agentCommand, 'start'] }),
          mode: 0o644,
        },
        {
          kind: 'run',
          say: 'start it now and at every boot',
          argv: ['launchctl', 'bootstrap', 'system', LAUNCHD_PLIST],
        },
      ];
    case 'uninstall':
      return [
        {
          kind: 'run',
          say: `stop ${target}`,
          argv: ['launchctl', 'bootout', target],
          mayFail: true,
        },
        {
          kind: 'remove',
          say: `remove ${LAUNCHD_PLIST} (the data in ${dataDir} stays)`,
          path: LAUNCHD_PLIST,
        },
      ];
  }
}

/** `%ProgramData%\Printwire\Agent`, expanded for the files the CLI writes itself. */
function windowsDataDir(env: NodeJS.ProcessEnv): string {
  return win32.join(env.ProgramData ?? 'C:\\ProgramData', 'Printwire', 'Agent');
}

function winswPlan(action: ServiceAction, host: ServiceHost): ServiceStep[] {
  const dataDir = windowsDataDir(host.env);
  const serviceDir = win32.join(dataDir, 'service');
  // WinSW reads the XML of its own name beside it.
  const wrapper = win32.join(serviceDir, `${SERVICE_NAMES.windowsId}-service.exe`);
  const xml = win32.join(serviceDir, `${SERVICE_NAMES.windowsId}-service.xml`);
  const winsw = (say: string, command: string, mayFail = false): RunStep => ({
    kind: 'run',
    say,
    argv: [wrapper, command],
    mayFail,
  });
  switch (action) {
    case 'status':
      return [winsw(`show the state of the service ${SERVICE_NAMES.windowsId}`, 'status', true)];
    case 'install': {
      if (!host.winsw) {
        throw new PrintwireError(
          'VALIDATION_FAILED',
          'winsw: service install on Windows needs --winsw PATH, the WinSW 2.x executable (WinSW-x64.exe)',
        );
      }
      const [executable = 'printwire-agent', ...args] = host.agentCommand;
      return [
        { kind: 'mkdir', say: `make the service folder ${serviceDir}`, path: serviceDir },
        { kind: 'mkdir', say: `make the log folder`, path: win32.join(dataDir, 'logs') },
        {
          kind: 'run',
          say: `let the service account (LocalService) change ${dataDir}`,
          argv: ['icacls', dataDir, '/grant', '*S-1-5-19:(OI)(CI)M', '/T', '/Q'],
        },
        { kind: 'copy', say: `copy WinSW to ${wrapper}`, from: host.winsw, to: wrapper },
        {
          kind: 'write',
          say: `write the service definition ${xml}`,
          path: xml,
          content: winswXml({ executable, arguments: [...args, 'start'], dataDir }),
          mode: 0o644,
        },
        winsw('register the service (automatic start)', 'install'),
        winsw('start it now', 'start'),
      ];
    }
    case 'uninstall':
      return [
        winsw('stop the service', 'stop', true),
        winsw('unregister the service', 'uninstall'),
        {
          kind: 'remove',
          say: `remove ${serviceDir} (the data in ${dataDir} stays)`,
          path: serviceDir,
        },
      ];
  }
}

/** What `printwire-agent service ACTION` does on the host's OS, step by step. */
export function servicePlan(action: ServiceAction, host: ServiceHost): ServiceStep[] {
  switch (host.platform) {
    case 'linux':
      return systemdPlan(action, host);
    case 'darwin':
      return launchdPlan(action, host);
    case 'win32':
      return winswPlan(action, host);
    default:
      throw new PrintwireError(
        'VALIDATION_FAILED',
        `service: ${host.platform} is not supported (Linux with systemd, macOS, Windows)`,
      );
  }
}
