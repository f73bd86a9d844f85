/**
 * The sweeper: fails queued jobs past expiresAt (errorCode EXPIRED), deletes content and previews
 * past the organization's retention, and forgets idempotency keys older than 24 hours. In `serve`
 * it runs on an interval, and its expiry timer (expiry-timer.ts) fails each job at its expiresAt
 * between sweeps; tests call `sweep` directly with an injected clock.
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/events.js';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../storage/store.js';
import { ExpiryTimer, type Timers } from './expiry-timer.js';
import type { JobService } from './jobs.js';

export interface SweepResult {
  expired: number;
  contentDeleted: number;
  idempotencyKeysDeleted: number;
}

export interface SweeperDeps {
  store: Store;
  jobs: JobService;
  clock: Clock;
  logger: Logger;
  /** Job changes from every instance, for the expiry timer. */
  bus: EventBus;
  /** The expiry timer's timers; default Node's. */
  timers?: Timers;
}

export class Sweeper {
  /** Fails each queued job at its expiresAt (started and stopped with the sweeper). */
  readonly expiry: ExpiryTimer;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepResult> | undefined;
  private expiring: Promise<number> | undefined;

  constructor(private readonly deps: SweeperDeps) {
    this.expiry = new ExpiryTimer({
      store: deps.store,
      bus: deps.bus,
      clock: deps.clock,
      logger: deps.logger,
      expire: () => this.expire(),
      ...(deps.timers ? { timers: deps.timers } : {}),
    });
  }

  /** One pass; concurrent calls share the pass in progress. */
  sweep(): Promise<SweepResult> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Fails the queued jobs past expiresAt now and publishes their events; returns how many.
   * Concurrent calls share the pass in progress.
   */
  expire(): Promise<number> {
    this.expiring ??= (async () => {
      const { store, jobs, clock } = this.deps;
      const expired = await store.jobs.expireDue(clock.now());
      for (const r of expired) await jobs.publish(r.job, [r.event]);
      return expired.length;
    })().finally(() => {
      this.expiring = undefined;
    });
    return this.expiring;
  }

  private async pass(): Promise<SweepResult> {
    const { store, clock } = this.deps;
    const expired = await this.expire();
    const now = clock.now();
    const contentDeleted = await store.jobs.purgeContent(now);
    const idempotencyKeysDeleted = await store.jobs.purgeIdempotencyKeys(now);
    return { expired, contentDeleted, idempotencyKeysDeleted };
  }

  /** Runs `sweep` every `intervalMs` and the expiry timer until `stop`. */
  async start(intervalMs: number): Promise<void> {
    await this.stop();
    this.timer = setInterval(() => {
      this.sweep().catch((err) => this.deps.logger.error({ err }, 'sweep failed'));
    }, intervalMs);
    this.timer.unref();
    await this.expiry.start();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.expiry.stop();
    await this.running?.catch(() => undefined);
  }
}
