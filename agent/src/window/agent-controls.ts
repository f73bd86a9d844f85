import type { PrinterInfo } from '@printwire/shared/protocol/index';
import { PrintwireError } from '@printwire/shared/errors/index';
import { AGENT_VERSION, type AgentSettings, type SettingsChange } from '../agent-options.js';
import type { CloudLink } from '../cloud-link/cloud-link.js';
import { readDeviceToken } from '../config/config-store.js';
import type { LiveConfig } from '../config/live-config.js';
import type { Clock } from '../core/clock.js';
import type { JobRunner } from '../core/runner.js';
import type { PrinterInventory } from '../discovery/printer-inventory.js';
import type { LocalMode } from '../local-server/local-mode.js';
import { exportLogs } from '../logs/export.js';
import type { AgentLogger } from '../logs/logger.js';
import type { JobQueue, QueueListEntry } from '../queue/job-queue.js';
import { agentState, type AgentState, type PrinterAttention } from './agent-state.js';
import { tailLog, type LogLine } from './log-tail.js';
import { loadPreferences, savePreferences, type Preferences } from './preferences.js';
import { testPageBytes } from './test-page.js';

/** The parts of the agent the window and the tray act on. */
export interface ControlDeps {
  dataDir: string;
  logger: AgentLogger;
  clock: Clock;
  queue: JobQueue;
  runner: JobRunner;
  inventory: PrinterInventory;
  config: LiveConfig;
  local: LocalMode;
  link(): CloudLink | null;
  /** A local job changed: the pages and the cloud hear of it (see `Agent`). */
  localChanged(jobId: string): boolean;
}

/**
 * What the window and the tray use (docs/installing.md, "The desktop app"): pausing, the jobs
 * list and its cancel and retry, settings, the log, the test page, and the agent's state with
 * the listeners that hear of its changes. The `Agent` answers with these.
 */
export class AgentControls {
  readonly #deps: ControlDeps;
  #preferences: Preferences;
  readonly #stateListeners = new Set<(state: AgentState) => void>();
  readonly #statusListeners = new Set<(printer: PrinterAttention) => void>();
  readonly #changeListeners = new Set<(what: 'jobs' | 'printers') => void>();
  #lastState = '';

  constructor(deps: ControlDeps) {
    this.#deps = deps;
    this.#preferences = loadPreferences(deps.dataDir);
  }

  get preferences(): Preferences {
    return this.#preferences;
  }

