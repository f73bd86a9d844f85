/**
 * The sweeper's side of the jobs: the only reads and writes that span organizations (the next
 * expiry, expiring due jobs, purging content past retention and old idempotency keys).
 */
import { sql, type Kysely } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { TransitionResult } from './job-states.js';
import type { JobTransitions } from './job-transitions.js';
import type { WriteFn } from './organizations.js';
import type { Database } from './schema.js';

export class JobSweeps {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    private readonly transitions: JobTransitions,
    private readonly idempotencyWindowMs: number,
  ) {}

  /** The earliest expiresAt of a queued job (any organization), or null when none waits. */
  async nextExpiry(): Promise<number | null> {
    const row = await this.read
      .selectFrom('jobs')
      .select('expiresAt')
      .where('state', '=', sql.lit('queued')) // a literal, so the partial index applies
      .where('expiresAt', 'is not', null)
      .orderBy('expiresAt')
      .limit(1)
      .executeTakeFirst();
    return row?.expiresAt === undefined || row.expiresAt === null ? null : Number(row.expiresAt);
  }

  /** Fails every queued job whose expiresAt has passed (errorCode EXPIRED); returns them. */
  async expireDue(now: number, batch = 500): Promise<TransitionResult[]> {
    const due = await this.read
      .selectFrom('jobs')
      .select(['id', 'organizationId'])
      .where('state', '=', sql.lit('queued')) // a literal, so the partial index applies
      .where('expiresAt', '<=', now)
      .limit(batch)
      .execute();
    const results: TransitionResult[] = [];
    for (const row of due) {
      try {
        results.push(
          await this.transitions.transition(
            row.organizationId,
            null,
            row.id,
            'failed',
            { errorCode: 'EXPIRED', errorMessage: 'the job expired before it could be printed' },
            now,
          ),
        );
      } catch (error) {
        // Dispatched or cancelled meanwhile: nothing to expire.
        if (!(error instanceof PrintwireError)) throw error;
      }
    }
    return results;
  }

  /** Deletes content (and previews) past the organization's retention; returns how many. */
  async purgeContent(now: number, batch = 1000): Promise<number> {
    return this.write(async (trx) => {
      const due = await trx
        .selectFrom('jobs')
        .select('id')
        .where('contentExpiresAt', '<=', now)
        .limit(batch)
        .execute();
      if (due.length === 0) return 0;
      const ids = due.map((r) => r.id);
      await trx.deleteFrom('jobContents').where('jobId', 'in', ids).execute();
      await trx
        .updateTable('jobs')
        .set({ contentRetained: 0, hasPreview: 0, contentExpiresAt: null })
        .where('id', 'in', ids)
        .execute();
      return ids.length;
    });
  }

  /** Forgets idempotency keys older than the window. */
  async purgeIdempotencyKeys(now: number): Promise<number> {
    return this.write(async (trx) => {
      const result = await trx
        .deleteFrom('idempotencyKeys')
        .where('createdAt', '<=', now - this.idempotencyWindowMs)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
