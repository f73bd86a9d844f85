/**
 * `local_downloads_to_private_network`: whether a job printed through local mode may make the
 * agent fetch its URL (or a receipt image) from the shop's network. Off by default.
 */
import type { Kysely, Migration } from 'kysely';

export function localDownloadsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('organizations')
        .addColumn('local_downloads_to_private_network', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
