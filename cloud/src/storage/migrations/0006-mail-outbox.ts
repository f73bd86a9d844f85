/**
 * The mail outbox: an e-mail that follows a change (an alert opened or resolved, a webhook
 * endpoint disabled) is written as a `mail_outbox` row in the transaction of that change, so a
 * crash after the commit, or a mail server that is down, cannot lose it. The mail sender reads
 * due rows, sends them, and deletes each once sent; a failure moves `next_attempt_at` on.
 */
import type { Kysely, Migration } from 'kysely';

export function mailOutboxMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        // Attempts started (counted when a sender claims the row).
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // Due at; a claim moves it to the end of the sender's lease.
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .execute();
      await db.schema
        .createIndex('mail_outbox_due')
        .on('mail_outbox')
        .columns(['next_attempt_at', 'id'])
        .execute();
    },
  };
}
