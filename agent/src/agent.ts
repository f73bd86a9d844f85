import { arch, hostname, platform } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { PrintwireError } from '@printwire/shared/errors/index';
import {
  PROTOCOL_LIMITS,
  type AgentMessageOf,
  type DispatchedJob,
  type PrinterInfo,
} from '@printwire/shared/protocol/index';
import {
  configuredPrinters,
  deleteDeviceToken,
  ensureDataDir,
  loadConfig,
  readDeviceToken,
  saveConfig,
  setPrinters,
  writeDeviceToken,
  type AgentConfigFile,
  type ConfiguredPrinter,
} from './config/config-store.js';
import { systemClock, type Clock, type TimerHandle } from './core/clock.js';
import type { RenderFunction, RunnerOptions } from './core/printer-worker.js';
import { JobRunner } from './core/runner.js';
import { activate } from './cloud-link/activation.js';
import { CloudLink, type CloudLinkOptions } from './cloud-link/cloud-link.js';
import { createLogger, type AgentLogger } from './logs/logger.js';
import { JobQueue, type ResultMessage } from './queue/job-queue.js';
import type { RenderTarget } from './render/render-job.js';
import type { DiscoveredPrinter, DiscoveryResult, DiscoverySources } from './discovery/discover.js';
import {
  DISCOVERY_INTERVAL_MS,
  DiscoveryLoop,
  discoverWithin,
} from './discovery/discovery-loop.js';
import { autoPrinters, printerKind } from './discovery/printer-kind.js';
import { AgentRenderer } from './render/agent-render.js';
import { TransportRegistry } from './transports/registry.js';
import { createSerialTransport } from './transports/serial/serial-transport.js';
import { createSystemTransport } from './transports/system/system-transport.js';
import { createTcpTransport } from './transports/tcp/tcp-transport.js';
import { createUsbTransport } from './transports/usb/create-usb-transport.js';
import { LocalMode, type LocalModeOptions } from './local-server/local-mode.js';
import { LOCAL_API_VERSION } from './local-server/protocol.js';

/** The agent's version, from its package.json. */
export const AGENT_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

export const QUEUE_FILE = 'queue.db';

/** Longest wait for a discovery pass; the agent goes on without what it has not found by then. */
export const DISCOVERY_TIMEOUT_MS = 5000;
export { DISCOVERY_INTERVAL_MS };

/** How often downloads older than the cache's lifetime (24 h) are removed, in ms. */
export const CACHE_PRUNE_INTERVAL_MS = 60 * 60_000;

export interface AgentOptions {
  dataDir: string;
  /** `--cloud`; remembered in config.json. */
  cloudUrl?: string;
  /** `--activation-code`: used when the agent has no device token yet. */
  activationCode?: string;
  /** `--printer` URIs: when given, the configured printers become exactly these. */
  printers?: string[];
  /** The device name shown in the dashboard; default the host name. */
  deviceName?: string;
  clock?: Clock;
  random?: () => number;
  logger?: AgentLogger;
  /** Transports by URI scheme; default `defaultRegistry()` (tcp, serial, usb, system). */
  registry?: TransportRegistry;
  runner?: RunnerOptions;
  /** Job → printer bytes; default `renderer.render` (see `RenderFunction`). */
  render?: RenderFunction;
  /**
   * Downloads, the browser for HTML jobs and the receipt engine; default an `AgentRenderer`
   * on the data dir (production when NODE_ENV=production). Closed by `stop`.
   */
  renderer?: AgentRenderer;
  /**
   * Where printers are looked for at `open` and then every `discoveryIntervalMs` (the CLI passes
   * `defaultDiscoverySources()`); none by default. Discovered printers give configured ones their
   * kind and capabilities, and the USB printers and system queues found are used and reported
   * beside the configured ones (unless hidden).
   */
  discovery?: DiscoverySources;
  /** Between discovery passes while running, in ms; default 30 s; 0: only at `open`. */
  discoveryIntervalMs?: number;
  /** What a committed job survives; default `power-loss` (see `JobQueueOptions`). */
  durability?: 'power-loss' | 'process';
  link?: Pick<CloudLinkOptions, 'reconnect' | 'handshakeTimeoutMs'>;
  /**
   * The local server for the browser SDK (docs/local-mode.md), started by `start`; none when
   * absent (the CLI passes it unless --no-local-server).
   */
  localServer?: LocalModeOptions;
}

