/**
 * The expiry timer: one timer armed for the earliest expiresAt of a queued job, so a job fails
 * with EXPIRED within moments of its expiry instead of at the next sweep. It is armed from the
 * store at start, moved earlier when a job is queued (created, or back from an agent) with an
 * earlier expiry, and armed again from the store when the job it waits for leaves the queue.
 * Every instance hears job changes on the bus and runs its own timer; the conditional update of
 * `expireDue` fails each job once, whichever instance gets there first. The periodic sweep stays
 * as the backstop (a bus event lost, a timer that failed).
 */
import type { Logger } from 'pino';
import type { BusEvent, EventBus } from '../bus/events.js';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../storage/store.js';

/** Timers the expiry timer uses; tests pass ones driven by their manual clock. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Node's timers, unref'd: an armed expiry never keeps a process alive. */
export const nodeTimers: Timers = {
  set(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return handle;
  },
  clear(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

/** setTimeout's longest delay; a later expiry is waited for in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** After a failed pass (database down), the next try; the sweep is the backstop meanwhile. */
const RETRY_AFTER_MS = 1000;

export interface ExpiryTimerDeps {
  store: Store;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** Fails the jobs due now (the sweeper's expiry pass). */
  expire(): Promise<unknown>;
  /** Default `nodeTimers`. */
  timers?: Timers;
}

export class ExpiryTimer {
  readonly #deps: ExpiryTimerDeps;
  readonly #timers: Timers;
  #handle: unknown = null;
  /** The expiry the timer is armed for (epoch ms), null when none. */
  #dueAt: number | null = null;
  /** The earliest expiry heard of while the store was being asked (it may not show it yet). */
  #heardDuringRead = Infinity;
  #reading: Promise<void> | null = null;
  #firing: Promise<void> | null = null;
  #readAgain = false;
  #running = false;
  #unsubscribe: (() => Promise<void>) | null = null;

  constructor(deps: ExpiryTimerDeps) {
    this.#deps = deps;
    this.#timers = deps.timers ?? nodeTimers;
  }

  /** The expiry the timer is armed for, or null. */
  get dueAt(): number | null {
    return this.#dueAt;
  }

  /** Resolves once the pass and the store reads in progress are done (tests wait for it). */
  async idle(): Promise<void> {
    while (this.#firing || this.#reading)
      await (this.#firing ?? this.#reading)?.catch(() => undefined);
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe = await this.#deps.bus.subscribe((event) => this.onEvent(event));
    await this.rearm();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#disarm();
    await this.#unsubscribe?.();
    this.#unsubscribe = null;
    await this.#firing;
    await this.#reading?.catch(() => undefined);
  }

  /** A job was queued with `expiresAt`, or a job left the queue (see the module comment). */
  onEvent(event: BusEvent): void {
    if (event.type !== 'job.state_changed' || !this.#running) return;
    const raw = event.job.expiresAt;
    const expiresAt = typeof raw === 'string' ? Date.parse(raw) : NaN;
    if (Number.isNaN(expiresAt)) return;
    if (event.state === 'queued') {
      this.#heardDuringRead = Math.min(this.#heardDuringRead, expiresAt);
      if (this.#dueAt === null || expiresAt < this.#dueAt) this.#arm(expiresAt);
    } else if (expiresAt === this.#dueAt) {
      // The job the timer waits for was dispatched, cancelled or failed: find the next one.
      void this.rearm();
    }
  }

  /** Arms the timer for the earliest expiry in the store; concurrent calls share one read. */
  rearm(): Promise<void> {
    if (this.#reading) {
      this.#readAgain = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      do {
        this.#readAgain = false;
        this.#heardDuringRead = Infinity;
        const next = await this.#deps.store.jobs.nextExpiry();
        if (!this.#running) return;
        const earliest = Math.min(next ?? Infinity, this.#heardDuringRead);
        this.#arm(earliest === Infinity ? null : earliest);
      } while (this.#readAgain);
    })().finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  #arm(at: number | null): void {
    this.#disarm();
    if (at === null || !this.#running) return;
    this.#dueAt = at;
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, at - this.#deps.clock.now()));
    this.#handle = this.#timers.set(() => {
      this.#firing = this.#fire().finally(() => {
        this.#firing = null;
      });
    }, delay);
  }

  #disarm(): void {
    if (this.#handle !== null) this.#timers.clear(this.#handle);
    this.#handle = null;
    this.#dueAt = null;
  }

  async #fire(): Promise<void> {
    this.#handle = null;
    this.#dueAt = null;
    try {
      await this.#deps.expire();
      await this.rearm();
    } catch (err) {
      this.#deps.logger.error({ err }, 'expiring jobs failed; trying again in a second');
      if (this.#running && this.#dueAt === null) {
        this.#arm(this.#deps.clock.now() + RETRY_AFTER_MS);
      }
    }
  }
}
