import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterInfo } from '@printwire/shared/protocol/index';
import {
  AGENT_VERSION,
  CACHE_PRUNE_INTERVAL_MS,
  defaultRegistry,
  DISCOVERY_TIMEOUT_MS,
  QUEUE_FILE,
  WINDOW_KEY_FILE,
  type AgentOptions,
  type AgentSettings,
  type SettingsChange,
} from './agent-options.js';
import {
  configuredPrinters,
  saveConfig,
  setPrinterHidden,
  writeDeviceToken,
  type AgentConfigFile,
  type ConfiguredPrinter,
} from './config/config-store.js';
import { LiveConfig } from './config/live-config.js';
import { systemClock, type Clock, type TimerHandle } from './core/clock.js';
import { JobRunner } from './core/runner.js';
import { CloudLink } from './cloud-link/cloud-link.js';
import { linkHandlers } from './cloud-link/link-handlers.js';
import type { AgentLogger } from './logs/logger.js';
import { JobQueue, type QueueListEntry } from './queue/job-queue.js';
import type { DiscoveredPrinter } from './discovery/discover.js';
import { DISCOVERY_INTERVAL_MS, DiscoveryLoop } from './discovery/discovery-loop.js';
import { PrinterInventory } from './discovery/printer-inventory.js';
import { AgentRenderer } from './render/agent-render.js';
import { LocalMode, type LocalModeOptions } from './local-server/local-mode.js';
import { LOCAL_API_VERSION } from './local-server/protocol.js';
import { activateDevice, prepareDataDir, settleQueue, type FoundAtStart } from './start-up.js';
import type { LogLine } from './window/log-tail.js';
import type { Preferences } from './window/preferences.js';
import type { AgentState, PrinterAttention } from './window/agent-state.js';
import { AgentControls, cloudState } from './window/agent-controls.js';
import { WindowRoutes } from './window/window-routes.js';

export {
  AGENT_VERSION,
  CACHE_PRUNE_INTERVAL_MS,
  defaultRegistry,
  DISCOVERY_INTERVAL_MS,
  DISCOVERY_TIMEOUT_MS,
  QUEUE_FILE,
  WINDOW_KEY_FILE,
  type AgentOptions,
  type AgentSettings,
  type SettingsChange,
};

/**
 * The print agent: configuration, the durable queue, one worker per printer, and the link to
 * the cloud. `Agent.open` prepares everything (activating the device when needed); `start`
 * begins printing and connecting. This file wires the parts together; each lives in its room:
 * start-up (`start-up.ts`), the printers in use (`discovery/printer-inventory.ts`), the answers
 * to the cloud (`cloud-link/link-handlers.ts`), the window's and tray's controls
 * (`window/agent-controls.ts`), local mode (`local-server/`).
 */
export class Agent {
  readonly dataDir: string;
  readonly queue: JobQueue;
  readonly logger: AgentLogger;
  readonly renderer: AgentRenderer;
  /** Local mode: settings, templates and the local API's backend (the server runs on start). */
  readonly local: LocalMode;
  /** Resolves with the local server's port once it listens (null when it is off or failed). */
  localServerReady: Promise<number | null> = Promise.resolve(null);
  #link: CloudLink | null = null;
  #started = false;
  #windowKey: string | null = null;
  #pruneTimer: TimerHandle | null = null;
  readonly #options: AgentOptions;
  readonly #localOptions: LocalModeOptions | undefined;
  readonly #config: LiveConfig;
  readonly #inventory: PrinterInventory;
  readonly #runner: JobRunner;
  readonly #controls: AgentControls;
  readonly #discovery: DiscoveryLoop | null;
  readonly #clock: Clock;