/** The transports this agent version has. */
export function defaultRegistry(): TransportRegistry {
  return new TransportRegistry()
    .register('tcp', createTcpTransport)
    .register('serial', createSerialTransport)
    .register('usb', createUsbTransport)
    .register('system', createSystemTransport);
}

/**
 * The print agent: configuration, the durable queue, one worker per printer, and the link to
 * the cloud. `Agent.open` prepares everything (activating the device when needed); `start`
 * begins printing and connecting.
 */
export class Agent {
  readonly dataDir: string;
  readonly queue: JobQueue;
  readonly logger: AgentLogger;
  readonly link: CloudLink | null;
  readonly renderer: AgentRenderer;
  /** The printers in use: the configured ones, then those found and not hidden. */
  #printers: ConfiguredPrinter[];
  /** Found printers that are no longer found, reported offline (kept in the cloud's list). */
  readonly #gone = new Map<string, PrinterInfo>();
  #discovered: DiscoveredPrinter[];
  readonly #discovery: DiscoveryLoop | null;
  /** The inventory as last reported (without statuses), to report only its changes. */
  #reportedInventory = '';
  #config: AgentConfigFile;
  readonly #runner: JobRunner;
  readonly #clock: Clock;
  #pruneTimer: TimerHandle | null = null;
  /** Local mode: settings, templates and the local API's backend (the server runs on start). */
  readonly local: LocalMode;
  readonly #localOptions: LocalModeOptions | undefined;
  /** Resolves with the local server's port once it listens (null when it is off or failed). */
  localServerReady: Promise<number | null> = Promise.resolve(null);

