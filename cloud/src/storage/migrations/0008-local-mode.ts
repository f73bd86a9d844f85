/**
 * Local mode: the organization's allowed origins (a JSON array of exact origins, empty by
 * default) and its signing keys (Ed25519; only the public key is stored, as SPKI PEM: the
 * private key is shown once at creation and never kept). A revoked key keeps its row, with
 * `revoked_at`, so the list shows it. Local jobs need no column: `jobs.source` exists.
 */
import type { Kysely, Migration } from 'kysely';

export function localModeMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('organizations')
        .addColumn('allowed_origins', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('signing_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('algorithm', 'text', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('signing_keys_org')
        .on('signing_keys')
        .columns(['organization_id', 'created_at'])
        .execute();
    },
  };
}
