/**
 * Schema migrations for SQLite and PostgreSQL. Each migration is written once with Kysely's schema
 * builder; the few types that differ (bytes, auto-increment) come from `types(dialect)`.
 * Names are snake_case here because migrations run without the CamelCasePlugin.
 */
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { dashboardMigration } from './migrations/0002-dashboard.js';
import { gatewayMigration } from './migrations/0003-gateway.js';
import { webhooksMigration } from './migrations/0004-webhooks.js';
import { webhookOutboxMigration } from './migrations/0005-webhook-outbox.js';
import { mailOutboxMigration } from './migrations/0006-mail-outbox.js';
import { accountMailMigration } from './migrations/0007-account-mail.js';
import { localModeMigration } from './migrations/0008-local-mode.js';
import { printerSettingsMigration } from './migrations/0009-printer-settings.js';
import { localDownloadsMigration } from './migrations/0010-local-downloads.js';
import { printerGroupsMigration } from './migrations/0011-printer-groups.js';
import { cloudPrintersMigration } from './migrations/0012-cloud-printers.js';
import { printerReachMigration } from './migrations/0013-printer-reach.js';
import { jobDeliveriesMigration } from './migrations/0014-job-deliveries.js';
import { jobListGroupMigration } from './migrations/0015-job-list-group.js';
import type { Dialect } from './dialect.js';

// Still exported here for the modules that import it from the migrations.
export type { Dialect };

function types(dialect: Dialect) {
  return {
    bytes: dialect === 'postgres' ? ('bytea' as const) : ('blob' as const),
    serial: dialect === 'postgres' ? ('bigserial' as const) : ('integer' as const),
  };
}

function initial(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('organizations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull().defaultTo('free'))
        .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
        .addColumn('retention_days', 'integer', (c) => c.notNull().defaultTo(7))
        .addColumn('require_signature', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('unsigned_mode_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('dev_mode_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('email_verified_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('memberships')
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['organization_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('api_keys_org')
        .on('api_keys')
        .columns(['organization_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('group_id', 'text')
        .addColumn('os', 'text', (c) => c.notNull())
        .addColumn('arch', 'text', (c) => c.notNull())
        .addColumn('agent_version', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('offline'))
        .addColumn('activated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('token_hash', 'text', (c) => c.unique())
        .addColumn('last_seen_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('devices_org')
        .on('devices')
        .columns(['organization_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('printers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('device_id', 'text', (c) =>
          c.notNull().references('devices.id').onDelete('cascade'),
        )
        .addColumn('agent_printer_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('alias', 'text')
        .addColumn('connection', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('paper', 'text')
        .addColumn('codepage', 'text')
        .addColumn('profile', 'text')
        .addColumn('capabilities', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('offline'))
        .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_status_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('printers_agent_id', ['device_id', 'agent_printer_id'])
        .execute();
      await db.schema
        .createIndex('printers_org')
        .on('printers')
        .columns(['organization_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('device_id', 'text')
        .addColumn('printer_id', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('encoding', 'text', (c) => c.notNull())
        .addColumn('template_id', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('options', 'text', (c) => c.notNull())
        .addColumn('content_retained', 'integer', (c) => c.notNull())
        .addColumn('has_preview', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('dispatched_at', 'bigint')
        .addColumn('printed_at', 'bigint')
        .addColumn('expires_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addColumn('content_expires_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('jobs_list')
        .on('jobs')
        .columns(['organization_id', 'mode', 'created_at', 'id'])
        .execute();
      // Partial indexes: only queued jobs wait for a device or expire, only finished jobs with
      // content wait for the sweeper; sandbox jobs (finished at creation) skip the first two.
      await db.schema
        .createIndex('jobs_queued_device')
        .on('jobs')
        .columns(['device_id', 'created_at'])
        .where(sql.ref('state'), '=', 'queued')
        .execute();
      await db.schema
        .createIndex('jobs_queued_expiry')
        .on('jobs')
        .column('expires_at')
        .where(sql.ref('state'), '=', 'queued')
        .execute();
      await db.schema
        .createIndex('jobs_content_expiry')
        .on('jobs')
        .column('content_expires_at')
        .where(sql.ref('content_expires_at'), 'is not', null)
        .execute();

      await db.schema
        .createTable('job_contents')
        .addColumn('job_id', 'text', (c) =>
          c.primaryKey().references('jobs.id').onDelete('cascade'),
        )
        .addColumn('organization_id', 'text', (c) => c.notNull())
        .addColumn('content', t.bytes, (c) => c.notNull())
        .addColumn('preview', t.bytes)
        .execute();

      await db.schema
        .createTable('job_events')
        .addColumn('id', t.serial, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('organization_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('job_events_job')
        .on('job_events')
        .columns(['job_id', 'id'])
        .execute();

      await db.schema
        .createTable('job_metadata')
        .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('organization_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('job_metadata_pk', ['job_id', 'key'])
        .execute();
      await db.schema
        .createIndex('job_metadata_lookup')
        .on('job_metadata')
        .columns(['organization_id', 'key', 'value'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('organization_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['organization_id', 'mode', 'key'])
        .execute();
      await db.schema
        .createIndex('idempotency_keys_age')
        .on('idempotency_keys')
        .columns(['created_at'])
        .execute();

      await db.schema
        .createTable('templates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('paper', 'text')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('templates_org')
        .on('templates')
        .columns(['organization_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('activation_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('device_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('usage_counters')
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('live_jobs', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('usage_counters_pk', ['organization_id', 'period'])
        .execute();
    },
  };
}

class InCodeMigrations implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      '0001_initial': initial(this.dialect),
      '0002_dashboard': dashboardMigration(),
      '0003_gateway': gatewayMigration(),
      '0004_webhooks': webhooksMigration(),
      '0005_webhook_outbox': webhookOutboxMigration(),
      '0006_mail_outbox': mailOutboxMigration(),
      '0007_account_mail': accountMailMigration(this.dialect),
      '0008_local_mode': localModeMigration(),
      '0009_printer_settings': printerSettingsMigration(),
      '0010_local_downloads': localDownloadsMigration(),
      '0011_printer_groups': printerGroupsMigration(),
      '0012_cloud_printers': cloudPrintersMigration(),
      '0013_printer_reach': printerReachMigration(),
      '0014_job_deliveries': jobDeliveriesMigration(),
      '0015_job_list_group': jobListGroupMigration(),
    };
  }
}

/**
 * Brings the schema up to date; safe to run on every start and from `printwire-cloud migrate`.
 * With `target` (a migration's name, such as `0006_mail_outbox`), up to that one only: tests of a
 * later migration start from a database an earlier release left.
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  dialect: Dialect,
  schema?: string,
  target?: string,
): Promise<{ applied: string[] }> {
  const migrator = new Migrator({
    db,
    provider: new InCodeMigrations(dialect),
    // Kysely looks for its own tables in every schema unless told which one is ours.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await (target
    ? migrator.migrateTo(target)
    : migrator.migrateToLatest());
  if (error) throw error;
  return {
    applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName),
  };
}
