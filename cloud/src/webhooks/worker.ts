/**
 * The delivery worker: the `webhook_deliveries` rows are its queue. It reads due rows (polling,
 * and at once when nudged after new rows), claims each with a lease, signs the stored body with
 * the endpoint's current secret and POSTs it. Attempts run concurrently, bounded overall and per
 * endpoint, so a slow endpoint holds at most its own slots. Failures are retried on the schedule;
 * an endpoint with no success for `disableAfterMs` is disabled and its owners are mailed: the
 * e-mail is written to the mail outbox in the transaction that disables it, and the mail sender
 * sends it.
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
import type { MailSender } from '../mail/sender.js';
import type { WebhookOptions } from './options.js';
import type { WebhookSender } from './sender.js';
import { CoalescedPass } from '../lib/coalesced.js';

type DueRow = Awaited<ReturnType<Store['webhooks']['due']>>[number];

/** Rows claimed ahead per free slot, so one claim transaction feeds several attempts. */
const BUFFER_FACTOR = 4;

export class DeliveryWorker {
  private readonly active = new Map<string, Promise<void>>();
  private readonly perEndpoint = new Map<string, number>();
  /** Claimed rows waiting for a slot, per endpoint, in due order. */
  private readonly queued = new Map<string, DueRow[]>();
  private queuedCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly looks = new CoalescedPass(
    () => this.look(),
    (err) => this.deps.logger.error({ err }, 'webhook worker: reading due deliveries failed'),
  );
  private stopped = true;

  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      logger: Logger;
      sender: WebhookSender;
      options: WebhookOptions;
      /** Set when mail is configured: owners' e-mails are written for it, and it is nudged. */
      mail?: MailSender;
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
    await this.looks.idle();
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
      if (this.active.size === 0 && this.queuedCount === 0) return;
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
    return this.looks.run();
  }

  private async look(): Promise<void> {
    const { store, clock, options } = this.deps;
    const perEndpointCap = options.maxConcurrentPerEndpoint * BUFFER_FACTOR;
    const capacity = options.maxConcurrent * BUFFER_FACTOR - this.active.size - this.queuedCount;
    if (capacity <= 0) return;
    const now = clock.now();
    const rows = await store.webhooks.due(now, Math.min(options.batchSize, capacity));
    // Pick within the limits, then claim the picked rows in one transaction; claimed rows wait
    // in memory per endpoint (their lease covers the wait) and start as slots free up.
    const picked: DueRow[] = [];
    const held = new Map<string, number>();
    for (const row of rows) {
      if (this.active.has(row.id)) continue;
      const n =
        held.get(row.endpointId) ??
        (this.perEndpoint.get(row.endpointId) ?? 0) +
          (this.queued.get(row.endpointId)?.length ?? 0);
      if (n >= perEndpointCap) continue;
      held.set(row.endpointId, n + 1);
      picked.push(row);
    }
    const lease = now + options.timeoutMs * (BUFFER_FACTOR + 1) + 60_000;
    const taken = await store.webhooks.claimMany(
      picked.map((r) => ({ id: r.id, nextAttemptAt: r.nextAttemptAt! })),
      lease,
    );
    for (const row of picked) {
      if (!taken.has(row.id)) continue;
      const queue = this.queued.get(row.endpointId);
      if (queue) queue.push(row);
      else this.queued.set(row.endpointId, [row]);
      this.queuedCount++;
    }
    this.pump();
  }

  /** Starts queued attempts while the overall and per-endpoint limits allow. */
  private pump(): void {
    const { options } = this.deps;
    for (const [endpointId, queue] of this.queued) {
      while (
        queue.length > 0 &&
        this.active.size < options.maxConcurrent &&
        (this.perEndpoint.get(endpointId) ?? 0) < options.maxConcurrentPerEndpoint
      ) {
        const row = queue.shift()!;
        this.queuedCount--;
        this.perEndpoint.set(endpointId, (this.perEndpoint.get(endpointId) ?? 0) + 1);
        const run = this.attempt(row).finally(() => {
          this.active.delete(row.id);
          const n = (this.perEndpoint.get(endpointId) ?? 1) - 1;
          if (n <= 0) this.perEndpoint.delete(endpointId);
          else this.perEndpoint.set(endpointId, n);
          this.pump();
          // This endpoint's queue ran dry: more rows may be due.
          if ((this.queued.get(endpointId)?.length ?? 0) === 0) this.nudge();
        });
        this.active.set(row.id, run);
      }
      if (queue.length === 0) this.queued.delete(endpointId);
    }
  }

  private async attempt(row: DueRow): Promise<void> {
    const { store, clock, options, sender, logger, mail } = this.deps;
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
      const finished = await store.webhooks.finishAttempt(row, {
        at,
        ok: result.ok,
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error,
        nextAttemptAt,
        ...(disable ? { disable } : {}),
        ...(disable && mail ? { mailOwners: disabledMail(row, disable) } : {}),
      });
      if (finished.mailed > 0) mail?.nudge();
    } catch (err) {
      logger.error({ err, deliveryId: row.id }, 'webhook attempt failed to record');
    }
  }
}

/** The owners' e-mail when an endpoint is disabled. */
function disabledMail(row: DueRow, reason: string): { subject: string; text: string } {
  return {
    subject: 'Printwire: a webhook endpoint was disabled',
    text: `The webhook endpoint ${row.endpointId} (${row.url}) was disabled: ${reason}.\nEnable it again in the dashboard once it answers with a 2xx status.`,
  };
}
