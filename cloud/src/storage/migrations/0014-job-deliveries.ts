/**
 * A job's deliveries (`deliveries`): how many times the cloud dispatched it to an agent (queued,
 * never sent → sending). A printer-group job dispatched again after a move is a new delivery;
 * `job.dispatch` carries the number (`delivery`), so that an agent that gave the job back tells
 * a new dispatch from a stale re-send of the one it gave back without `attempt`, which counts
 * print attempts only and stops at maxAttempts (docs/groups.md "Attempts and deliveries").
 *
 * Until now `attempt` rose with every dispatch: an unfinished job starts from it, so that its
 * next delivery is above any attempt an agent gave back. Finished jobs are never dispatched
 * again and keep 0.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export function jobDeliveriesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('jobs')
        .addColumn('deliveries', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`UPDATE jobs SET deliveries = attempt WHERE state IN ('queued', 'sending')`.execute(
        db,
      );
    },
  };
}
