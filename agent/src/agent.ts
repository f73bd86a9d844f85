import { arch, hostname, platform } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  setPrinterHidden,
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
import { DEFAULT_LABEL_DPI, DEFAULT_LABEL_SIZE } from '@printwire/shared/label-graphics/label-size';
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
import { exportLogs } from './logs/export.js';
import { tailLog, type LogLine } from './window/log-tail.js';
import { loadPreferences, savePreferences, type Preferences } from './window/preferences.js';
import { testPageBytes } from './window/test-page.js';
import { agentState, type AgentState, type PrinterAttention } from './window/agent-state.js';
import type { QueueListEntry } from './queue/job-queue.js';
import { WindowRoutes } from './window/window-routes.js';

/** The agent's version, from its package.json. */
export const AGENT_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

export const QUEUE_FILE = 'queue.db';
/** The window's per-launch key while the local server runs (mode 0600; `printwire-agent window`). */
export const WINDOW_KEY_FILE = 'window-key';

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

/** The Settings page's values. */
export interface AgentSettings {
  cloudUrl: string | null;
  /** The port asked for (null: the first free of 21910-21913). */
  localPort: number | null;
  /** The port the local server listens on now (null: off). */
  localServerPort: number | null;
  startAtLogin: boolean;
  notificationsMuted: boolean;
  dataDir: string;
}

export type SettingsChange = Partial<
  Pick<AgentSettings, 'cloudUrl' | 'localPort' | 'startAtLogin' | 'notificationsMuted'>
