/**
 * How each printer is reached (`reach`, JSON: the protocol's PrinterReach, `{ via: 'tcp', host,
 * port }`, USB ids and serial number, serial port, spooler queue), as its agent reports it, so
 * that the dashboard can tell two printers of one model apart. Null until an agent that knows it
 * reports the printer (older agents never do), and for printers no agent reaches.
 */
import type { Kysely, Migration } from 'kysely';

export function printerReachMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('printers').addColumn('reach', 'text').execute();
    },
  };
}
