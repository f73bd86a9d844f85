/**
 * The service definitions of the headless agent, one per OS: a systemd unit, a launchd plist and
 * a WinSW configuration. They are text built from a few facts (what to run, as whom, where the
 * data goes) so that the Debian package, the files under installers/ and `printwire-agent
 * service install` all write the same thing.
 */

/** The names every installer and the CLI use (CONTRACT.md, "The installable agent"). */
export const SERVICE_NAMES = {
  systemdUnit: 'printwire-agent.service',
  launchdLabel: 'com.printwire.agent',
  windowsId: 'printwire-agent',
  linuxUser: 'printwire',
  macosUser: '_printwire',
} as const;

/** Default data folders of the system service on each OS. */
export const SERVICE_DATA_DIRS = {
  linux: '/var/lib/printwire',
  darwin: '/Library/Application Support/Printwire Agent',
  win32: '%ProgramData%\\Printwire\\Agent',
} as const;

export interface SystemdUnitOptions {
  /** The command line of ExecStart, one word per entry (quoted as systemd wants). */
  execStart: string[];
  /**
   * `package`: the Debian package's unit (user `printwire` made by the package, options from
   * /etc/printwire/agent.env). `dynamic`: a unit written by `service install` outside the
   * package (systemd makes the user: DynamicUser).
   */
  mode: 'package' | 'dynamic';
}

