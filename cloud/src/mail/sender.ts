/**
 * The mail sender: the `mail_outbox` rows are its queue (storage/mail-outbox.ts). The alerts, the
 * delivery worker and the accounts (verification, password reset, invitation) write their e-mails
 * there in the transaction of the change they follow and nudge the sender; it also looks on a timer (1 s) and at start, so e-mails a crash or a restart
 * left behind go out, on any instance. Each look claims a batch of due rows (a lease, so no other
 * sender takes them meanwhile), sends them through the mailer at once, deletes each one sent, and
 * puts each failure back with exponential backoff (30 s, doubling, at most 1 h between attempts);
 * after `maxAttempts` (about a day with the defaults) the message is dropped with an error log,
 * and so is a message whose `expiresAt` has passed (an account e-mail whose link has expired).
 *
 * At least once: a message is deleted only after the mail server accepted it. A message is sent
 * twice only when the process dies between the SMTP success and the delete (or the delete itself
 * fails): the row is due again once its lease ends, and another look sends it again. The lease
 * (15 min) is longer than a send normally takes (nodemailer gives up after 2 min without a
 * connection or 10 min of a silent socket), so a slow send is not taken over by another sender
 * meanwhile; a send that outlasted its lease could be made a second time too.
 */
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import { DEFAULT_MAIL_LEASE_MS } from '../storage/mail-outbox.js';
import type { MailOutboxTable } from '../storage/schema.js';
import type { Store } from '../storage/store.js';
import type { Mailer } from './mailer.js';
import { CoalescedPass } from '../lib/coalesced.js';
import { backoffMs } from '@printwire/shared/time/backoff';

export interface MailSenderOptions {
  /** How often the sender looks for due messages when not nudged. Default 1 s. */
  intervalMs: number;
  /** Messages claimed per look; they are sent at once. Default 10. */
  batchSize: number;
  /** How long a claimed message is left to its sender; must outlast a send. Default 15 min. */
  leaseMs: number;
  /** The wait after the first failed attempt; doubled after each further one. Default 30 s. */
  retryBaseMs: number;
  /** The longest wait between two attempts. Default 1 h. */
  retryMaxMs: number;
  /**
   * Attempts before a message is dropped (logged as an error). Default 30: with the defaults the
   * last attempt comes about 23 hours after the first.
   */
  maxAttempts: number;
}

export const DEFAULT_MAIL_SENDER_OPTIONS: MailSenderOptions = {
  intervalMs: 1000,
  batchSize: 10,
  leaseMs: DEFAULT_MAIL_LEASE_MS,
  retryBaseMs: 30_000,
  retryMaxMs: 60 * 60_000,
  maxAttempts: 30,
};

/** The wait after the `attempts`-th failed attempt (1: the first). */
export function mailRetryDelay(
  attempts: number,
  options: Pick<MailSenderOptions, 'retryBaseMs' | 'retryMaxMs'>,
): number {
  return backoffMs(attempts - 1, { baseMs: options.retryBaseMs, maxMs: options.retryMaxMs });
}

const errorText = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).slice(0, 1000);

