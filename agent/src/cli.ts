import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { PrintwireError } from '@printwire/shared/errors/index';
import { Agent, AGENT_VERSION, QUEUE_FILE, WINDOW_KEY_FILE } from './agent.js';
import {
  configuredPrinters,
  loadConfig,
  readDeviceToken,
  saveConfig,
  setPrinterHidden,
} from './config/config-store.js';
import { parsePrinterUri } from './config/printer-uri.js';
import { discoveryIntervalFromEnv } from './discovery/discovery-loop.js';
import { autoPrinters } from './discovery/printer-kind.js';
import { resolveDataDir } from './config/data-dir.js';
import { defaultDiscoverySources } from './discovery/default-sources.js';
import { discoverPrinters, formatDiscovered } from './discovery/discover.js';
import { exportLogs } from './logs/export.js';
import { JobQueue } from './queue/job-queue.js';
import { readLocalServerState } from './local-server/local-mode.js';
import { loadOriginAnswers, normalizeOrigin, setOriginAnswer } from './local-server/local-store.js';
import { caCertPath, ensureLocalTls } from './local-server/tls.js';
import { SERVICE_ACTIONS, servicePlan, type ServiceAction } from './service/plan.js';
import { runServicePlan } from './service/run.js';

const USAGE = `printwire-agent ${AGENT_VERSION}

Usage:
  printwire-agent start --cloud URL [--activation-code CODE] [--printer URI]...
                        [--local-port N | --no-local-server] [--name NAME]
  printwire-agent printers [--json [--discover]]
  printwire-agent printers hide ID | show ID
  printwire-agent status [--json]
  printwire-agent logs export --out FILE.zip
  printwire-agent local-ca
  printwire-agent origins [allow|block|forget ORIGIN] [--json]
  printwire-agent window
  printwire-agent service install|uninstall|status [--dry-run] [--winsw PATH]

Every command takes --data-dir DIR (default: PRINTWIRE_AGENT_DATA_DIR, else the per-user
application data folder). Printer URIs: tcp://HOST[:PORT], serial:PATH?baud=N,
usb://VID:PID[/SERIAL], system:QUEUE, each with ?name=&alias=&paper=58mm|80mm&codepage=&lang=
(lang=zpl|epl label printers: paper=4x6in|100x150mm, the label, and dpi=203|300|600).
\`printers\` also lists the USB printers, serial ports and system queues found on this computer
(--json lists only the configured printers unless --discover is given). The agent uses and
reports the USB printers and system queues it finds beside the configured ones, looking again
every 30 s (PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS) and when USB devices come and go;
\`printers hide ID\` stops reporting one (applied by a running agent at its next look).
\`local-ca\` prints the path of the local server's CA certificate (made if missing), for
installers and browsers to trust. \`origins\` lists the answers kept per origin for unsigned
local printing, or sets (allow, block) or removes (forget) one. \`window\` prints the address of
the running agent's window (its pages, with this start's key) for a browser on this computer.
\`service\` runs the agent as a system service (systemd, launchd, or WinSW on Windows, whose
executable --winsw names): it prints each step and does it (as root or administrator);
--dry-run prints the steps only.`;