  private constructor(
    options: AgentOptions,
    config: AgentConfigFile,
    token: string | null,
    logger: AgentLogger,
    found: { discovered: DiscoveredPrinter[]; auto: ConfiguredPrinter[]; problems: string[] },
  ) {
    this.dataDir = options.dataDir;
    this.#config = config;
    this.logger = logger;
    const clock = options.clock ?? systemClock;
    this.#clock = clock;
    this.queue = new JobQueue(join(options.dataDir, QUEUE_FILE), {
      clock,
      ...(options.durability ? { durability: options.durability } : {}),
    });
    this.#discovered = found.discovered;
    this.#printers = [...configuredPrinters(config), ...found.auto];
    const sources = options.discovery;
    const intervalMs = options.discoveryIntervalMs ?? DISCOVERY_INTERVAL_MS;
    this.#discovery = sources
      ? new DiscoveryLoop({
          sources,
          clock,
          logger,
          intervalMs,
          timeoutMs: DISCOVERY_TIMEOUT_MS,
          problems: found.problems,
          onResult: (result) => this.#applyDiscovery(result),
        })
      : null;
    this.renderer =
      options.renderer ??
      new AgentRenderer({
        dataDir: options.dataDir,
        production: process.env.NODE_ENV === 'production',
        now: () => clock.now(),
      });
    this.#runner = new JobRunner(
      this.printers,
      {
        queue: this.queue,
        registry: options.registry ?? defaultRegistry(),
        render: options.render ?? this.renderer.render,
        clock,
        logger,
        targetFor: (printer) => this.#targetFor(printer),
        events: {
          onStatus: (agentPrinterId, report) => {
            logger.info({ printer: agentPrinterId, ...report }, 'printer status');
            this.local.backend.printerStatus(agentPrinterId, report.detail);
            // Kept while the link is down and sent after the next welcome, unless superseded.
            this.link?.report(`status:${agentPrinterId}`, {
              type: 'printer.status',
              agentPrinterId,
              status: report.status,
              ...(report.detail ? { detail: report.detail } : {}),
              at: new Date(clock.now()).toISOString(),
            });
          },
          onProgress: (message) => {
            if (!this.#localChanged(message.jobId)) this.link?.send(message);
          },
          onResult: (message) => {
            logger.info(
              { jobId: message.jobId, outcome: message.outcome, errorCode: message.errorCode },
              'job ended',
            );
            if (!this.#localChanged(message.jobId)) this.link?.send(message);
          },
        },
      },
      options.runner,
    );
    this.link =
      token && config.cloudUrl
        ? new CloudLink({
            cloudUrl: config.cloudUrl,
            deviceToken: token,
            clock,
            random: options.random ?? Math.random,
            logger,
            ...options.link,
            handlers: {
              hello: () => {
                const printers = this.printerInfo();
                this.#reportedInventory = inventoryKey(
                  printers,
                  this.#gone.keys(),
                  this.#config.hiddenPrinters,
                );
                return {
                  agentVersion: AGENT_VERSION,
                  os: platform(),
                  arch: arch(),
                  hostname: hostname(),
                  printers,
                  hidden: this.#config.hiddenPrinters.slice(-PROTOCOL_LIMITS.maxPrinters),
                  queue: this.#queueCounts(),
                };
              },
              queueSummary: () => this.#queueCounts(),
              onWelcome: (welcome) => {
                this.#applyConfig(welcome.config);
                this.local.applyConfig(welcome.config);
              },
              onConfig: (config) => {
                this.#applyConfig(config);
                this.local.applyConfig(config);
              },
              onDispatch: (job) => this.#dispatch(job),
              onCancel: (jobId) => {
                const answer = this.queue.cancel(jobId);
                logger.info({ jobId, reason: answer.reason }, 'cancel asked');
                // "not_started" promises the job never prints: true once the cancel is durable.
                this.#whenFlushed(jobId, () => this.link?.send(answer));
              },
              outbox: () => this.queue.outbox(),
              onAck: (id) => this.queue.confirm(id),
              onFatal: (reason) => {
                logger.error({ reason }, 'device refused by the cloud; activate it again');
                deleteDeviceToken(this.dataDir);
              },
            },
          })
        : null;
    this.#localOptions = options.localServer;
    this.local = new LocalMode({
      dataDir: this.dataDir,
      queue: this.queue,
      clock,
      logger,
      production: process.env.NODE_ENV === 'production',
      info: () => ({
        agentVersion: AGENT_VERSION,
        deviceId: this.#config.deviceId,
        organizationId: this.#config.organizationId,
        cloud: !this.link
          ? 'not-activated'
          : this.link.state === 'online'
            ? 'connected'
            : 'offline',
        localApiVersion: LOCAL_API_VERSION,
      }),
      printers: () => this.printerInfo(),
      jobStored: async (jobId, agentPrinterId) => {
        await this.queue.flush();
        this.logger.info({ jobId, printer: agentPrinterId }, 'local job received');
        this.#localChanged(jobId);
        this.#runner.wake(agentPrinterId);
      },
      cancel: async (jobId) => {
        const answer = this.queue.cancel(jobId);
        await this.queue.flush();
        this.logger.info({ jobId, reason: answer.reason }, 'local cancel asked');
        this.#localChanged(jobId);
      },
    });
  }

