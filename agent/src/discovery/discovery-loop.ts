/**
 * Discovery while the agent runs: a pass every `intervalMs`, and one soon after the platform
 * reports a USB device attached or detached. Passes never overlap (a pass asked for while one
 * runs follows it), and a pass that takes longer than `timeoutMs` is given up.
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { AgentLogger } from '../logs/logger.js';
import { discoverPrinters, type DiscoveryResult, type DiscoverySources } from './discover.js';

/** How often the agent looks for printers while it runs, in ms. */
export const DISCOVERY_INTERVAL_MS = 30_000;
/** The range of PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS, in ms. */
export const DISCOVERY_INTERVAL_RANGE = { min: 1000, max: 3_600_000 } as const;

/**
 * The discovery interval from PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS (whole milliseconds,
 * 1000-3600000), else `DISCOVERY_INTERVAL_MS`; throws VALIDATION_FAILED naming the variable.
 */
export function discoveryIntervalFromEnv(env: NodeJS.ProcessEnv): number {
  const name = 'PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS';
  const raw = env[name];
  if (raw === undefined || raw === '') return DISCOVERY_INTERVAL_MS;
  const value = Number(raw);
  const { min, max } = DISCOVERY_INTERVAL_RANGE;
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new PrintwireError(
      'VALIDATION_FAILED',
      `${name} must be a whole number of milliseconds from ${min} to ${max}, not '${raw}'`,
    );
  }
  return value;
}

/** After a USB attach or detach, the wait before looking (the device finishes enumerating). */
export const USB_SETTLE_MS = 1000;

/** Discovery, given up after `timeoutMs` (a source that hangs must not stop the agent). */
export async function discoverWithin(
  sources: DiscoverySources,
  clock: Clock,
  timeoutMs: number,
): Promise<DiscoveryResult> {
  let timer: TimerHandle | null = null;
  const result = await Promise.race([
    discoverPrinters(sources),
    new Promise<DiscoveryResult>((resolve) => {
      timer = clock.setTimeout(
        () => resolve({ printers: [], problems: [`not done within ${timeoutMs} ms`] }),
        timeoutMs,
      );
    }),
  ]);
  if (timer) clock.clearTimeout(timer);
  return result;
}

export interface DiscoveryLoopOptions {
  sources: DiscoverySources;
  clock: Clock;
  logger: AgentLogger;
  /** Between passes, in ms; 0: no passes but those asked for (USB events, `refresh`). */
  intervalMs: number;
  timeoutMs: number;
  /** The problems of the pass run before the loop (logged already: logged again only if changed). */
  problems?: readonly string[];
  /** Each pass's result; a pass that finds nothing because it timed out is not passed on. */
  onResult(result: DiscoveryResult): Promise<void>;
}

export class DiscoveryLoop {
  readonly #o: DiscoveryLoopOptions;
  #timer: TimerHandle | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  /** Not started, or stopped: no pass is scheduled. */
  #stopped = true;
  /** Stopped: a pass that ends now changes nothing. */
  #closed = false;
  #unwatch: (() => void) | null = null;
  #problems = '';

  constructor(options: DiscoveryLoopOptions) {
    this.#o = options;
    this.#problems = (options.problems ?? []).join('\n');
  }

  /** Schedules the next pass (the agent ran the first one before starting) and watches USB. */
  start(): void {
    if (this.#closed) return;
    this.#stopped = false;
    this.#schedule(this.#o.intervalMs);
    const usb = this.#o.sources.usb;
    if (usb?.watch) {
      try {
        this.#unwatch = usb.watch(() => this.#schedule(USB_SETTLE_MS));
      } catch (error) {
        this.#o.logger.warn({ err: error }, 'USB attach and detach are not reported here');
      }
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#closed = true;
    if (this.#timer) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#unwatch?.();
    this.#unwatch = null;
    await this.#running;
  }

  /** Runs a pass now, or right after the one in progress. */
  refresh(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#pass();
      } while (this.#again && !this.#closed);
    })().finally(() => {
      this.#running = null;
      this.#schedule(this.#o.intervalMs);
    });
    return this.#running;
  }

  /** The next pass in `ms` (sooner than one already scheduled replaces it). */
  #schedule(ms: number): void {
    if (this.#stopped || ms <= 0 || this.#running) {
      if (this.#running && ms === USB_SETTLE_MS) this.#again = true;
      return;
    }
    if (this.#timer) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = this.#o.clock.setTimeout(() => {
      this.#timer = null;
      void this.refresh();
    }, ms);
  }

  async #pass(): Promise<void> {
    const { sources, clock, timeoutMs, logger } = this.#o;
    try {
      const result = await discoverWithin(sources, clock, timeoutMs);
      // Logged when they change, not every pass.
      const problems = result.problems.join('\n');
      if (problems !== this.#problems) {
        for (const problem of result.problems) logger.warn({ problem }, 'printers not searched');
        this.#problems = problems;
      }
      if (this.#closed) return;
      if (result.printers.length === 0 && result.problems.some((p) => p.startsWith('not done'))) {
        return;
      }
      await this.#o.onResult(result);
    } catch (error) {
      logger.error({ err: error }, 'looking for printers failed');
    }
  }
}