  setPreferences(change: Partial<Preferences>): void {
    this.#preferences = { ...this.#preferences, ...change };
    savePreferences(this.#deps.dataDir, this.#preferences);
  }

  /** Stops new jobs from going to printers (a job already printing finishes). */
  pause(): void {
    if (this.#preferences.paused) return;
    this.setPreferences({ paused: true });
    this.#deps.logger.info('printing paused');
    this.emitState();
  }

  /** Prints what waited while paused, oldest first. */
  resume(): void {
    if (!this.#preferences.paused) return;
    this.setPreferences({ paused: false });
    this.#deps.logger.info('printing resumed');
    this.#deps.runner.wakeAll();
    this.emitState();
  }

  /** See `Agent.cancelJob`. */
  async cancelJob(jobId: string): Promise<void> {
    const { queue } = this.#deps;
    const job = queue.get(jobId);
    if (!job) throw new PrintwireError('JOB_NOT_FOUND', `no job ${jobId} in this agent's queue`);
    if (job.state !== 'queued') {
      throw new PrintwireError('JOB_ALREADY_FINISHED', `job ${jobId} is ${job.state}`);
    }
    if (queue.isLocal(jobId)) {
      queue.cancel(jobId);
      await queue.flush();
      this.#deps.localChanged(jobId);
    } else {
      const result = queue.markFailed(jobId, {
        code: 'CANCELLED_AT_AGENT',
        message: 'cancelled by the person at the agent’s computer',
        retryable: false,
      });
      await queue.flush();
      this.#deps.link()?.send(result);
    }
    this.#deps.logger.info({ jobId }, 'job cancelled in the window');
    this.changed('jobs');
  }

  /** See `Agent.retryJob`. */
  retryJob(jobId: string): void {
    const { queue } = this.#deps;
    const job = queue.get(jobId);
    if (!job) throw new PrintwireError('JOB_NOT_FOUND', `no job ${jobId} in this agent's queue`);
    if (!queue.retryNow(jobId)) {
      throw new PrintwireError(
        'JOB_ALREADY_FINISHED',
        `job ${jobId} is ${job.state}: only a queued job can be tried again`,
      );
    }
    this.#deps.logger.info({ jobId }, 'job retried now from the window');
    this.changed('jobs');
    this.#deps.runner.wake(job.agentPrinterId);
  }

  /** The newest jobs of the queue, unfinished first. */
  jobs(limit: number): QueueListEntry[] {
    return this.#deps.queue.list(limit);
  }

  /** What the Settings page shows and edits. */
  settings(): AgentSettings {
    const config = this.#deps.config.current;
    return {
      cloudUrl: config.cloudUrl,
      localPort: config.localPort,
      localServerPort: this.#deps.local.server?.port ?? null,
      startAtLogin: this.#preferences.startAtLogin,
      notificationsMuted: this.#preferences.notificationsMuted,
      dataDir: this.#deps.dataDir,
    };
  }

  /** See `Agent.updateSettings`. */
  updateSettings(change: SettingsChange): AgentSettings {
    const { config } = this.#deps;
    if (change.cloudUrl !== undefined && change.cloudUrl !== config.current.cloudUrl) {
      if (this.#deps.link()) {
        throw new PrintwireError(
          'CONFLICT',
          'cloudUrl: this device is activated with its cloud; it cannot move to another',
        );
      }
      config.set({ ...config.current, cloudUrl: change.cloudUrl });
    }
    if (change.localPort !== undefined)
      config.set({ ...config.current, localPort: change.localPort });
    config.save();
    const prefs: Partial<Preferences> = {};
    if (change.startAtLogin !== undefined) prefs.startAtLogin = change.startAtLogin;
    if (change.notificationsMuted !== undefined)
      prefs.notificationsMuted = change.notificationsMuted;
    this.setPreferences(prefs);
    this.emitState();
    return this.settings();
  }

  /** The last lines of the agent's log, oldest first, secrets redacted. */
  logTail(count: number): LogLine[] {
    const token = readDeviceToken(this.#deps.dataDir);
    return tailLog(this.#deps.dataDir, count, token ? [token] : []);
  }

  /** The support zip (same as `printwire-agent logs export`). */
  exportLogs(out: string): Promise<{ files: string[] }> {
    return exportLogs({ dataDir: this.#deps.dataDir, out, agentVersion: AGENT_VERSION });
  }

  /** Prints the test page on a printer in use, between its jobs (paused or not). */
  async printTestPage(agentPrinterId: string): Promise<void> {
    const { inventory, runner, clock, logger } = this.#deps;
    const printer = inventory.find(agentPrinterId);
    if (!printer)
      throw new PrintwireError('PRINTER_NOT_FOUND', `no printer ${agentPrinterId} in use`);
    const target = inventory.targetFor(printer);
    const bytes = testPageBytes(
      { name: printer.spec.name, paper: target.paper, codepage: target.codepage },
      target,
      AGENT_VERSION,
      new Date(clock.now()),
    );
    await runner.printBytes(agentPrinterId, bytes);
    logger.info({ printer: agentPrinterId }, 'test page printed');
  }

  /** The agent's state in one word and its parts (the tray's colour, the window's header). */
  state(): AgentState {
    return agentState({
      cloud: cloudState(this.#deps.link()),
      paused: this.#preferences.paused,
      printers: this.#deps.inventory.info(),
    });
  }

  onState(listener: (state: AgentState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  onPrinterStatus(listener: (printer: PrinterAttention) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  onChange(listener: (what: 'jobs' | 'printers') => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** Jobs or printers changed: the window refetches. */
  changed(what: 'jobs' | 'printers'): void {
    for (const listener of this.#changeListeners) listener(what);
  }

  /** A printer's status changed: notifications, and the state when it changed. */
  printerStatusChanged(
    agentPrinterId: string,
    report: { status: PrinterInfo['status']; detail: string | null },
  ): void {
    const printer = this.#deps.inventory.find(agentPrinterId);
    const event: PrinterAttention = {
      agentPrinterId,
      name: printer?.spec.alias ?? printer?.spec.name ?? agentPrinterId,
      status: report.status,
    };
    for (const listener of this.#statusListeners) listener(event);
    this.emitState();
  }

  /** Tells the state's listeners when it differs from what they last heard. */
  emitState(): void {
    const state = this.state();
    const key = JSON.stringify(state);
    if (key === this.#lastState) return;
    this.#lastState = key;
    for (const listener of this.#stateListeners) listener(state);
  }
}

/** The cloud as `GET /v1/info` and the window say it. */
export function cloudState(link: CloudLink | null): 'connected' | 'offline' | 'not-activated' {
  if (!link) return 'not-activated';
  return link.state === 'online' ? 'connected' : 'offline';
}
