/**
 * Printer groups (../shared/CONTRACT.md "Printer groups"): a group of 1 to 20 printers of one
 * organization, in order, with its strategy and, for round-robin, the member that took the
 * group's last job (`last_printer_id`, the cursor, moved by compare-and-set so that two
 * instances keep the turn). A job that names a group keeps it (`printer_group_id`); its
 * `printer_id` is the member that has it now, and `moved_from` (a JSON array of printer ids) the
 * members it was moved from, oldest first; the `queued` event a move writes names the member it
 * went to (`job_events.printer_id`). The index finds a group's waiting jobs.
 */
import type { Kysely, Migration } from 'kysely';

export function printerGroupsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('printer_groups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('strategy', 'text', (c) => c.notNull())
        .addColumn('last_printer_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('printer_groups_org')
        .on('printer_groups')
        .columns(['organization_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createTable('printer_group_members')
        .addColumn('group_id', 'text', (c) =>
          c.notNull().references('printer_groups.id').onDelete('cascade'),
        )
        .addColumn('organization_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('printer_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('printer_group_members_pk', ['group_id', 'position'])
        .addUniqueConstraint('printer_group_members_printer', ['group_id', 'printer_id'])
        .execute();
      await db.schema
        .createIndex('printer_group_members_printer_idx')
        .on('printer_group_members')
        .columns(['organization_id', 'printer_id'])
        .execute();
      await db.schema.alterTable('jobs').addColumn('printer_group_id', 'text').execute();
      await db.schema
        .alterTable('jobs')
        .addColumn('moved_from', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      // A move's `queued` event names the member the job went to.
      await db.schema.alterTable('job_events').addColumn('printer_id', 'text').execute();
      await db.schema
        .createIndex('jobs_group_state')
        .on('jobs')
        .columns(['organization_id', 'printer_group_id', 'state', 'created_at'])
        .execute();
    },
  };
}
