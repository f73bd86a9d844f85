/**
 * The sweeper: fails queued jobs past expiresAt (errorCode EXPIRED), deletes content and previews
 * past the organization's retention, and forgets idempotency keys older than 24 hours. It runs on
 * an interval in `serve` and is called directly by tests with an injected clock.
 */
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../storage/store.js';
import type { JobService } from './jobs.js';

export interface SweepResult {
  expired: number;
  contentDeleted: number;
  idempotencyKeysDeleted: number;
}

export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepResult> | undefined;

  constructor(
    private readonly deps: { store: Store; jobs: JobService; clock: Clock; logger: Logger },
  ) {}

  /** One pass; concurrent calls share the pass in progress. */
  sweep(): Promise<SweepResult> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<SweepResult> {
    const { store, jobs, clock } = this.deps;
    const now = clock.now();
    const expired = await store.jobs.expireDue(now);
    for (const r of expired) await jobs.publish(r.job, [r.event]);
    const contentDeleted = await store.jobs.purgeContent(now);
    const idempotencyKeysDeleted = await store.jobs.purgeIdempotencyKeys(now);
    return { expired: expired.length, contentDeleted, idempotencyKeysDeleted };
  }

  /** Runs `sweep` every `intervalMs` until `stop`. */
  start(intervalMs: number): void {
    this.stop();
    this.timer = setInterval(() => {
      this.sweep().catch((err) => this.deps.logger.error({ err }, 'sweep failed'));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