const OPTIONS = {
  'data-dir': { type: 'string' },
  cloud: { type: 'string' },
  'activation-code': { type: 'string' },
  printer: { type: 'string', multiple: true },
  'local-port': { type: 'string' },
  'no-local-server': { type: 'boolean' },
  name: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  discover: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  winsw: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

class UsageError extends Error {}

function print(value: unknown, json: boolean, text: () => string): void {
  process.stdout.write(json ? JSON.stringify(value, null, 2) + '\n' : text() + '\n');
}

async function start(values: Values, dataDir: string): Promise<void> {
  if (values['local-port'] !== undefined && values['no-local-server']) {
    throw new UsageError('--local-port and --no-local-server exclude each other');
  }
  const localPort = values['local-port'];
  if (
    localPort !== undefined &&
    (!/^\d{1,5}$/.test(localPort) || Number(localPort) < 1 || Number(localPort) > 65535)
  ) {
    throw new UsageError('--local-port must be a port number (1-65535)');
  }
  const agent = await Agent.open({
    dataDir,
    discovery: await defaultDiscoverySources(),
    discoveryIntervalMs: discoveryIntervalFromEnv(process.env),
    ...(values.cloud ? { cloudUrl: values.cloud } : {}),
    ...(values['activation-code'] ? { activationCode: values['activation-code'] } : {}),
    ...(values.printer ? { printers: values.printer } : {}),
    ...(values.name ? { deviceName: values.name } : {}),
    ...(values['no-local-server']
      ? {}
      : {
          localServer:
            values['local-port'] !== undefined ? { port: Number(values['local-port']) } : {},
        }),
  });
  agent.start();
  agent.logger.info(
    {
      dataDir,
      cloud: agent.config.cloudUrl,
      printers: agent.printers.length,
      deviceId: agent.config.deviceId,
    },
    'printwire-agent started',
  );
  void agent.localServerReady.then((port) => {
    if (port) process.stdout.write(`local server on https://localhost:${port}\n`);
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    agent.logger.info({ signal }, 'stopping');
    void agent.stop().finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** `printers hide ID` / `show ID`: kept in the data dir; a running agent applies it at its next look. */
function hideOrShow(dataDir: string, action: 'hide' | 'show', id: string | undefined): void {
  if (!id)
    throw new UsageError(`expected: printers ${action} ID (an id printwire-agent printers lists)`);
  saveConfig(dataDir, setPrinterHidden(loadConfig(dataDir), id, action === 'hide'));
  process.stdout.write(
    `printer ${id} ${action === 'hide' ? 'hidden: it is no longer reported' : 'shown again'}\n`,
  );
}

async function printers(values: Values, dataDir: string): Promise<void> {
  let config = loadConfig(dataDir);
  const list = configuredPrinters(config).map((p) => ({
    agentPrinterId: p.agentPrinterId,
    name: p.spec.name,
    alias: p.spec.alias,
    uri: p.spec.uri,
    language: p.spec.language,
    paper: p.spec.labelSize ?? p.spec.paper,
  }));
  // `--json` alone stays the list of configured printers (scripts read it).
  if (values.json && !values.discover) return print(list, true, () => '');
  const found = await discoverPrinters(await defaultDiscoverySources());
  // The printers found get their ids now (the ones a running agent gives them too).
  const auto = autoPrinters(config, found.printers);
  if (JSON.stringify(auto.config.printerIds) !== JSON.stringify(config.printerIds)) {
    const disk = loadConfig(dataDir);
    config = { ...disk, printerIds: { ...disk.printerIds, ...auto.config.printerIds } };
    saveConfig(dataDir, config);
  }
  const ids = new Map(
    [...auto.printers, ...auto.hidden].map((p) => [p.spec.connectionKey, p.agentPrinterId]),
  );
  const hidden = new Set(config.hiddenPrinters);
  const discovered = found.printers.map((p) => {
    const agentPrinterId = ids.get(parsePrinterUri(p.uri).connectionKey) ?? null;
    return { agentPrinterId, hidden: agentPrinterId !== null && hidden.has(agentPrinterId), ...p };
  });
  if (values.json) {
    return print({ configured: list, discovered, problems: found.problems }, true, () => '');
  }
  const configured =
    list.length === 0
      ? 'No printers configured (the USB printers and system queues found are used). Add one with: printwire-agent start --printer URI'
      : ['Configured:', ...list.map((p) => `  ${p.agentPrinterId}  ${p.name}  ${p.uri}`)].join(
          '\n',
        );
  const idLines = discovered
    .filter((p) => p.agentPrinterId !== null)
    .map((p) => `  ${p.agentPrinterId}  ${p.uri}${p.hidden ? '  (hidden)' : ''}`);
  process.stdout.write(
    `${configured}\n\nFound on this computer:\n${formatDiscovered(found)}` +
      (idLines.length > 0
        ? `\nIn use beside the configured ones (hide one with: printwire-agent printers hide ID):\n${idLines.join('\n')}\n`
        : ''),
  );
}

function status(values: Values, dataDir: string): void {
  const config = loadConfig(dataDir);
  const queuePath = join(dataDir, QUEUE_FILE);
  let queue = null;
  if (existsSync(queuePath)) {
    const q = new JobQueue(queuePath);
    queue = q.summary();
    q.close();
  }
  const value = {
    dataDir,
    deviceId: config.deviceId,
    organizationId: config.organizationId,
    activated: readDeviceToken(dataDir) !== null,
    cloud: config.cloudUrl,
    printers: configuredPrinters(config).map((p) => ({
      agentPrinterId: p.agentPrinterId,
      name: p.spec.name,
      uri: p.spec.uri,
    })),
    queue,
    localServer: readLocalServerState(dataDir),
  };
  print(value, values.json === true, () =>
    [
      `device:    ${value.deviceId ?? '(not activated)'}${value.activated ? '' : ' (no device token)'}`,
      `cloud:     ${value.cloud ?? '(none)'}`,
      `data dir:  ${dataDir}`,
      `printers:  ${value.printers.length === 0 ? '(none)' : value.printers.map((p) => `${p.name} (${p.uri})`).join(', ')}`,
      `local:     ${value.localServer ? value.localServer.url : '(not running)'}`,
      `queue:     ${
        queue
          ? `${queue.queued} queued, ${queue.printing} printing, ${queue.printed} printed, ${queue.failed} failed, ${queue.unconfirmed} results not yet confirmed`
          : '(empty)'
      }`,
    ].join('\n'),
  );
}

function origins(values: Values, dataDir: string, action?: string, text?: string): void {
  if (action !== undefined) {
    if (!['allow', 'block', 'forget'].includes(action)) {
      throw new UsageError('expected: origins [allow|block|forget ORIGIN]');
    }
    const origin = text === undefined ? null : normalizeOrigin(text);
    if (origin === null) {
      throw new UsageError(
        `origins ${action}: ORIGIN must be scheme://host[:port], e.g. https://shop.example`,
      );
    }
    setOriginAnswer(dataDir, origin, action === 'forget' ? null : (action as 'allow' | 'block'));
  }
  const answers = loadOriginAnswers(dataDir);
  const list = Object.entries(answers).map(([origin, a]) => ({
    origin,
    answer: a.answer,
    at: a.at,
  }));
  print(list, values.json === true, () =>
    list.length === 0
      ? 'No answers kept (unsigned pages are asked when the organization allows it).'
      : list.map((o) => `${o.answer.padEnd(5)}  ${o.origin}  (${o.at})`).join('\n'),
  );
}

/**
 * `window`: the running agent's window address with its per-launch key (readable only by the
 * data dir's owner), for a headless install opened in a browser on the same computer.
 */
function windowAddress(dataDir: string): void {
  const server = readLocalServerState(dataDir);
  const keyFile = join(dataDir, WINDOW_KEY_FILE);
  if (!server || !existsSync(keyFile)) {
    throw new UsageError(
      'no running agent with its local server in this data dir: start it first (without --no-local-server)',
    );
  }
  const key = readFileSync(keyFile, 'utf8').trim();
  process.stdout.write(`http://localhost:${server.port}/#key=${key}\n`);
}

/** `service install|uninstall|status`: the steps for this OS, printed, then done. */
function service(values: Values, action: string | undefined): void {
  if (!SERVICE_ACTIONS.includes(action as ServiceAction)) {
    throw new UsageError('expected: service install|uninstall|status [--dry-run]');
  }
  const dryRun = values['dry-run'] === true;
  const script = process.argv[1];
  const steps = servicePlan(action as ServiceAction, {
    platform: process.platform,
    agentCommand: script ? [process.execPath, realpathSync(script)] : [process.execPath],
    exists: existsSync,
    env: process.env,
    ...(values.winsw ? { winsw: values.winsw } : {}),
  });
  if (
    !dryRun &&
    action !== 'status' &&
    process.getuid?.() !== undefined &&
    process.getuid() !== 0
  ) {
    throw new UsageError(
      `service ${action} changes the system: run it as root (sudo), or add --dry-run`,
    );
  }
  process.stdout.write(
    dryRun ? `service ${action}: would do these steps\n` : `service ${action}:\n`,
  );
  if (!runServicePlan(steps, { dryRun })) process.exitCode = 1;
}

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  if (values.version) {
    process.stdout.write(`${AGENT_VERSION}\n`);
    return;
  }
  const [command, sub] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  if (command === 'service') return service(values, sub);
  const dataDir = resolveDataDir({ flag: values['data-dir'] });
  switch (command) {
    case 'start':
      return start(values, dataDir);
    case 'printers':
      if (sub === 'hide' || sub === 'show') return hideOrShow(dataDir, sub, positionals[2]);
      if (sub !== undefined) throw new UsageError(`unknown printers command '${sub}'`);
      return printers(values, dataDir);
    case 'status':
      return status(values, dataDir);
    case 'logs': {
      if (sub !== 'export') throw new UsageError('expected: logs export --out FILE.zip');
      if (!values.out) throw new UsageError('logs export needs --out FILE.zip');
      const { files } = await exportLogs({ dataDir, out: values.out, agentVersion: AGENT_VERSION });
      process.stdout.write(`wrote ${values.out} (${files.length} files)\n`);
      return;
    }
    case 'local-ca': {
      if (!existsSync(caCertPath(dataDir))) ensureLocalTls(dataDir);
      process.stdout.write(`${caCertPath(dataDir)}\n`);
      return;
    }
    case 'origins':
      return origins(values, dataDir, sub, positionals[2]);
    case 'window':
      return windowAddress(dataDir);
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
  ) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const code = error instanceof PrintwireError ? ` [${error.code}]` : '';
  process.stderr.write(`error${code}: ${(error as Error).message}\n`);
  process.exit(1);
});
