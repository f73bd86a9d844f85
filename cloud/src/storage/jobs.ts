/**
 * Jobs, their content, events, metadata and idempotency keys. Every read and write takes the
 * organization id and the mode: a test key never sees a live job and the other way round.
 * The sweeper's two methods (expire, purge) are the only ones that span organizations.
 */
import type { Kysely, Transaction } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import { newId } from '../lib/ids.js';
import { decodeCursor, toPage } from './cursor.js';
import { transition, type TransitionInfo, type TransitionResult } from './job-states.js';
import { usagePeriod, type WriteFn } from './organizations.js';
import type { Database } from './schema.js';
import { toJob, toJobEvent } from './rows.js';
import type { Job, JobEvent, JobState, Mode, Page, PageQuery } from './types.js';

export interface NewJob {
  organizationId: string;
  mode: Mode;
  idempotencyKey: string | null;
  deviceId: string | null;
  printerId: string | null;
  source: 'cloud' | 'local';
  type: string;
  encoding: string;
  templateId: string | null;
  maxAttempts: number;
  metadata: Record<string, string>;
  options: Record<string, unknown>;
  /** The content as stored (what a reprint sends again). */
  content: Buffer;
  /** Printer bytes the sandbox printed, kept to draw the preview from. */
  output: Buffer | null;
  expiresAt: number | null;
  /** The organization's retention, applied if the job finishes in this same write. */
  retentionDays: number;
  /** Monthly live-job quota; null means unlimited. Ignored for test jobs (they do not count). */
  monthlyQuota: number | null;
  /** Transitions applied right after `queued`, in the same transaction (the sandbox's print). */
  then?: Array<{ state: JobState } & TransitionInfo>;
}

export interface CreateJobResult {
  job: Job;
  /** False when the idempotency key named an existing job, which `job` is. */
  created: boolean;
}

export interface JobFilter {
  from?: number | undefined;
  to?: number | undefined;
  printerId?: string | undefined;
  deviceId?: string | undefined;
  state?: JobState | undefined;
  metadata?: Record<string, string> | undefined;
}

export interface JobsRepositoryOptions {
  /** How long an idempotency key names its job. Default 24 hours (spec "Limits"). */
  idempotencyWindowMs?: number;
}

export interface JobContent {
  content: Buffer;
  output: Buffer | null;
  preview: Buffer | null;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
}