  /**
   * A local job changed (its state is flushed): the pages hear of it and its report goes to the
   * cloud. False for a cloud job.
   */
  #localChanged(jobId: string): boolean {
    if (!this.queue.isLocal(jobId)) return false;
    this.local.backend.jobChanged(jobId);
    const report = this.queue.pendingReport(jobId);
    if (report) this.link?.send(report);
    return true;
  }

  /**
   * Loads the data dir, applies `--cloud` and `--printer`, activates the device when it has an
   * activation code and no token, opens the queue and settles jobs interrupted by a crash.
   */
  static async open(options: AgentOptions): Promise<Agent> {
    ensureDataDir(options.dataDir);
    const logger = options.logger ?? createLogger({ dataDir: options.dataDir });
    let config = loadConfig(options.dataDir);
    if (options.cloudUrl) config = { ...config, cloudUrl: options.cloudUrl };
    if (options.printers && options.printers.length > 0)
      config = setPrinters(config, options.printers);
    let token = readDeviceToken(options.dataDir);
    if (token && options.activationCode) {
      logger.info(
        'already activated: --activation-code is not used (delete device-token to re-activate)',
      );
    }
    if (!token && options.activationCode) {
      if (!config.cloudUrl)
        throw new PrintwireError('VALIDATION_FAILED', '--cloud is needed to activate');
      const name = options.deviceName ?? hostname();
      const activation = await activate({
        cloudUrl: config.cloudUrl,
        code: options.activationCode,
        name,
        os: platform(),
        arch: arch(),
        agentVersion: AGENT_VERSION,
      });
      writeDeviceToken(options.dataDir, activation.deviceToken);
      token = activation.deviceToken;
      config = {
        ...config,
        deviceId: activation.deviceId,
        organizationId: activation.organizationId,
        deviceName: name,
      };
      logger.info({ deviceId: activation.deviceId }, 'device activated');
    }
    let found: { discovered: DiscoveredPrinter[]; auto: ConfiguredPrinter[]; problems: string[] } =
      { discovered: [], auto: [], problems: [] };
    if (options.discovery) {
      const clock = options.clock ?? systemClock;
      const result = await discoverWithin(options.discovery, clock, DISCOVERY_TIMEOUT_MS);
      for (const problem of result.problems) logger.warn({ problem }, 'printers not searched');
      const auto = autoPrinters(config, result.printers);
      config = auto.config;
      found = { discovered: result.printers, auto: auto.printers, problems: result.problems };
      if (auto.printers.length > 0) {
        logger.info({ printers: auto.printers.map((p) => p.spec.uri) }, 'printers found');
      }
    }
    saveConfig(options.dataDir, config);
    const agent = new Agent(options, config, token, logger, found);
    for (const result of agent.queue.recoverInterrupted()) {
      logger.warn(
        { jobId: result.jobId },
        'job interrupted by a crash; reported failed, not printed again',
      );
    }
    // Jobs left for a printer that was removed from the configuration can never print.
    const known = new Set(agent.printers.map((p) => p.agentPrinterId));
    for (const printerId of agent.queue.printersWithQueuedJobs().filter((p) => !known.has(p))) {
      for (const jobId of agent.queue.queuedJobIds(printerId)) {
        agent.queue.markFailed(jobId, {
          code: 'PRINTER_NOT_FOUND',
          message: `printer ${printerId} is no longer configured on this agent`,
          retryable: false,
        });
      }
    }
    agent.queue.prune();
    return agent;
  }

  get config(): AgentConfigFile {
    return this.#config;
  }

  /** The printers in use: the configured ones, then those found and not hidden. */
  get printers(): readonly ConfiguredPrinter[] {
    return this.#printers;
  }

  /** What the last discovery pass found (empty without `discovery`). */
  get discovered(): readonly DiscoveredPrinter[] {
    return this.#discovered;
  }

  /** Looks for printers now (also done every `discoveryIntervalMs`); resolves once applied. */
  async refreshPrinters(): Promise<void> {
    await this.#discovery?.refresh();
  }

  start(): void {
    this.#runner.start();
    this.#prune();
    this.#discovery?.start();
    this.link?.start();
    if (!this.link) this.logger.warn('no device token or cloud URL: printing local jobs only');
    if (this.#localOptions) {
      this.localServerReady = this.local.start(this.#localOptions).catch((error: unknown) => {
        this.logger.error({ err: error }, 'the local server did not start');
        return null;
      });
    }
  }

  async stop(): Promise<void> {
    await this.#discovery?.stop();
    await this.localServerReady;
    await this.local.stop();
    this.link?.stop();
    if (this.#pruneTimer) this.#clock.clearTimeout(this.#pruneTimer);
    this.#pruneTimer = null;
    await this.#runner.stop();
    await this.renderer.close();
    this.queue.close();
  }

  /** Removes stale downloads now and every `CACHE_PRUNE_INTERVAL_MS` while the agent runs. */
  #prune(): void {
    this.#pruneTimer = this.#clock.setTimeout(() => this.#prune(), CACHE_PRUNE_INTERVAL_MS);
    this.renderer
      .pruneCache()
      .then((removed) => {
        if (removed > 0) this.logger.info({ removed }, 'stale downloads removed');
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'download cache not pruned'));
  }

  /** The printers as the protocol reports them: those in use, then those no longer found. */
  printerInfo(): PrinterInfo[] {
    return [
      ...this.#printers.map((printer, index) => this.#infoOf(printer, index === 0)),
      ...this.#gone.values(),
    ];
  }

  #infoOf(printer: ConfiguredPrinter, isDefault: boolean): PrinterInfo {
    const { spec } = printer;
    const target = this.#targetFor(printer);
    const { kind, capabilities } = printerKind(spec, this.discovered);
    return {
      agentPrinterId: printer.agentPrinterId,
      name: spec.name,
      alias: spec.alias,
      uri: spec.uri,
      connection: spec.target.connection,
      kind,
      language: spec.language,
      paper: spec.language === 'escpos' ? target.paper : spec.paper,
      codepage: target.codepage,
      capabilities,
      status: this.#runner.status(printer.agentPrinterId).status,
      isDefault,
    };
  }

  /**
   * Applies a discovery pass: printers found are used and reported, printers no longer found are
   * reported offline, hidden ones (`printers hide`, read from the data dir at each pass) are
   * neither. The `printers` message carries the inventory when it changed.
   */
  async #applyDiscovery(result: DiscoveryResult): Promise<void> {
    this.#discovered = result.printers;
    this.#config = this.#withDiskChanges(this.#config);
    const auto = autoPrinters(this.#config, result.printers);
    const changedIds =
      JSON.stringify(auto.config.printerIds) !== JSON.stringify(this.#config.printerIds);
    this.#config = auto.config;
    const next = [...configuredPrinters(this.#config), ...auto.printers];
    // A USB printer busy with a job may be listed without its serial (it could not be opened,
    // as on Windows): while a device of its VID:PID is attached it is not gone.
    const usbAttached = new Set(
      result.printers.filter((p) => p.connection === 'usb').map((p) => usbModel(p.uri)),
    );
    for (const printer of this.#printers) {
      const { target } = printer.spec;
      if (target.connection !== 'usb' || target.serial === null) continue;
      if (next.some((p) => p.agentPrinterId === printer.agentPrinterId)) continue;
      if (this.#config.hiddenPrinters.includes(printer.agentPrinterId)) continue;
      if (!usbAttached.has(usbModel(printer.spec.uri))) continue;
      const sameModel = next.findIndex(
        (p) =>
          p.spec.target.connection === 'usb' &&
          p.spec.target.serial === null &&
          usbModel(p.spec.uri) === usbModel(printer.spec.uri),
      );
      // The serial-less entry stands for this printer: not a new one.
      if (sameModel >= 0) next[sameModel] = printer;
      else next.push(printer);
    }
    const nextIds = new Set(next.map((p) => p.agentPrinterId));
    const hidden = new Set(this.#config.hiddenPrinters);
    for (const printer of this.#printers) {
      if (nextIds.has(printer.agentPrinterId)) continue;
      const info = this.#infoOf(printer, false);
      // Not awaited: a long job on it (a spooler job waits up to 10 min) must not hold the pass.
      void this.#runner.remove(printer.agentPrinterId);
      if (!hidden.has(printer.agentPrinterId)) {
        this.#gone.set(printer.agentPrinterId, { ...info, status: 'offline' });
        this.logger.info(
          { printer: printer.agentPrinterId, uri: printer.spec.uri },
          'printer no longer found',
        );
      } else this.logger.info({ printer: printer.agentPrinterId }, 'printer hidden');
    }
    const current = new Set(this.#printers.map((p) => p.agentPrinterId));
    for (const printer of next) {
      this.#gone.delete(printer.agentPrinterId);
      if (current.has(printer.agentPrinterId)) continue;
      this.#runner.add(printer);
      this.logger.info({ printer: printer.agentPrinterId, uri: printer.spec.uri }, 'printer found');
    }
    for (const id of hidden) this.#gone.delete(id);
    this.#printers = next;
    if (changedIds) this.#save();
    this.#reportInventory();
  }

  /** Sends the `printers` message when the inventory changed since it was last reported. */
  #reportInventory(): void {
    const printers = this.printerInfo();
    const hidden = this.#config.hiddenPrinters.slice(-PROTOCOL_LIMITS.maxPrinters);
    const key = inventoryKey(printers, this.#gone.keys(), hidden);
    if (key === this.#reportedInventory) return;
    this.#reportedInventory = key;
    const message: AgentMessageOf<'printers'> = { type: 'printers', printers, hidden };
    this.link?.report('printers', message);
  }

  /**
   * `config` with what other processes changed in the data dir meanwhile: the printers hidden or
   * shown (`printwire-agent printers hide|show`) and ids the CLI gave to printers it listed.
   */
  #withDiskChanges(config: AgentConfigFile): AgentConfigFile {
    let disk: AgentConfigFile;
    try {
      disk = loadConfig(this.dataDir);
    } catch (error) {
      this.logger.warn({ err: error }, 'the configuration file could not be read again');
      return config;
    }
    return {
      ...config,
      hiddenPrinters: disk.hiddenPrinters,
      printerIds: { ...disk.printerIds, ...config.printerIds },
    };
  }

  /** Writes the configuration, keeping what other processes changed in it meanwhile. */
  #save(): void {
    this.#config = this.#withDiskChanges(this.#config);
    saveConfig(this.dataDir, this.#config);
  }

  #queueCounts(): { queued: number; printing: number } {
    const { queued, printing } = this.queue.summary();
    return { queued, printing };
  }

  #targetFor(printer: ConfiguredPrinter): RenderTarget {
    const defaults = this.#config.printerDefaults[printer.agentPrinterId] ?? {};
    return {
      language: printer.spec.language,
      paper: printer.spec.paper ?? defaults.paper ?? '80mm',
      codepage: printer.spec.codepage ?? defaults.codepage ?? null,
      cut: defaults.cut ?? null,
      profileId: null,
      connection: printer.spec.target.connection,
      kind: printerKind(printer.spec, this.discovered).kind,
    };
  }

  #applyConfig(config: {
    printers: Array<{
      agentPrinterId: string;
      defaults: AgentConfigFile['printerDefaults'][string];
    }>;
  }): void {
    const printerDefaults: AgentConfigFile['printerDefaults'] = {};
    for (const p of config.printers) printerDefaults[p.agentPrinterId] = p.defaults;
    this.#config = { ...this.#config, printerDefaults };
    this.#save();
  }

  /**
   * Stores the job, then acknowledges it once the store is durable; a job known already is never
   * printed again. The flush's sync starts after this turn of the event loop: a worker that takes
   * the job at once commits its printing mark before that, so one sync serves both.
   */
  #dispatch(job: DispatchedJob): void {
    const outcome = this.queue.accept(job);
    let result: ResultMessage | null = null;
    if (outcome === 'finished') {
      result = this.queue.resultFor(job.id);
    } else if (!this.#runner.has(job.agentPrinterId)) {
      result = this.queue.markFailed(job.id, {
        code: 'PRINTER_NOT_FOUND',
        message: `this agent has no printer ${job.agentPrinterId}`,
        retryable: false,
      });
    }
    // Asked before the worker's flushes, so the ack goes out before the job's progress.
    this.#whenFlushed(job.id, () => {
      this.link?.send({ type: 'job.ack', jobId: job.id, attempt: job.attempt });
      this.logger.info({ jobId: job.id, outcome }, 'job received');
      if (result) this.link?.send(result);
    });
    if (outcome !== 'finished' && !result) this.#runner.wake(job.agentPrinterId);
  }

  /** Runs `then` once the queue's commits so far are durable (never, if the sync fails). */
  #whenFlushed(jobId: string, then: () => void): void {
    this.queue
      .flush()
      .then(then, (error: unknown) =>
        this.logger.error({ err: error, jobId }, 'the queue could not be synced to disk'),
      );
  }
}

/** `usb://VID:PID` of a USB printer URI (its model, whatever its serial). */
function usbModel(uri: string): string {
  return uri.slice(0, 'usb://0000:0000'.length);
}

/**
 * An inventory as a string that changes when anything reported but a status does (statuses
 * travel as `printer.status`), or a printer stops being found.
 */
function inventoryKey(
  printers: PrinterInfo[],
  gone: Iterable<string>,
  hidden: readonly string[],
): string {
  return JSON.stringify([printers.map((p) => ({ ...p, status: null })), [...gone], hidden]);
}