/** One systemd word: quoted when it holds a space, a quote or a backslash. */
function systemdWord(word: string): string {
  if (/^[^\s"'\\$%;]+$/.test(word)) return word;
  return `"${word.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '$$$$').replace(/%/g, '%%')}"`;
}

/**
 * The systemd unit. Hardened (no capabilities, read-only system, private /tmp, no new
 * privileges) but with what a print agent needs: the USB printer devices (/dev/bus/usb for libusb,
 * /dev/usb/lp* for the kernel's printer class), serial ports, the network (IPv4, IPv6, and
 * netlink for USB hotplug), and the CUPS socket under /run for system queues. Namespaces stay
 * allowed: Chromium, which renders HTML jobs, sandboxes itself with user namespaces. Outside the
 * package the agent may run from a checkout under /home, which stays readable.
 */
export function systemdUnit(options: SystemdUnitOptions): string {
  const { linux: dataDir } = SERVICE_DATA_DIRS;
  const identity =
    options.mode === 'package'
      ? [
          `User=${SERVICE_NAMES.linuxUser}`,
          `Group=${SERVICE_NAMES.linuxUser}`,
          'SupplementaryGroups=lp dialout',
          'EnvironmentFile=-/etc/printwire/agent.env',
        ]
      : ['DynamicUser=yes', 'SupplementaryGroups=lp dialout'];
  return `[Unit]
Description=Printwire print agent
Documentation=file:/usr/share/doc/printwire-agent/installing.md
Wants=network-online.target
After=network-online.target cups.service

[Service]
Type=simple
${identity.join('\n')}
Environment=PRINTWIRE_AGENT_DATA_DIR=${dataDir}
Environment=HOME=${dataDir}
ExecStart=${options.execStart.map(systemdWord).join(' ')}${options.mode === 'package' ? ' $PRINTWIRE_AGENT_OPTIONS' : ''}
Restart=on-failure
RestartSec=5s
TimeoutStopSec=20s
StateDirectory=printwire
StateDirectoryMode=0750
UMask=0027

# Hardening: nothing the agent does needs more.
NoNewPrivileges=yes
CapabilityBoundingSet=
AmbientCapabilities=
ProtectSystem=strict
ProtectHome=${options.mode === 'package' ? 'yes' : 'read-only'}
PrivateTmp=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
RestrictSUIDSGID=yes
RestrictRealtime=yes
LockPersonality=yes
SystemCallArchitectures=native
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
# Devices: only printers. USB through libusb (/dev/bus/usb, major usb_device) and the kernel's
# printer class (/dev/usb/lp*, major usb), serial ports (ttyS, ttyUSB, ttyACM).
DevicePolicy=closed
DeviceAllow=char-usb_device rw
DeviceAllow=char-usb rw
DeviceAllow=char-ttyS rw
DeviceAllow=char-ttyUSB rw
DeviceAllow=char-ttyACM rw

[Install]
WantedBy=multi-user.target
`;
}

function xmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export interface LaunchdPlistOptions {
  /** The program and its arguments. */
  programArguments: string[];
  /** The data folder; default `SERVICE_DATA_DIRS.darwin`. */
  dataDir?: string;
}

/**
 * The launchd daemon (in /Library/LaunchDaemons): runs at boot as the `_printwire` role account,
 * restarted when it exits with an error (KeepAlive.SuccessfulExit = false), at most every 10 s.
 */
export function launchdPlist(options: LaunchdPlistOptions): string {
  const dataDir = options.dataDir ?? SERVICE_DATA_DIRS.darwin;
  const args = options.programArguments
    .map((a) => `    <string>${xmlEscape(a)}</string>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${SERVICE_NAMES.launchdLabel}</string>
  <key>ProgramArguments</key>
  <array>
${args}
  </array>
  <key>UserName</key>
  <string>${SERVICE_NAMES.macosUser}</string>
  <key>GroupName</key>
  <string>${SERVICE_NAMES.macosUser}</string>
  <key>EnvironmentVariables</key>
  <dict>
    <key>PRINTWIRE_AGENT_DATA_DIR</key>
    <string>${xmlEscape(dataDir)}</string>
    <key>HOME</key>
    <string>${xmlEscape(dataDir)}</string>
  </dict>
  <key>WorkingDirectory</key>
  <string>${xmlEscape(dataDir)}</string>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ThrottleInterval</key>
  <integer>10</integer>
  <key>ExitTimeOut</key>
  <integer>20</integer>
  <key>ProcessType</key>
  <string>Standard</string>
  <key>StandardOutPath</key>
  <string>${xmlEscape(dataDir)}/logs/launchd.out.log</string>
  <key>StandardErrorPath</key>
  <string>${xmlEscape(dataDir)}/logs/launchd.err.log</string>
</dict>
</plist>
`;
}

export interface WinswOptions {
  /** The program: node.exe, or the agent's own executable. */
  executable: string;
  /** Its arguments, one per `<argument>` (WinSW quotes them). */
  arguments: string[];
  /** The data folder; default `SERVICE_DATA_DIRS.win32`. */
  dataDir?: string;
}

/**
 * The WinSW (2.x) configuration: an automatic service under NT AUTHORITY\LocalService (no
 * administrator rights; the install script gives it the data folder), restarted 10 s then 30 s
 * after a failure, its console output rolled by size into the data folder.
 */
export function winswXml(options: WinswOptions): string {
  const dataDir = options.dataDir ?? SERVICE_DATA_DIRS.win32;
  const args = options.arguments.map((a) => `  <argument>${xmlEscape(a)}</argument>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<service>
  <id>${SERVICE_NAMES.windowsId}</id>
  <name>Printwire Agent</name>
  <description>Prints the jobs of the Printwire cloud and of local web pages on this computer's printers.</description>
  <executable>${xmlEscape(options.executable)}</executable>
${args}
  <workingdirectory>${xmlEscape(dataDir)}</workingdirectory>
  <env name="PRINTWIRE_AGENT_DATA_DIR" value="${xmlEscape(dataDir)}"/>
  <startmode>Automatic</startmode>
  <delayedAutoStart>true</delayedAutoStart>
  <depend>Spooler</depend>
  <stoptimeout>20 sec</stoptimeout>
  <onfailure action="restart" delay="10 sec"/>
  <onfailure action="restart" delay="30 sec"/>
  <resetfailure>1 hour</resetfailure>
  <serviceaccount>
    <username>NT AUTHORITY\\LocalService</username>
  </serviceaccount>
  <logpath>${xmlEscape(dataDir)}\\logs</logpath>
  <log mode="roll-by-size">
    <sizeThreshold>10240</sizeThreshold>
    <keepFiles>5</keepFiles>
  </log>
</service>
`;
}
