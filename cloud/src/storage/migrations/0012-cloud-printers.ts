/**
 * Printers without a computer (Star CloudPRNT, Epson Server Direct Print): `cloud_printers` holds
 * what the cloud knows of each one beside its device and printer rows (the hash of the secret in
 * its address, its protocol, its last poll, what it said it is), and `cloud_handovers` what was
 * handed to which poll: one row per job handed over, with the token the printer confirms it by.
 * `open` is 1 while a hand-over waits for its confirmation and null after: the unique index on
 * (printer_id, open) lets a printer hold one unconfirmed job at a time, whichever instance
 * answers its polls (NULLs are distinct in both SQLite and PostgreSQL).
 */
import type { Kysely, Migration } from 'kysely';

export function cloudPrintersMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('cloud_printers')
        .addColumn('printer_id', 'text', (c) =>
          c.primaryKey().references('printers.id').onDelete('cascade'),
        )
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('device_id', 'text', (c) =>
          c.notNull().references('devices.id').onDelete('cascade'),
        )
        .addColumn('protocol', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        .addColumn('last_poll_at', 'bigint')
        .addColumn('client_type', 'text')
        .addColumn('encodings', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('cloud_printers_org')
        .on('cloud_printers')
        .columns(['organization_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('cloud_handovers')
        .addColumn('job_id', 'text', (c) =>
          c.primaryKey().references('jobs.id').onDelete('cascade'),
        )
        .addColumn('organization_id', 'text', (c) => c.notNull())
        .addColumn('printer_id', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull().unique())
        .addColumn('poll_id', 'text', (c) => c.notNull())
        .addColumn('handed_at', 'bigint', (c) => c.notNull())
        .addColumn('open', 'integer')
        .addColumn('confirmed_at', 'bigint')
        .addColumn('outcome', 'text')
        .execute();
      await db.schema
        .createIndex('cloud_handovers_one_open')
        .on('cloud_handovers')
        .columns(['printer_id', 'open'])
        .unique()
        .execute();
      await db.schema
        .createIndex('cloud_handovers_due')
        .on('cloud_handovers')
        .columns(['open', 'handed_at'])
        .execute();
    },
  };
}
