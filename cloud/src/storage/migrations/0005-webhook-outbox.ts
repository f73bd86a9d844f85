/**
 * The webhook outbox: a state change that is a webhook event (a job state, a device's presence,
 * a printer's status, an alert) writes a `webhook_outbox` row in its own transaction, so a crash
 * after the commit cannot lose the event. The intake turns rows into deliveries and deletes them
 * in one transaction; the unique (endpoint, event) index makes a second intake of the same event
 * a no-op. One open alert per rule and subject becomes a constraint, so instances checking the
 * same rule at the same moment cannot open it twice.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export function webhookOutboxMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_outbox')
        // The event id (evt_…), sent as the envelope's id and Printwire-Event-Id.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull())
        // live or test; null: the endpoints of both modes.
        .addColumn('mode', 'text')
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_outbox_age')
        .on('webhook_outbox')
        .columns(['created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_event')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'event_id'])
        .unique()
        .execute();

      // Before the constraint: keep the oldest of any duplicate open alerts.
      await sql`
        update alerts set state = 'resolved', resolved_at = opened_at
        where state = 'open' and exists (
          select 1 from alerts older
          where older.rule_id = alerts.rule_id and older.subject_id = alerts.subject_id
            and older.state = 'open' and older.id < alerts.id
        )`.execute(db);
      await db.schema
        .createIndex('alerts_one_open')
        .on('alerts')
        .columns(['rule_id', 'subject_id'])
        .unique()
        .where(sql.ref('state'), '=', sql.lit('open'))
        .execute();
    },
  };
}
