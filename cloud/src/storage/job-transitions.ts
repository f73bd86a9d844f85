/**
 * A job's state changes: the transition (job-states.ts decides it) written with its event and
 * its webhook event in one write, and the preview a sandbox job's print leaves.
 */
import type { Transaction } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { WriteOptions } from './group-commit.js';
import { transition, type TransitionInfo, type TransitionResult } from './job-states.js';
import type { WriteFn } from './organizations.js';
import { toJob } from './rows.js';
import type { Database } from './schema.js';
import type { JobState, Mode } from './types.js';
import type { WebhookOutbox } from './webhook-outbox.js';

export class JobTransitions {
  constructor(
    private readonly write: WriteFn,
    /** Webhook events are written with the change they announce (see webhook-outbox.ts). */
    private readonly outbox?: WebhookOutbox,
  ) {}

  /** Stores a drawn preview; false when the content (and so the preview) is gone meanwhile. */
  async savePreview(organizationId: string, id: string, png: Buffer): Promise<boolean> {
    return this.write(async (trx) => {
      const result = await trx
        .updateTable('jobContents')
        .set({ preview: png })
        .where('organizationId', '=', organizationId)
        .where('jobId', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  /**
   * Moves a job to `to` and records the event; `mode` null is for system callers (the sweeper,
   * the agent gateway). Throws JOB_NOT_FOUND, JOB_ALREADY_FINISHED or CONFLICT.
   */
  async transition(
    organizationId: string,
    mode: Mode | null,
    id: string,
    to: JobState,
    info: TransitionInfo,
    now: number,
    options?: WriteOptions,
  ): Promise<TransitionResult> {
    return this.write(
      (trx) => this.transitionIn(trx, organizationId, mode, id, to, info, now),
      options,
    );
  }

  /** `transition` inside a transaction of the caller's (a change written with it). */
  async transitionIn(
    trx: Transaction<Database>,
    organizationId: string,
    mode: Mode | null,
    id: string,
    to: JobState,
    info: TransitionInfo,
    now: number,
  ): Promise<TransitionResult> {
    let q = trx
      .selectFrom('jobs')
      .innerJoin('organizations', 'organizations.id', 'jobs.organizationId')
      .selectAll('jobs')
      .select('organizations.retentionDays as orgRetentionDays')
      .where('jobs.organizationId', '=', organizationId)
      .where('jobs.id', '=', id);
    if (mode !== null) q = q.where('jobs.mode', '=', mode);
    const row = await q.executeTakeFirst();
    if (!row) throw new PrintwireError('JOB_NOT_FOUND', `no job ${id}`);
    const job = toJob(row);
    const result = transition(job, to, info, now, Number(row.orgRetentionDays));
    await this.applyIn(trx, job.state, result, info.onlyIfPrinter);
    return result;
  }

  private async applyIn(
    trx: Transaction<Database>,
    from: JobState,
    result: TransitionResult,
    onlyIfPrinter?: string | null,
  ): Promise<void> {
    const { job, event } = result;
    let update = trx
      .updateTable('jobs')
      .set({
        state: job.state,
        attempt: job.attempt,
        deliveries: job.deliveries,
        errorCode: job.errorCode,
        errorMessage: job.errorMessage,
        contentRetained: job.contentRetained ? 1 : 0,
        hasPreview: job.hasPreview ? 1 : 0,
        updatedAt: job.updatedAt,
        dispatchedAt: job.dispatchedAt,
        printedAt: job.printedAt,
        finishedAt: job.finishedAt,
        contentExpiresAt: result.dropContent ? null : (result.contentExpiresAt ?? null),
      })
      .where('id', '=', job.id)
      .where('state', '=', from);
    if (onlyIfPrinter !== undefined) {
      update =
        onlyIfPrinter === null
          ? update.where('printerId', 'is', null)
          : update.where('printerId', '=', onlyIfPrinter);
    }
    const updated = await update.executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      throw new PrintwireError('CONFLICT', `job ${job.id} changed state meanwhile`, {
        retryable: true,
      });
    }
    await trx
      .insertInto('jobEvents')
      .values({ jobId: job.id, organizationId: job.organizationId, ...event })
      .execute();
    await this.outbox?.recordJob(trx, job, [event]);
    if (result.dropContent) {
      await trx.deleteFrom('jobContents').where('jobId', '=', job.id).execute();
    }
  }
}
