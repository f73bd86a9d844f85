/**
 * The mail outbox (migrations 0006, 0007). An e-mail that follows a change is written here in the
 * transaction of that change (`enqueueIn`: an alert opened or resolved, a webhook endpoint
 * disabled, a verification, password-reset or invitation token created), so it exists exactly when
 * the change committed: neither a crash right after the commit nor a mail server that is down
 * loses it. An account e-mail carries its one-time link in clear (the database keeps only the
 * token's hash elsewhere) for as long as it waits here: its row is deleted once sent, or dropped
 * unsent once the link has expired. The mail sender (mail/sender.ts) is the
 * only reader: it claims due rows (`claimDue`), sends them, deletes each once sent (`sent`), and
 * records a failure with the time of the next attempt (`failed`) or gives up (`drop`).
 *
 * A claim counts the attempt and moves `nextAttemptAt` to the end of a lease: while the lease runs
 * no other sender takes the row, and when a sender dies mid-send the row is due again once the
 * lease is over. On PostgreSQL the claim reads `FOR UPDATE SKIP LOCKED`, so senders on several
 * instances claim different rows and never wait for each other; on SQLite the single writer
 * serializes claims.
 */
import type { Kysely, Transaction } from 'kysely';
import { newId } from '../lib/ids.js';
import type { Dialect } from './dialect.js';
import type { WriteFn } from './organizations.js';
import { PreparedCache, slot } from './prepared.js';
import type { Database, MailOutboxTable } from './schema.js';

/** An e-mail to write to the outbox. */
export interface MailMessage {
  /** Null for an account e-mail (verification, password reset), which follows no organization. */
  organizationId: string | null;
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  /** Not sent after this time (the link it carries has expired): dropped instead. */
  expiresAt?: number | undefined;
}

/** A row as read: PostgreSQL returns its bigints as strings. */
const fromDb = (r: MailOutboxTable): MailOutboxTable => ({
  ...r,
  attempts: Number(r.attempts),
  nextAttemptAt: Number(r.nextAttemptAt),
  expiresAt: r.expiresAt === null ? null : Number(r.expiresAt),
  createdAt: Number(r.createdAt),
});

/** The default lease of a claim: longer than any send may take (see `claimDue`). */
export const DEFAULT_MAIL_LEASE_MS = 15 * 60_000;

/** Rows per insert: well under both databases' limits on bound values. */
const INSERT_CHUNK = 500;

export class MailOutbox {
  private readonly prepared = new PreparedCache();

  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Writes the messages in `trx`, the transaction of the change they follow; due at `now`.
   * Returns how many were written.
   */
  async enqueueIn(
    trx: Transaction<Database>,
    messages: ReadonlyArray<MailMessage>,
    now: number,
  ): Promise<number> {
    const rows: MailOutboxTable[] = messages.map((m) => ({
      id: newId('mail', now),
      organizationId: m.organizationId,
      recipient: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html ?? null,
      attempts: 0,
      nextAttemptAt: now,
      expiresAt: m.expiresAt ?? null,
      createdAt: now,
      lastError: null,
    }));
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('mailOutbox')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .execute();
    }
    return rows.length;
  }

  /** `enqueueIn` in a write of its own, for e-mails that follow no other write. */
  enqueue(messages: ReadonlyArray<MailMessage>, now: number): Promise<number> {
    if (messages.length === 0) return Promise.resolve(0);
    return this.write((trx) => this.enqueueIn(trx, messages, now));
  }

  /**
   * Takes up to `limit` rows due at `now`, oldest due first: counts their attempt and moves their
   * `nextAttemptAt` to `now + leaseMs`, in one transaction; returns them as claimed (`attempts`
   * already counts this one). The lease must outlast a send: a send still running when its lease
   * ends may be made a second time by another sender.
   */
  async claimDue(
    now: number,
    limit: number,
    leaseMs: number = DEFAULT_MAIL_LEASE_MS,
  ): Promise<MailOutboxTable[]> {
    // A read first: most looks find nothing due, and need no write transaction to learn it.
    const due = await this.prepared
      .get('mail.any', () =>
        this.read
          .selectFrom('mailOutbox')
          .select('id')
          .where('nextAttemptAt', '<=', slot('now'))
          .limit(1),
      )
      .execute(this.read, { now });
    if (due.length === 0) return [];
    return this.write(async (trx) => {
      let q = trx
        .selectFrom('mailOutbox')
        .selectAll()
        .where('nextAttemptAt', '<=', now)
        .orderBy('nextAttemptAt')
        .orderBy('id')
        .limit(limit);
      if (this.dialect === 'postgres') q = q.forUpdate().skipLocked();
      const rows = await q.execute();
      if (rows.length === 0) return [];
      const leaseUntil = now + leaseMs;
      await trx
        .updateTable('mailOutbox')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), nextAttemptAt: leaseUntil }))
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      return rows.map((r) => ({
        ...fromDb(r),
        attempts: Number(r.attempts) + 1,
        nextAttemptAt: leaseUntil,
      }));
    });
  }

  /** The message was sent: deletes it. */
  async sent(id: string): Promise<void> {
    await this.write((trx) => trx.deleteFrom('mailOutbox').where('id', '=', id).execute());
  }

  /** The attempt failed: records the error and when to try again. */
  async failed(id: string, error: string, nextAttemptAt: number): Promise<void> {
    await this.write((trx) =>
      trx
        .updateTable('mailOutbox')
        .set({ lastError: error, nextAttemptAt })
        .where('id', '=', id)
        .execute(),
    );
  }

  /**
   * Gives up on a message (its attempts are spent): deletes it and returns the row as it was
   * (undefined: already gone), for the log line that reports it.
   */
  async drop(id: string, error?: string): Promise<MailOutboxTable | undefined> {
    const row = await this.write((trx) =>
      trx.deleteFrom('mailOutbox').where('id', '=', id).returningAll().executeTakeFirst(),
    );
    if (!row) return undefined;
    return { ...fromDb(row), lastError: error ?? row.lastError };
  }

  /** Every waiting message, oldest due first (tests, operators). */
  async pending(limit = 1000): Promise<MailOutboxTable[]> {
    const rows = await this.read
      .selectFrom('mailOutbox')
      .selectAll()
      .orderBy('nextAttemptAt')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(fromDb);
  }

  /** Messages waiting to be sent. */
  async size(): Promise<number> {
    const { count } = await this.read
      .selectFrom('mailOutbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  }
}