>;

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
  #link: CloudLink | null = null;
  #started = false;
  #preferences: Preferences;
  readonly #options: AgentOptions;
  readonly #stateListeners = new Set<(state: AgentState) => void>();
  readonly #statusListeners = new Set<(printer: PrinterAttention) => void>();
  #lastState = '';
  readonly #changeListeners = new Set<(what: 'jobs' | 'printers') => void>();
  #windowKey: string | null = null;
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
    this.#options = options;
    this.#preferences = loadPreferences(options.dataDir);
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
        paused: () => this.#preferences.paused,
        events: {
          onStatus: (agentPrinterId, report) => {
            logger.info({ printer: agentPrinterId, ...report }, 'printer status');
            this.#printerStatusChanged(agentPrinterId, report);
            this.#changed('printers');
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
            this.#changed('jobs');
            if (!this.#localChanged(message.jobId)) this.link?.send(message);
          },
          onResult: (message) => {
            logger.info(
              { jobId: message.jobId, outcome: message.outcome, errorCode: message.errorCode },
              'job ended',
            );
            this.#changed('jobs');
            if (!this.#localChanged(message.jobId)) this.link?.send(message);
          },
        },
      },
      options.runner,
    );
    if (token && config.cloudUrl) this.#link = this.#makeLink(config.cloudUrl, token);
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
        cloud: this.#cloudState(),
        localApiVersion: LOCAL_API_VERSION,
      }),
      printers: () => this.printerInfo(),
      jobStored: async (jobId, agentPrinterId) => {
        await this.queue.flush();
        this.logger.info({ jobId, printer: agentPrinterId }, 'local job received');
        this.#localChanged(jobId);
        this.#changed('jobs');
        this.#runner.wake(agentPrinterId);
      },
      cancel: async (jobId) => {
        const answer = this.queue.cancel(jobId);
        await this.queue.flush();
        this.logger.info({ jobId, reason: answer.reason }, 'local cancel asked');
        this.#localChanged(jobId);
        this.#changed('jobs');
      },
    });
  }

  /** The link to the cloud with this device's token (not started). */
  #makeLink(cloudUrl: string, token: string): CloudLink {
    const link = new CloudLink({
      cloudUrl,
      deviceToken: token,
      clock: this.#clock,
      random: this.#options.random ?? Math.random,
      logger: this.logger,
      ...this.#options.link,
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
          this.logger.info({ jobId, reason: answer.reason }, 'cancel asked');
          // "not_started" promises the job never prints: true once the cancel is durable.
          this.#whenFlushed(jobId, () => this.link?.send(answer));
        },
        outbox: () => this.queue.outbox(),
        onAck: (id) => this.queue.confirm(id),
        onFatal: (reason) => {
          this.logger.error({ reason }, 'device refused by the cloud; activate it again');
          deleteDeviceToken(this.dataDir);
        },
      },
    });
    link.onStateChange(() => this.#emitState());
    return link;
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

  /** The link to the cloud; null until the device is activated. */
  get link(): CloudLink | null {
    return this.#link;
  }

  start(): void {
    this.#started = true;
    this.#runner.start();
    this.#prune();
    this.#discovery?.start();
    this.link?.start();
    if (!this.link) this.logger.warn('no device token or cloud URL: printing local jobs only');
    if (this.#preferences.paused) this.logger.info('printing is paused (resume it in the window)');
    if (this.#localOptions) {
      const options = {
        ...this.#localOptions,
        ...(this.#localOptions.port === undefined && this.#config.localPort
          ? { port: this.#config.localPort }
          : {}),
      };
      this.#windowKey = randomBytes(32).toString('base64url');
      writeFileSync(join(this.dataDir, WINDOW_KEY_FILE), this.#windowKey + '\n', { mode: 0o600 });
      const window = new WindowRoutes({
        agent: this,
        key: this.#windowKey,
        agentVersion: AGENT_VERSION,
        ...(options.prompts ? { prompts: options.prompts } : {}),
      });
      this.localServerReady = this.local.start(options, window).catch((error: unknown) => {
        this.logger.error({ err: error }, 'the local server did not start');
        return null;
      });
    }
  }

  async stop(): Promise<void> {
    this.#started = false;
    await this.#discovery?.stop();
    await this.localServerReady;
    await this.local.stop();
    if (this.#windowKey) rmSync(join(this.dataDir, WINDOW_KEY_FILE), { force: true });
    this.#windowKey = null;
    this.link?.stop();
    if (this.#pruneTimer) this.#clock.clearTimeout(this.#pruneTimer);
    this.#pruneTimer = null;
    await this.#runner.stop();
    await this.renderer.close();
    this.queue.close();
  }

  // ---- What the window and the tray use (docs/installing.md, "The desktop app") ----

  /** Printing is paused: jobs are received and kept, none starts. Kept across restarts. */
  get paused(): boolean {
    return this.#preferences.paused;
  }

  /** Stops new jobs from going to printers (a job already printing finishes). */
  pause(): void {
    if (this.#preferences.paused) return;
    this.#setPreferences({ paused: true });
    this.logger.info('printing paused');
    this.#emitState();
  }

  /** Prints what waited while paused, oldest first. */
  resume(): void {
    if (!this.#preferences.paused) return;
    this.#setPreferences({ paused: false });
    this.logger.info('printing resumed');
    this.#runner.wakeAll();
    this.#emitState();
  }

  get preferences(): Preferences {
    return this.#preferences;
  }

  #setPreferences(change: Partial<Preferences>): void {
    this.#preferences = { ...this.#preferences, ...change };
    savePreferences(this.dataDir, this.#preferences);
  }

  /** The newest jobs of the queue, unfinished first. */
  jobs(limit = 100): QueueListEntry[] {
    return this.queue.list(limit);
  }

  /**
   * Cancels a job that has not started. A local job is cancelled as the local API cancels it; a
   * cloud job fails with CANCELLED_AT_AGENT, so the cloud and the integrator learn it will not
   * print. Throws JOB_NOT_FOUND, or JOB_ALREADY_FINISHED for a job that started or ended.
   */
  async cancelJob(jobId: string): Promise<void> {
    const job = this.queue.get(jobId);
    if (!job) throw new PrintwireError('JOB_NOT_FOUND', `no job ${jobId} in this agent's queue`);
    if (job.state !== 'queued') {
      throw new PrintwireError('JOB_ALREADY_FINISHED', `job ${jobId} is ${job.state}`);
    }
    if (this.queue.isLocal(jobId)) {
      this.queue.cancel(jobId);
      await this.queue.flush();
      this.#localChanged(jobId);
    } else {
      const result = this.queue.markFailed(jobId, {
        code: 'CANCELLED_AT_AGENT',
        message: 'cancelled by the person at the agent’s computer',
        retryable: false,
      });
      await this.queue.flush();
      this.link?.send(result);
    }
    this.logger.info({ jobId }, 'job cancelled in the window');
    this.#changed('jobs');
  }

  /** A queued job waiting for its next attempt is tried now. Throws for a job not queued. */
  retryJob(jobId: string): void {
    const job = this.queue.get(jobId);
    if (!job) throw new PrintwireError('JOB_NOT_FOUND', `no job ${jobId} in this agent's queue`);
    if (!this.queue.retryNow(jobId)) {
      throw new PrintwireError(
        'JOB_ALREADY_FINISHED',
        `job ${jobId} is ${job.state}: only a queued job can be tried again`,
      );
    }
    this.logger.info({ jobId }, 'job retried now from the window');
    this.#changed('jobs');
    this.#runner.wake(job.agentPrinterId);
  }

  /**
   * Activates this device with a code from the dashboard (the window's Activation page) and
   * connects. Throws CONFLICT when it is activated already, VALIDATION_FAILED without a cloud
   * URL, or the cloud's error (UNAUTHORIZED for an unknown, used or expired code).
   */
  async activate(input: { code: string; cloudUrl?: string; name?: string }): Promise<void> {
    if (this.#link) throw new PrintwireError('CONFLICT', 'this device is activated already');
    const cloudUrl = input.cloudUrl ?? this.#config.cloudUrl;
    if (!cloudUrl) {
      throw new PrintwireError('VALIDATION_FAILED', 'cloudUrl: a cloud URL is needed to activate');
    }
    const name = input.name ?? this.#config.deviceName ?? hostname();
    const activation = await activate({
      cloudUrl,
      code: input.code.trim(),
      name,
      os: platform(),
      arch: arch(),
      agentVersion: AGENT_VERSION,
    });
    writeDeviceToken(this.dataDir, activation.deviceToken);
    this.#config = {
      ...this.#config,
      cloudUrl,
      deviceId: activation.deviceId,
      organizationId: activation.organizationId,
      deviceName: name,
    };
    this.#save();
    this.#setPreferences({ organizationName: activation.organizationName ?? null });
    this.logger.info({ deviceId: activation.deviceId }, 'device activated');
    this.#link = this.#makeLink(cloudUrl, activation.deviceToken);
    if (this.#started) this.#link.start();
    this.#emitState();
  }

  /** What the Settings page shows and edits. */
  settings(): AgentSettings {
    return {
      cloudUrl: this.#config.cloudUrl,
      localPort: this.#config.localPort,
      localServerPort: this.local.server?.port ?? null,
      startAtLogin: this.#preferences.startAtLogin,
      notificationsMuted: this.#preferences.notificationsMuted,
      dataDir: this.dataDir,
    };
  }

  /**
   * Changes settings. The cloud URL and the port apply at the next start (the link and the
   * server keep theirs); the cloud URL cannot change once activated (activate again instead).
   */
  updateSettings(change: SettingsChange): AgentSettings {
    if (change.cloudUrl !== undefined && change.cloudUrl !== this.#config.cloudUrl) {
      if (this.#link) {
        throw new PrintwireError(
          'CONFLICT',
          'cloudUrl: this device is activated with its cloud; it cannot move to another',
        );
      }
      this.#config = { ...this.#config, cloudUrl: change.cloudUrl };
    }
    if (change.localPort !== undefined)
      this.#config = { ...this.#config, localPort: change.localPort };
    this.#save();
    const prefs: Partial<Preferences> = {};
    if (change.startAtLogin !== undefined) prefs.startAtLogin = change.startAtLogin;
    if (change.notificationsMuted !== undefined)
      prefs.notificationsMuted = change.notificationsMuted;
    this.#setPreferences(prefs);
    this.#emitState();
    return this.settings();
  }

  /** The last lines of the agent's log, oldest first, secrets redacted. */
  logTail(count = 200): LogLine[] {
    const token = readDeviceToken(this.dataDir);
    return tailLog(this.dataDir, count, token ? [token] : []);
  }

  /** The support zip (same as `printwire-agent logs export`). */
  async exportLogs(out: string): Promise<{ files: string[] }> {
    return exportLogs({ dataDir: this.dataDir, out, agentVersion: AGENT_VERSION });
  }

  /**
   * Hides a printer found on this computer (neither used nor reported) or shows it again, as
   * `printwire-agent printers hide|show ID` does; applied at once.
   */
  async setPrinterHidden(agentPrinterId: string, hidden: boolean): Promise<void> {
    this.#config = setPrinterHidden(this.#withDiskChanges(this.#config), agentPrinterId, hidden);
    saveConfig(this.dataDir, this.#config);
    this.logger.info(
      { printer: agentPrinterId, hidden },
      hidden ? 'printer hidden' : 'printer shown',
    );
    await this.refreshPrinters();
    this.#emitState();
  }

  /** Found printers the person hid, to show them again. */
  hiddenPrinters(): Array<{ agentPrinterId: string; uri: string; name: string }> {
    return autoPrinters(this.#config, this.#discovered).hidden.map((p) => ({
      agentPrinterId: p.agentPrinterId,
      uri: p.spec.uri,
      name: p.spec.name,
    }));
  }

  /** Prints the test page on a printer in use, between its jobs (paused or not). */
  async printTestPage(agentPrinterId: string): Promise<void> {
    const printer = this.#printers.find((p) => p.agentPrinterId === agentPrinterId);
    if (!printer)
      throw new PrintwireError('PRINTER_NOT_FOUND', `no printer ${agentPrinterId} in use`);
    const target = this.#targetFor(printer);
    const bytes = testPageBytes(
      { name: printer.spec.name, paper: target.paper, codepage: target.codepage },
      target,
      AGENT_VERSION,
      new Date(this.#clock.now()),
    );
    await this.#runner.printBytes(agentPrinterId, bytes);
    this.logger.info({ printer: agentPrinterId }, 'test page printed');
  }

  /** The agent's state in one word and its parts (the tray's colour, the window's header). */
  state(): AgentState {
    return agentState({
      cloud: this.#cloudState(),
      paused: this.#preferences.paused,
      printers: this.printerInfo(),
    });
  }

  /** Called with the state whenever it changes; returns the unsubscribe. */
  onState(listener: (state: AgentState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  /** Called when a printer's status changes (notifications); returns the unsubscribe. */
  onPrinterStatus(listener: (printer: PrinterAttention) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** Called when jobs or printers changed (the window refetches); returns the unsubscribe. */
  onChange(listener: (what: 'jobs' | 'printers') => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  #changed(what: 'jobs' | 'printers'): void {
    for (const listener of this.#changeListeners) listener(what);
  }

  /**
   * The window's address with its per-launch key (in the fragment, never sent to the server),
   * once the local server listens; null when it is off.
   */
  async windowUrl(): Promise<string | null> {
    const port = await this.localServerReady;
    if (!port || !this.#windowKey) return null;
    return `http://localhost:${port}/#key=${this.#windowKey}`;
  }

  #cloudState(): 'connected' | 'offline' | 'not-activated' {
    if (!this.#link) return 'not-activated';
    return this.#link.state === 'online' ? 'connected' : 'offline';
  }

  #printerStatusChanged(
    agentPrinterId: string,
    report: { status: PrinterInfo['status']; detail: string | null },
  ): void {
    const printer = this.#printers.find((p) => p.agentPrinterId === agentPrinterId);
    const event: PrinterAttention = {
      agentPrinterId,
      name: printer?.spec.alias ?? printer?.spec.name ?? agentPrinterId,
      status: report.status,
    };
    for (const listener of this.#statusListeners) listener(event);
    this.#emitState();
  }

  #emitState(): void {
    const state = this.state();
    const key = JSON.stringify(state);
    if (key === this.#lastState) return;
    this.#lastState = key;
    for (const listener of this.#stateListeners) listener(state);
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
      ...(spec.language === 'escpos' ? {} : { labelSize: spec.labelSize, dpi: spec.dpi }),
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
    this.#changed('printers');
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
      ...(printer.spec.language === 'escpos'
        ? {}
        : {
            label: {
              size: printer.spec.labelSize ?? defaults.labelSize ?? DEFAULT_LABEL_SIZE,
              dpi: printer.spec.dpi ?? defaults.dpi ?? DEFAULT_LABEL_DPI,
            },
          }),
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
    this.#changed('jobs');
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
