/**
 * The delivery worker: the `webhook_deliveries` rows are its queue. It reads due rows (polling,
 * and at once when nudged after new rows), claims each with a lease, signs the stored body with
 * the endpoint's current secret and POSTs it. Attempts run concurrently, bounded overall and per
 * endpoint, so a slow endpoint holds at most its own slots. Failures are retried on the schedule;
 * an endpoint with no success for `disableAfterMs` is disabled and its owners are mailed.
 */
import type { Logger } from 'pino';
import {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signWebhookPayload,
  WEBHOOK_USER_AGENT,
} from '@printwire/shared/webhook/index';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../storage/store.js';
import type { WebhookOptions } from './options.js';
import type { WebhookSender } from './sender.js';

export interface WebhookMailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

type DueRow = Awaited<ReturnType<Store['webhooks']['due']>>[number];

export class DeliveryWorker {
  private readonly active = new Map<string, Promise<void>>();
  private readonly perEndpoint = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      logger: Logger;
      sender: WebhookSender;
      options: WebhookOptions;
      mailer?: WebhookMailer;
    },
  ) {}

  /** Starts polling. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops polling and waits for attempts in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.active.values()]);
  }

  /** New rows are due: look now rather than at the next poll. */
  nudge(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Attempts everything due now and waits until nothing due is left (tests, shutdown). */
  async drain(): Promise<void> {
    for (;;) {
      await this.tick();
      if (this.active.size === 0) return;
      await Promise.race(this.active.values());
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.tick().finally(() => {
        if (!this.stopped) this.schedule(this.deps.options.pollIntervalMs);
      });
    }, ms);
    this.timer.unref();
  }

  /** One look at the due rows; concurrent calls coalesce into one more look. */
  tick(): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      try {
        do {
          this.again = false;
          await this.look();
        } while (this.again);
      } catch (err) {
        this.deps.logger.error({ err }, 'webhook worker: reading due deliveries failed');
      } finally {
        this.ticking = undefined;
      }
    })();
    return this.ticking;
  }

  private async look(): Promise<void> {
    const { store, clock, options } = this.deps;
    if (this.active.size >= options.maxConcurrent) return;
    const now = clock.now();
    const rows = await store.webhooks.due(now, options.batchSize);
    for (const row of rows) {
      if (this.active.size >= options.maxConcurrent) return;
      if (this.active.has(row.id)) continue;
      if ((this.perEndpoint.get(row.endpointId) ?? 0) >= options.maxConcurrentPerEndpoint) continue;
      const lease = now + options.timeoutMs + 60_000;
      if (!(await store.webhooks.claim(row.id, row.nextAttemptAt!, lease))) continue;
      this.perEndpoint.set(row.endpointId, (this.perEndpoint.get(row.endpointId) ?? 0) + 1);
      const run = this.attempt(row).finally(() => {
        this.active.delete(row.id);
        const n = (this.perEndpoint.get(row.endpointId) ?? 1) - 1;
        if (n <= 0) this.perEndpoint.delete(row.endpointId);
        else this.perEndpoint.set(row.endpointId, n);
        // A slot is free: more may be waiting.
        this.nudge();
      });
      this.active.set(row.id, run);
    }
  }

  private async attempt(row: DueRow): Promise<void> {
    const { store, clock, options, sender, logger } = this.deps;
    try {
      const timestamp = Math.floor(clock.now() / 1000);
      const result = await sender.send(
        row.url,
        {
          'Content-Type': 'application/json',
          'User-Agent': WEBHOOK_USER_AGENT,
          [SIGNATURE_HEADER]: signWebhookPayload(row.secret, timestamp, row.body),
          [EVENT_ID_HEADER]: row.eventId,
        },
        row.body,
      );
      const at = clock.now();
      const attempts = row.attempts + 1;
      let nextAttemptAt: number | null = null;
      let disable: string | undefined;
      if (!result.ok) {
        const delay = options.retryDelaysMs[attempts - 1];
        nextAttemptAt = delay === undefined ? null : at + delay;
        const health = await store.webhooks.endpointHealth(row.endpointId);
        const since = health?.failingSince ?? at;
        if (health?.enabled && at - since >= options.disableAfterMs) {
          disable = `no successful delivery since ${new Date(since).toISOString()}`;
        }
      }
      await store.webhooks.finishAttempt(row, {
        at,
        ok: result.ok,
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error,
        nextAttemptAt,
        ...(disable ? { disable } : {}),
      });
      if (disable) await this.tellOwners(row, disable);
    } catch (err) {
      logger.error({ err, deliveryId: row.id }, 'webhook attempt failed to record');
    }
  }

  private async tellOwners(row: DueRow, reason: string): Promise<void> {
    const { mailer, store, logger } = this.deps;
    if (!mailer) return;
    try {
      for (const to of await store.webhooks.ownerEmails(row.organizationId)) {
        await mailer.send({
          to,
          subject: 'Printwire: a webhook endpoint was disabled',
          text: `The webhook endpoint ${row.endpointId} (${row.url}) was disabled: ${reason}.\nEnable it again in the dashboard once it answers with a 2xx status.`,
        });
      }
    } catch (err) {
      logger.error({ err, endpointId: row.endpointId }, 'webhook: mailing the owners failed');
    }
  }
}
