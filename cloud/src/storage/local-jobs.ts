/**
 * Local jobs: what an agent reports of the jobs web pages printed through it (`job.local`),
 * recorded as the cloud's own jobs (source local) so lists, webhooks and usage see them.
 */
import type { Kysely } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import { isFinished } from './job-states.js';
import type { LocalJobReport, LocalJobResult } from './job-types.js';
import { countLiveJob, jobColumns } from './job-writes.js';
import type { WriteFn } from './organizations.js';
import type { PreparedCache } from './prepared.js';
import { toJob } from './rows.js';
import type { Database } from './schema.js';
import type { Job, JobEvent } from './types.js';
import type { WebhookOutbox } from './webhook-outbox.js';

export class LocalJobs {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    private readonly prepared: PreparedCache,
    /** Webhook events are written with the change they announce (see webhook-outbox.ts). */
    private readonly outbox?: WebhookOutbox,
  ) {}

  /**
   * Records what an agent reported of a job a web page printed through it (`job.local`): the
   * first report inserts the job (source local, live, counted once in the monthly usage of the
   * month it arrives in, never refused: the job already printed), later ones bring it to the
   * reported state and add the events it did not have. A report older than the stored job, or
   * about a job already finished, changes nothing; so does the same report twice. CONFLICT when
   * the id belongs to a job that is not this device's local job.
   */
  async upsertLocal(
    organizationId: string,
    deviceId: string,
    report: LocalJobReport,
    now: number,
  ): Promise<LocalJobResult> {
    return this.write(async (trx) => {
      const row = await trx
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', report.id)
        .executeTakeFirst();
      const stored = row ? toJob(row) : undefined;
      if (
        stored &&
        (stored.organizationId !== organizationId ||
          stored.source !== 'local' ||
          stored.deviceId !== deviceId)
      ) {
        throw new PrintwireError('CONFLICT', `job id ${report.id} is taken by another job`);
      }
      const printer = await trx
        .selectFrom('printers')
        .select('id')
        .where('organizationId', '=', organizationId)
        .where('deviceId', '=', deviceId)
        .where('agentPrinterId', '=', report.agentPrinterId)
        .executeTakeFirst();
      const finished = isFinished(report.state);
      const lastAt = report.events.reduce((at, e) => Math.max(at, e.at), report.updatedAt);
      const job: Job = {
        id: report.id,
        organizationId,
        mode: 'live',
        idempotencyKey: report.idempotencyKey,
        deviceId,
        printerId: printer?.id ?? null,
        source: 'local',
        type: report.type,
        // The content stays on the agent: nothing to send, reprint or keep.
        encoding: '',
        templateId: report.templateId,
        state: report.state,
        attempt: report.attempt,
        maxAttempts: Math.max(1, report.attempt),
        errorCode: report.state === 'failed' ? (report.errorCode ?? 'PRINTER_ERROR') : null,
        errorMessage: report.state === 'failed' ? report.errorMessage : null,
        metadata: report.metadata,
        options: {},
        contentRetained: false,
        hasPreview: false,
        createdAt: report.createdAt,
        updatedAt: report.updatedAt,
        dispatchedAt: report.events.find((e) => e.state === 'sending')?.at ?? null,
        printedAt: report.state === 'printed' ? (report.printedAt ?? lastAt) : null,
        expiresAt: null,
        finishedAt: finished ? lastAt : null,
        printerGroupId: null,
        movedFrom: [],
        deliveries: 0,
      };
      if (stored) {
        if (stored.finishedAt !== null || report.updatedAt <= stored.updatedAt) {
          return { job: stored, events: [], outcome: 'unchanged' as const };
        }
      } else {
        await countLiveJob(this.prepared, this.read, trx, organizationId, null, now);
      }
      const known = stored
        ? Number(
            (
              await trx
                .selectFrom('jobEvents')
                .select((eb) => eb.fn.countAll<number>().as('count'))
                .where('jobId', '=', report.id)
                .where('organizationId', '=', organizationId)
                .executeTakeFirstOrThrow()
            ).count,
          )
        : 0;
      const events: JobEvent[] = report.events.slice(known).map((e) => ({
        state: e.state,
        errorCode: e.errorCode,
        errorMessage: e.state === 'failed' ? job.errorMessage : null,
        at: e.at,
      }));
      const columns = { ...jobColumns(job), contentExpiresAt: null };
      if (stored) {
        const { id: _id, organizationId: _org, ...changes } = columns;
        await trx.updateTable('jobs').set(changes).where('id', '=', job.id).execute();
        await trx.deleteFrom('jobMetadata').where('jobId', '=', job.id).execute();
      } else {
        await trx.insertInto('jobs').values(columns).execute();
      }
      if (events.length > 0) {
        await trx
          .insertInto('jobEvents')
          .values(events.map((e) => ({ jobId: job.id, organizationId, ...e })))
          .execute();
      }
      const pairs = Object.entries(job.metadata);
      if (pairs.length > 0) {
        await trx
          .insertInto('jobMetadata')
          .values(pairs.map(([key, value]) => ({ jobId: job.id, organizationId, key, value })))
          .execute();
      }
      // Each event's webhook shows the job as it was right after that event.
      const snapshots = events.map((e) => ({
        ...job,
        state: e.state,
        errorCode: e.errorCode,
        errorMessage: e.errorMessage,
        updatedAt: e.at,
      }));
      await this.outbox?.recordJob(trx, job, events, snapshots);
      return { job, events, outcome: stored ? ('updated' as const) : ('created' as const) };
    });
  }
}
