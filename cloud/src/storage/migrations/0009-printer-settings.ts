/**
 * What the dashboard sets on a printer, kept apart from what its agent reports: `settings` is a
 * JSON object `{ alias?, isDefault?, paper?, codepage?, cut? }`. An agent's report rewrites the
 * reported columns at every connection; the set alias and default win over the reported ones
 * (they are written into `alias` and `is_default`, which targeting matches on), and the set
 * paper, codepage and cut are the per-printer defaults pushed to the agent in its `config`.
 * Also an index for the dashboard's job list filtered by state (the Overview's failures and
 * `?state=failed`): without it a state that is rare walks every job of the organization.
 */
import type { Kysely, Migration } from 'kysely';

export function printerSettingsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('printers')
        .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema
        .createIndex('jobs_list_state')
        .on('jobs')
        .columns(['organization_id', 'mode', 'state', 'created_at', 'id'])
        .execute();
    },
  };
}
