/**
 * The agent gateway's lookups: a device by its token hash (every WebSocket handshake), a printer
 * by (device, agentPrinterId) (every hello and status update, unique so that an agent's printer
 * keeps one cloud id), and a device's jobs by state (what is re-sent after a reconnect).
 */
import type { Kysely, Migration } from 'kysely';

export function gatewayMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('devices_token').on('devices').column('token_hash').execute();
      await db.schema
        .createIndex('printers_device_agent')
        .on('printers')
        .columns(['device_id', 'agent_printer_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('jobs_device_state')
        .on('jobs')
        .columns(['device_id', 'state', 'created_at'])
        .execute();
    },
  };
}
