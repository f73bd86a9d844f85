/**
 * Account e-mails go through the mail outbox too (verification, password reset, invitation): they
 * are written in the transaction of the token they carry, so a mail server that is down delays
 * them instead of failing the request, and a crash after the commit cannot lose them. They belong
 * to no organization until one is joined, so `organization_id` becomes optional; they have an HTML
 * part; and their links expire, so `expires_at` says when sending them stops making sense.
 * `organization_id` now references the organization: deleting one deletes its unsent e-mails
 * (an invitation to it, an alert about its printers), and those an earlier release left for
 * organizations already deleted are dropped here.
 *
 * SQLite cannot drop a NOT NULL constraint: the table is rebuilt, rows and index kept, in one
 * transaction of its own (Kysely runs SQLite migrations outside one).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

export function accountMailMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await db.schema
          .alterTable('mail_outbox')
          .alterColumn('organization_id', (c) => c.dropNotNull())
          .execute();
        await db.schema.alterTable('mail_outbox').addColumn('html', 'text').execute();
        await db.schema.alterTable('mail_outbox').addColumn('expires_at', 'bigint').execute();
        await sql`delete from mail_outbox where organization_id is not null
          and organization_id not in (select id from organizations)`.execute(db);
        await db.schema
          .alterTable('mail_outbox')
          .addForeignKeyConstraint(
            'mail_outbox_organization',
            ['organization_id'],
            'organizations',
            ['id'],
          )
          .onDelete('cascade')
          .execute();
        return;
      }
      await sql`begin immediate`.execute(db);
      try {
        await db.schema
          .createTable('mail_outbox_0007')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('organization_id', 'text', (c) =>
            c.references('organizations.id').onDelete('cascade'),
          )
          .addColumn('recipient', 'text', (c) => c.notNull())
          .addColumn('subject', 'text', (c) => c.notNull())
          .addColumn('text', 'text', (c) => c.notNull())
          .addColumn('html', 'text')
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('last_error', 'text')
          .execute();
        await sql`insert into mail_outbox_0007
            (id, organization_id, recipient, subject, text, attempts, next_attempt_at, created_at, last_error)
          select id, organization_id, recipient, subject, text, attempts, next_attempt_at, created_at, last_error
          from mail_outbox
          where organization_id in (select id from organizations)`.execute(db);
        await db.schema.dropTable('mail_outbox').execute();
        await db.schema.alterTable('mail_outbox_0007').renameTo('mail_outbox').execute();
        await db.schema
          .createIndex('mail_outbox_due')
          .on('mail_outbox')
          .columns(['next_attempt_at', 'id'])
          .execute();
        await sql`commit`.execute(db);
      } catch (error) {
        await sql`rollback`.execute(db);
        throw error;
      }
    },
  };
}