export class JobsRepository {
  private readonly idempotencyWindowMs: number;

  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    options: JobsRepositoryOptions = {},
  ) {
    this.idempotencyWindowMs = options.idempotencyWindowMs ?? 24 * 3_600_000;
  }

  /**
   * Stores a new job (and its first events) durably, or returns the job an unexpired idempotency
   * key already names. Throws LICENSE_LIMIT when a live job would exceed the monthly quota.
   */
  async create(input: NewJob, now: number): Promise<CreateJobResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.write((trx) => this.createIn(trx, input, now));
      } catch (error) {
        // Two requests with one key raced past the lookup; the loser finds the winner's job.
        if (attempt < 3 && input.idempotencyKey !== null && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }

  private async createIn(
    trx: Transaction<Database>,
    input: NewJob,
    now: number,
  ): Promise<CreateJobResult> {
    const id = newId('job', now);
    if (input.idempotencyKey !== null) {
      const existing = await trx
        .selectFrom('idempotencyKeys')
        .select(['jobId', 'createdAt'])
        .where('organizationId', '=', input.organizationId)
        .where('mode', '=', input.mode)
        .where('key', '=', input.idempotencyKey)
        .executeTakeFirst();
      if (existing && Number(existing.createdAt) > now - this.idempotencyWindowMs) {
        const job = await this.getIn(trx, input.organizationId, input.mode, existing.jobId);
        if (job) return { job, created: false };
      }
      if (existing) {
        await trx
          .deleteFrom('idempotencyKeys')
          .where('organizationId', '=', input.organizationId)
          .where('mode', '=', input.mode)
          .where('key', '=', input.idempotencyKey)
          .execute();
      }
      await trx
        .insertInto('idempotencyKeys')
        .values({
          organizationId: input.organizationId,
          mode: input.mode,
          key: input.idempotencyKey,
          jobId: id,
          createdAt: now,
        })
        .execute();
    }

    if (input.mode === 'live') await this.countLiveJob(trx, input, now);

    let job: Job = {
      id,
      organizationId: input.organizationId,
      mode: input.mode,
      idempotencyKey: input.idempotencyKey,
      deviceId: input.deviceId,
      printerId: input.printerId,
      source: input.source,
      type: input.type,
      encoding: input.encoding,
      templateId: input.templateId,
      state: 'queued',
      attempt: 0,
      maxAttempts: input.maxAttempts,
      errorCode: null,
      errorMessage: null,
      metadata: input.metadata,
      options: input.options,
      contentRetained: true,
      hasPreview: input.output !== null,
      createdAt: now,
      updatedAt: now,
      dispatchedAt: null,
      printedAt: null,
      expiresAt: input.expiresAt,
      finishedAt: null,
    };
    const events: JobEvent[] = [{ state: 'queued', errorCode: null, errorMessage: null, at: now }];
    let contentExpiresAt: number | undefined;
    let dropContent = false;
    for (const step of input.then ?? []) {
      const result = transition(job, step.state, step, now, input.retentionDays);
      job = result.job;
      events.push(result.event);
      contentExpiresAt = result.contentExpiresAt;
      dropContent = result.dropContent;
    }

    await trx
      .insertInto('jobs')
      .values({
        ...this.jobColumns(job),
        contentExpiresAt: contentExpiresAt ?? null,
      })
      .execute();
    await trx
      .insertInto('jobEvents')
      .values(events.map((e) => ({ jobId: id, organizationId: job.organizationId, ...e })))
      .execute();
    if (!dropContent) {
      await trx
        .insertInto('jobContents')
        .values({
          jobId: id,
          organizationId: job.organizationId,
          content: input.content,
          output: input.output,
          preview: null,
        })
        .execute();
    }
    const pairs = Object.entries(input.metadata);
    if (pairs.length > 0) {
      await trx
        .insertInto('jobMetadata')
        .values(
          pairs.map(([key, value]) => ({
            jobId: id,
            organizationId: job.organizationId,
            key,
            value,
          })),
        )
        .execute();
    }
    return { job: { ...job, events }, created: true };
  }

  private jobColumns(job: Job) {
    return {
      id: job.id,
      organizationId: job.organizationId,
      mode: job.mode,
      idempotencyKey: job.idempotencyKey,
      deviceId: job.deviceId,
      printerId: job.printerId,
      source: job.source,
      type: job.type,
      encoding: job.encoding,
      templateId: job.templateId,
      state: job.state,
      attempt: job.attempt,
      maxAttempts: job.maxAttempts,
      errorCode: job.errorCode,
      errorMessage: job.errorMessage,
      metadata: JSON.stringify(job.metadata),
      options: JSON.stringify(job.options),
      contentRetained: job.contentRetained ? 1 : 0,
      hasPreview: job.hasPreview ? 1 : 0,
      createdAt: job.createdAt,
      updatedAt: job.updatedAt,
      dispatchedAt: job.dispatchedAt,
      printedAt: job.printedAt,
      expiresAt: job.expiresAt,
      finishedAt: job.finishedAt,
    };
  }

  private async countLiveJob(
    trx: Transaction<Database>,
    input: NewJob,
    now: number,
  ): Promise<void> {
    const period = usagePeriod(now);
    await trx
      .insertInto('usageCounters')
      .values({ organizationId: input.organizationId, period, liveJobs: 0 })
      .onConflict((oc) => oc.columns(['organizationId', 'period']).doNothing())
      .execute();
    let update = trx
      .updateTable('usageCounters')
      .set((eb) => ({ liveJobs: eb('liveJobs', '+', 1) }))
      .where('organizationId', '=', input.organizationId)
      .where('period', '=', period);
    if (input.monthlyQuota !== null) update = update.where('liveJobs', '<', input.monthlyQuota);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      throw new PrintwireError(
        'LICENSE_LIMIT',
        `the plan's ${input.monthlyQuota} live jobs of this month are used up`,
        { details: { quota: input.monthlyQuota, period } },
      );
    }
  }

  private async getIn(
    db: Kysely<Database>,
    organizationId: string,
    mode: Mode,
    id: string,
  ): Promise<Job | undefined> {
    const row = await db
      .selectFrom('jobs')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('mode', '=', mode)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const events = await db
      .selectFrom('jobEvents')
      .selectAll()
      .where('jobId', '=', id)
      .where('organizationId', '=', organizationId)
      .orderBy('id')
      .execute();
    return { ...toJob(row), events: events.map(toJobEvent) };
  }

  /** The job with its events, or undefined when the organization has no such job in this mode. */
  get(organizationId: string, mode: Mode, id: string): Promise<Job | undefined> {
    return this.getIn(this.read, organizationId, mode, id);
  }

  /** Jobs newest first, without events. */
  async list(
    organizationId: string,
    mode: Mode,
    filter: JobFilter,
    page: PageQuery,
  ): Promise<Page<Job>> {
    let q = this.read
      .selectFrom('jobs')
      .selectAll('jobs')
      .where('jobs.organizationId', '=', organizationId)
      .where('jobs.mode', '=', mode);
    if (filter.from !== undefined) q = q.where('jobs.createdAt', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('jobs.createdAt', '<', filter.to);
    if (filter.printerId !== undefined) q = q.where('jobs.printerId', '=', filter.printerId);
    if (filter.deviceId !== undefined) q = q.where('jobs.deviceId', '=', filter.deviceId);
    if (filter.state !== undefined) q = q.where('jobs.state', '=', filter.state);
    for (const [key, value] of Object.entries(filter.metadata ?? {})) {
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('jobMetadata')
            .select('jobMetadata.jobId')
            .whereRef('jobMetadata.jobId', '=', 'jobs.id')
            .where('jobMetadata.organizationId', '=', organizationId)
            .where('jobMetadata.key', '=', key)
            .where('jobMetadata.value', '=', value),
        ),
      );
    }
    if (page.cursor) {
      const c = decodeCursor(page.cursor);
      q = q.where((eb) =>
        eb.or([
          eb('jobs.createdAt', '<', c.createdAt),
          eb.and([eb('jobs.createdAt', '=', c.createdAt), eb('jobs.id', '<', c.id)]),
        ]),
      );
    }
    const rows = await q
      .orderBy('jobs.createdAt', 'desc')
      .orderBy('jobs.id', 'desc')
      .limit(page.limit + 1)
      .execute();
    return toPage(
      rows.map((r) => ({ ...r, createdAt: Number(r.createdAt) })),
      page.limit,
      toJob,
    );
  }

  async getContent(
    organizationId: string,
    mode: Mode,
    id: string,
  ): Promise<JobContent | undefined> {
    const row = await this.read
      .selectFrom('jobContents')
      .innerJoin('jobs', 'jobs.id', 'jobContents.jobId')
      .select(['jobContents.content', 'jobContents.output', 'jobContents.preview'])
      .where('jobs.organizationId', '=', organizationId)
      .where('jobs.mode', '=', mode)
      .where('jobs.id', '=', id)
      .executeTakeFirst();
    return row ?? undefined;
  }

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
  ): Promise<TransitionResult> {
    return this.write(async (trx) => {
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
      await this.applyIn(trx, job.state, result);
      return result;
    });
  }

  private async applyIn(
    trx: Transaction<Database>,
    from: JobState,
    result: TransitionResult,
  ): Promise<void> {
    const { job, event } = result;
    const updated = await trx
      .updateTable('jobs')
      .set({
        state: job.state,
        attempt: job.attempt,
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
      .where('state', '=', from)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      throw new PrintwireError('CONFLICT', `job ${job.id} changed state meanwhile`, {
        retryable: true,
      });
    }
    await trx
      .insertInto('jobEvents')
      .values({ jobId: job.id, organizationId: job.organizationId, ...event })
      .execute();
    if (result.dropContent) {
      await trx.deleteFrom('jobContents').where('jobId', '=', job.id).execute();
    }
  }

  /** Queued jobs of a device, oldest first: what the gateway sends when the agent connects. */
  async listQueuedForDevice(organizationId: string, deviceId: string, limit = 100): Promise<Job[]> {
    const rows = await this.read
      .selectFrom('jobs')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('deviceId', '=', deviceId)
      .where('mode', '=', 'live')
      .where('state', '=', 'queued')
      .orderBy('createdAt')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toJob);
  }

  /** Fails every queued job whose expiresAt has passed (errorCode EXPIRED); returns them. */
  async expireDue(now: number, batch = 500): Promise<TransitionResult[]> {
    const due = await this.read
      .selectFrom('jobs')
      .select(['id', 'organizationId'])
      .where('state', '=', 'queued')
      .where('expiresAt', '<=', now)
      .limit(batch)
      .execute();
    const results: TransitionResult[] = [];
    for (const row of due) {
      try {
        results.push(
          await this.transition(
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