export class MailSender {
  readonly options: MailSenderOptions;
  private timer: NodeJS.Timeout | undefined;
  private readonly looks = new CoalescedPass(
    () => this.sendDue(),
    (err) => this.deps.logger.error({ err }, 'mail: reading due messages failed'),
  );
  private stopped = true;

  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      logger: Logger;
      mailer: Mailer;
      options?: Partial<MailSenderOptions> | undefined;
    },
  ) {
    this.options = { ...DEFAULT_MAIL_SENDER_OPTIONS, ...deps.options };
  }

  /**
   * Looks at once (messages a crash left behind: `idle()` resolves when that look is over), then
   * on the timer and when nudged.
   */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.tick().finally(() => {
      if (!this.stopped) this.schedule(this.options.intervalMs);
    });
  }

  /** Stops looking and waits for the sends in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.looks.idle();
  }

  /** Messages were written: look now rather than at the next tick. */
  nudge(): void {
    if (!this.stopped) this.schedule(0);
  }

  /**
   * Sends everything due now and resolves once no due message is left unclaimed (failures wait
   * for their next attempt); concurrent calls coalesce into one more look. Works without `start`
   * (tests, shutdown).
   */
  drain(): Promise<void> {
    return this.tick();
  }

  /** Resolves when the look in progress, if any, has ended. */
  async idle(): Promise<void> {
    await this.looks.idle();
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.tick().finally(() => {
        if (!this.stopped) this.schedule(this.options.intervalMs);
      });
    }, ms);
    this.timer.unref();
  }

  private tick(): Promise<void> {
    return this.looks.run();
  }

  /** Claims and sends batch after batch until a claim comes back short. */
  private async sendDue(): Promise<void> {
    const { store, clock } = this.deps;
    const { batchSize, leaseMs } = this.options;
    for (;;) {
      const rows = await store.mailOutbox.claimDue(clock.now(), batchSize, leaseMs);
      await Promise.all(rows.map((row) => this.send(row)));
      if (rows.length < batchSize) return;
    }
  }

  /**
   * One attempt at one claimed message. Never throws: a row left claimed (the database failed)
   * comes back after its lease.
   */
  private async send(row: MailOutboxTable): Promise<void> {
    const { store, clock, logger, mailer } = this.deps;
    const { maxAttempts } = this.options;
    try {
      if (row.expiresAt !== null && row.expiresAt <= clock.now()) {
        // Its link has expired: sending it now would only hand out a dead link.
        const tried = row.attempts - 1;
        await this.drop(row, row.lastError ?? 'not sent before it expired', tried, 'expired');
        return;
      }
      if (row.attempts > maxAttempts) {
        // The last attempt was claimed and never finished (a crash, a lease that ran out).
        await this.drop(row, row.lastError ?? 'the last attempt did not finish', maxAttempts);
        return;
      }
      try {
        await mailer.send({
          to: row.recipient,
          subject: row.subject,
          text: row.text,
          ...(row.html !== null ? { html: row.html } : {}),
        });
      } catch (err) {
        const error = errorText(err);
        if (row.attempts >= maxAttempts) {
          await this.drop(row, error, row.attempts);
          return;
        }
        const nextAttemptAt = clock.now() + mailRetryDelay(row.attempts, this.options);
        await store.mailOutbox.failed(row.id, error, nextAttemptAt);
        logger.warn(
          { err, mailId: row.id, attempts: row.attempts, nextAttemptAt },
          'mail: sending failed; it will be retried',
        );
        return;
      }
      // Accepted by the mail server. Dying before this delete commits (or the delete failing)
      // sends it again after the lease: at least once, never lost.
      await store.mailOutbox.sent(row.id);
    } catch (err) {
      logger.error({ err, mailId: row.id }, 'mail: recording an attempt failed');
    }
  }

  /**
   * Deletes a message whose `attempts` attempts are spent, or (`expired`) that expired before any
   * attempt got it through, with an error log line.
   */
  private async drop(
    row: MailOutboxTable,
    error: string,
    attempts: number,
    why: 'spent' | 'expired' = 'spent',
  ): Promise<void> {
    const dropped = await this.deps.store.mailOutbox.drop(row.id, error);
    if (!dropped) return;
    this.deps.logger.error(
      {
        mailId: dropped.id,
        organizationId: dropped.organizationId,
        to: dropped.recipient,
        subject: dropped.subject,
        attempts,
        createdAt: new Date(dropped.createdAt).toISOString(),
        error,
      },
      why === 'expired'
        ? `mail: dropped unsent, it expired after ${attempts} failed attempts`
        : `mail: dropped after ${attempts} failed attempts`,
    );
  }
}