  private constructor(
    options: AgentOptions,
    config: AgentConfigFile,
    token: string | null,
    logger: AgentLogger,
    found: FoundAtStart,
  ) {
    this.dataDir = options.dataDir;
    this.#options = options;
    this.logger = logger;
    const clock = options.clock ?? systemClock;
    this.#clock = clock;
    this.#config = new LiveConfig(options.dataDir, config, logger);
    this.queue = new JobQueue(join(options.dataDir, QUEUE_FILE), {
      clock,
      ...(options.durability ? { durability: options.durability } : {}),
    });
    const printers = [...configuredPrinters(config), ...found.auto];
    this.#inventory = new PrinterInventory(
      {
        config: this.#config,
        logger,
        status: (id) => this.#runner.status(id).status,
        add: (printer) => this.#runner.add(printer),
        remove: (id) => this.#runner.remove(id),
        report: (message) => this.link?.report('printers', message),
        changed: () => this.#controls.changed('printers'),
      },
      printers,
      found.discovered,
    );
    this.#discovery = options.discovery
      ? new DiscoveryLoop({
          sources: options.discovery,
          clock,
          logger,
          intervalMs: options.discoveryIntervalMs ?? DISCOVERY_INTERVAL_MS,
          timeoutMs: DISCOVERY_TIMEOUT_MS,
          problems: found.problems,
          onResult: (result) => this.#inventory.apply(result),
        })
      : null;
    this.renderer =
      options.renderer ??
      new AgentRenderer({
        dataDir: options.dataDir,
        production: process.env.NODE_ENV === 'production',
        now: () => clock.now(),
        // A web page must not use the agent to reach the shop's network (local jobs only).
        downloadPolicy: (job) => ({
          publicOnly:
            this.queue.isLocal(job.id) && !this.local.settings.localDownloadsToPrivateNetwork,
        }),
      });
    this.#runner = this.#makeRunner(printers);
    this.local = new LocalMode({
      dataDir: this.dataDir,
      queue: this.queue,
      clock,
      logger,
      production: process.env.NODE_ENV === 'production',
      info: () => ({
        agentVersion: AGENT_VERSION,
        deviceId: this.#config.current.deviceId,
        organizationId: this.#config.current.organizationId,
        cloud: cloudState(this.#link),
        localApiVersion: LOCAL_API_VERSION,
      }),
      printers: () => this.printerInfo(),
      jobStored: async (jobId, agentPrinterId) => {
        await this.queue.flush();
        this.logger.info({ jobId, printer: agentPrinterId }, 'local job received');
        this.#localChanged(jobId);
        this.#controls.changed('jobs');
        this.#runner.wake(agentPrinterId);
      },
      cancel: async (jobId) => {
        const answer = this.queue.cancel(jobId);
        await this.queue.flush();
        this.logger.info({ jobId, reason: answer.reason }, 'local cancel asked');
        this.#localChanged(jobId);
        this.#controls.changed('jobs');
      },
    });
    this.#controls = new AgentControls({
      dataDir: this.dataDir,
      logger,
      clock,
      queue: this.queue,
      runner: this.#runner,
      inventory: this.#inventory,
      config: this.#config,
      local: this.local,
      link: () => this.#link,
      localChanged: (jobId) => this.#localChanged(jobId),
    });
    if (token && config.cloudUrl) this.#link = this.#makeLink(config.cloudUrl, token);
    this.#localOptions = options.localServer;
  }

  /** One worker per printer; what they report goes to the window, the pages and the cloud. */
  #makeRunner(printers: ConfiguredPrinter[]): JobRunner {
    const { logger } = this;
    return new JobRunner(
      printers,
      {
        queue: this.queue,
        registry: this.#options.registry ?? defaultRegistry(),
        render: this.#options.render ?? this.renderer.render,
        clock: this.#clock,
        logger,
        targetFor: (printer) => this.#inventory.targetFor(printer),
        paused: () => this.#controls.preferences.paused,
        events: {
          onStatus: (agentPrinterId, report) => {
            logger.info({ printer: agentPrinterId, ...report }, 'printer status');
            this.#controls.printerStatusChanged(agentPrinterId, report);
            this.#controls.changed('printers');
            this.local.backend.printerStatus(agentPrinterId, report.detail);
            // Kept while the link is down and sent after the next welcome, unless superseded.
            this.link?.report(`status:${agentPrinterId}`, {
              type: 'printer.status',
              agentPrinterId,
              status: report.status,
              ...(report.detail ? { detail: report.detail } : {}),
              at: new Date(this.#clock.now()).toISOString(),
            });
          },
          onProgress: (message) => {
            this.#controls.changed('jobs');
            if (!this.#localChanged(message.jobId)) this.link?.send(message);
          },
          onResult: (message) => {
            logger.info(
              { jobId: message.jobId, outcome: message.outcome, errorCode: message.errorCode },
              'job ended',
            );
            this.#controls.changed('jobs');
            if (!this.#localChanged(message.jobId)) this.link?.send(message);
          },
        },
      },
      this.#options.runner,
    );
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
      handlers: linkHandlers({
        dataDir: this.dataDir,
        queue: this.queue,
        runner: this.#runner,
        inventory: this.#inventory,
        config: this.#config,
        local: this.local,
        logger: this.logger,
        link: () => this.#link,
        jobsChanged: () => this.#controls.changed('jobs'),
      }),
    });
    link.onStateChange(() => this.#controls.emitState());
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
    const { config, token, logger, found } = await prepareDataDir(options);
    const agent = new Agent(options, config, token, logger, found);
    settleQueue(agent.queue, agent.printers, logger);
    return agent;
  }

  get config(): AgentConfigFile {
    return this.#config.current;
  }

  /** The printers in use: the configured ones, then those found and not hidden. */
  get printers(): readonly ConfiguredPrinter[] {
    return this.#inventory.printers;
  }

  /** What the last discovery pass found (empty without `discovery`). */
  get discovered(): readonly DiscoveredPrinter[] {
    return this.#inventory.discovered;
  }

  /** The printers as the protocol reports them: those in use, then those no longer found. */
  printerInfo(): PrinterInfo[] {
    return this.#inventory.info();
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
    if (this.paused) this.logger.info('printing is paused (resume it in the window)');
    if (this.#localOptions) this.#startLocalServer(this.#localOptions);
  }

  /** The local server, with the window's pages and their per-launch key. */
  #startLocalServer(localOptions: LocalModeOptions): void {
    const options = {
      ...localOptions,
      ...(localOptions.port === undefined && this.#config.current.localPort
        ? { port: this.#config.current.localPort }
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

  // ---- What the window and the tray use (window/agent-controls.ts does the work) ----

  /** Printing is paused: jobs are received and kept, none starts. Kept across restarts. */
  get paused(): boolean {
    return this.#controls.preferences.paused;
  }

  get preferences(): Preferences {
    return this.#controls.preferences;
  }

  /** Stops new jobs from going to printers (a job already printing finishes). */
  pause(): void {
    this.#controls.pause();
  }

  /** Prints what waited while paused, oldest first. */
  resume(): void {
    this.#controls.resume();
  }

  /** The newest jobs of the queue, unfinished first. */
  jobs(limit = 100): QueueListEntry[] {
    return this.#controls.jobs(limit);
  }

  /**
   * Cancels a job that has not started. A local job is cancelled as the local API cancels it; a
   * cloud job fails with CANCELLED_AT_AGENT, so the cloud and the integrator learn it will not
   * print. Throws JOB_NOT_FOUND, or JOB_ALREADY_FINISHED for a job that started or ended.
   */
  cancelJob(jobId: string): Promise<void> {
    return this.#controls.cancelJob(jobId);
  }

  /** A queued job waiting for its next attempt is tried now. Throws for a job not queued. */
  retryJob(jobId: string): void {
    this.#controls.retryJob(jobId);
  }

  /** What the Settings page shows and edits. */
  settings(): AgentSettings {
    return this.#controls.settings();
  }

  /**
   * Changes settings. The cloud URL and the port apply at the next start (the link and the
   * server keep theirs); the cloud URL cannot change once activated (activate again instead).
   */
  updateSettings(change: SettingsChange): AgentSettings {
    return this.#controls.updateSettings(change);
  }

  /** The last lines of the agent's log, oldest first, secrets redacted. */
  logTail(count = 200): LogLine[] {
    return this.#controls.logTail(count);
  }

  /** The support zip (same as `printwire-agent logs export`). */
  exportLogs(out: string): Promise<{ files: string[] }> {
    return this.#controls.exportLogs(out);
  }

  /** Prints the test page on a printer in use, between its jobs (paused or not). */
  printTestPage(agentPrinterId: string): Promise<void> {
    return this.#controls.printTestPage(agentPrinterId);
  }

  /** The agent's state in one word and its parts (the tray's colour, the window's header). */
  state(): AgentState {
    return this.#controls.state();
  }

  /** Called with the state whenever it changes; returns the unsubscribe. */
  onState(listener: (state: AgentState) => void): () => void {
    return this.#controls.onState(listener);
  }

  /** Called when a printer's status changes (notifications); returns the unsubscribe. */
  onPrinterStatus(listener: (printer: PrinterAttention) => void): () => void {
    return this.#controls.onPrinterStatus(listener);
  }

  /** Called when jobs or printers changed (the window refetches); returns the unsubscribe. */
  onChange(listener: (what: 'jobs' | 'printers') => void): () => void {
    return this.#controls.onChange(listener);
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

  /**
   * Hides a printer found on this computer (neither used nor reported) or shows it again, as
   * `printwire-agent printers hide|show ID` does; applied at once.
   */
  async setPrinterHidden(agentPrinterId: string, hidden: boolean): Promise<void> {
    const config = setPrinterHidden(this.#config.withDiskChanges(), agentPrinterId, hidden);
    this.#config.set(config);
    saveConfig(this.dataDir, config);
    this.logger.info(
      { printer: agentPrinterId, hidden },
      hidden ? 'printer hidden' : 'printer shown',
    );
    await this.refreshPrinters();
    this.#controls.emitState();
  }

  /** Found printers the person hid, to show them again. */
  hiddenPrinters(): Array<{ agentPrinterId: string; uri: string; name: string }> {
    return this.#inventory.hidden();
  }

  /**
   * Activates this device with a code from the dashboard (the window's Activation page) and
   * connects. Throws CONFLICT when it is activated already, VALIDATION_FAILED without a cloud
   * URL, or the cloud's error (UNAUTHORIZED for an unknown, used or expired code).
   */
  async activate(input: { code: string; cloudUrl?: string; name?: string }): Promise<void> {
    if (this.#link) throw new PrintwireError('CONFLICT', 'this device is activated already');
    const cloudUrl = input.cloudUrl ?? this.#config.current.cloudUrl;
    if (!cloudUrl) {
      throw new PrintwireError('VALIDATION_FAILED', 'cloudUrl: a cloud URL is needed to activate');
    }
    const name = input.name ?? this.#config.current.deviceName ?? hostname();
    const activation = await activateDevice(cloudUrl, input.code.trim(), name);
    writeDeviceToken(this.dataDir, activation.deviceToken);
    this.#config.set({
      ...this.#config.current,
      cloudUrl,
      deviceId: activation.deviceId,
      organizationId: activation.organizationId,
      deviceName: name,
    });
    this.#config.save();
    this.#controls.setPreferences({ organizationName: activation.organizationName ?? null });
    this.logger.info({ deviceId: activation.deviceId }, 'device activated');
    this.#link = this.#makeLink(cloudUrl, activation.deviceToken);
    if (this.#started) this.#link.start();
    this.#controls.emitState();
  }
}
