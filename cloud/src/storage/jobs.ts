/**
 * Jobs, their content, events, metadata and idempotency keys. Every read and write takes the
 * organization id and the mode: a test key never sees a live job and the other way round.
 * The sweeper's methods (next expiry, expire, purge) are the only ones that span organizations.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import { newId } from '../lib/ids.js';
import { decodeCursor, toPage } from './cursor.js';
import {
  isFinished,
  transition,
  type TransitionInfo,
  type TransitionResult,
} from './job-states.js';
import type { WriteOptions } from './group-commit.js';
import { usagePeriod, type WriteFn } from './organizations.js';
import { PreparedCache, slot } from './prepared.js';
import type { Database, JobEventsTable, JobsTable } from './schema.js';
import { toJob, toJobEvent, toListedJob, type ListedJobRow } from './rows.js';
import type { Job, JobEvent, JobState, Mode, Page, PageQuery } from './types.js';
import type { WebhookOutbox } from './webhook-outbox.js';

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
  /** True for sandbox jobs whose print the virtual printer can draw (hasPreview). */
  previewable: boolean;
  expiresAt: number | null;
  /** The organization's retention, applied if the job finishes in this same write. */
  retentionDays: number;
  /** Monthly live-job quota; null means unlimited. Ignored for test jobs (they do not count). */
  monthlyQuota: number | null;
  /** Transitions applied right after `queued`, in the same transaction (the sandbox's print). */
  then?: Array<{ state: JobState } & TransitionInfo>;
}

/** A local job as the agent reported it (`job.local`), times in epoch milliseconds. */
export interface LocalJobReport {
  id: string;
  idempotencyKey: string | null;
  agentPrinterId: string;
  type: string;
  templateId: string | null;
  metadata: Record<string, string>;
  state: JobState;
  attempt: number;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: number;
  updatedAt: number;
  printedAt: number | null;
  events: Array<{ state: JobState; errorCode: string | null; at: number }>;
}

export interface LocalJobResult {
  /** The job as stored after the report. */
  job: Job;
  /** The events this report added (what is announced). */
  events: JobEvent[];
  outcome: 'created' | 'updated' | 'unchanged';
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
  preview: Buffer | null;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
}

/**
 * What lists read: the columns the Job resource shows. Reading fewer columns is measurably
 * faster for a page of jobs, and lists never need a job's options.
 */
const LIST_COLUMNS = [
  'jobs.id',
  'jobs.mode',
  'jobs.idempotencyKey',
  'jobs.deviceId',
  'jobs.printerId',
  'jobs.source',
  'jobs.type',
  'jobs.templateId',
  'jobs.state',
  'jobs.attempt',
  'jobs.errorCode',
  'jobs.errorMessage',
  'jobs.metadata',
  'jobs.contentRetained',
  'jobs.hasPreview',
  'jobs.createdAt',
  'jobs.updatedAt',
  'jobs.dispatchedAt',
  'jobs.printedAt',
  'jobs.expiresAt',
] as const;

type ListRow = ListedJobRow;

/** A job with every column set, to list the columns of the prepared insert. */
const SAMPLE_JOB: Job = {
  id: '',
  organizationId: '',
  mode: 'live',
  idempotencyKey: null,
  deviceId: null,
  printerId: null,
  source: 'cloud',
  type: '',
  encoding: '',
  templateId: null,
  state: 'queued',
  attempt: 0,
  maxAttempts: 0,
  errorCode: null,
  errorMessage: null,
  metadata: {},
  options: {},
  contentRetained: true,
  hasPreview: false,
  createdAt: 0,
  updatedAt: 0,
  dispatchedAt: null,
  printedAt: null,
  expiresAt: null,
  finishedAt: null,
};

export class JobsRepository {
  private readonly idempotencyWindowMs: number;
  private readonly prepared = new PreparedCache();

  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    options: JobsRepositoryOptions = {},
    /** Webhook events are written with the change they announce (see webhook-outbox.ts). */
    private readonly outbox?: WebhookOutbox,
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
    const org = input.organizationId;
    if (input.idempotencyKey !== null) {
      const scope = { org, mode: input.mode, key: input.idempotencyKey };
      const [existing] = await this.idempotencySelect.execute<{ jobId: string; createdAt: number }>(
        trx,
        scope,
      );
      if (existing && Number(existing.createdAt) > now - this.idempotencyWindowMs) {
        const job = await this.getIn(trx, org, input.mode, existing.jobId);
        if (job) return { job, created: false };
      }
      if (existing) await this.idempotencyDelete.run(trx, scope);
      await this.idempotencyInsert.run(trx, { ...scope, jobId: id, now });
    }

    if (input.mode === 'live') {
      await this.countLiveJob(trx, input.organizationId, input.monthlyQuota, now);
    }

    let job: Job = {
      id,
      organizationId: org,
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
      hasPreview: input.previewable,
      createdAt: now,
      updatedAt: now,
      dispatchedAt: null,
      printedAt: null,
      expiresAt: input.expiresAt,
      finishedAt: null,
    };
    const events: JobEvent[] = [{ state: 'queued', errorCode: null, errorMessage: null, at: now }];
    /** The job right after each event (what that event's webhook shows). */
    const snapshots: Job[] = [job];
    let contentExpiresAt: number | undefined;
    let dropContent = false;
    for (const step of input.then ?? []) {
      const result = transition(job, step.state, step, now, input.retentionDays);
      job = result.job;
      events.push(result.event);
      snapshots.push(job);
      contentExpiresAt = result.contentExpiresAt;
      dropContent = result.dropContent;
    }

    await this.jobInsert.run(trx, {
      ...this.jobColumns(job),
      contentExpiresAt: contentExpiresAt ?? null,
    });
    const eventValues: Record<string, unknown> = { jobId: id, org };
    events.forEach((e, i) => {
      eventValues[`state${i}`] = e.state;
      eventValues[`code${i}`] = e.errorCode;
      eventValues[`message${i}`] = e.errorMessage;
      eventValues[`at${i}`] = e.at;
    });
    await this.eventsInsert(events.length).run(trx, eventValues);
    await this.outbox?.recordJob(trx, job, events, snapshots);
    if (!dropContent) {
      await this.contentInsert.run(trx, { jobId: id, org, content: input.content });
    }
    const pairs = Object.entries(input.metadata);
    if (pairs.length > 0) {
      const values: Record<string, unknown> = { jobId: id, org };
      pairs.forEach(([key, value], i) => {
        values[`key${i}`] = key;
        values[`value${i}`] = value;
      });
      await this.metadataInsert(pairs.length).run(trx, values);
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

  // Prepared statements of job creation (see prepared.ts).
  private get idempotencySelect() {
    return this.prepared.get('idem.select', () =>
      this.read
        .selectFrom('idempotencyKeys')
        .select(['jobId', 'createdAt'])
        .where('organizationId', '=', slot('org'))
        .where('mode', '=', slot('mode'))
        .where('key', '=', slot('key')),
    );
  }

  private get idempotencyDelete() {
    return this.prepared.get('idem.delete', () =>
      this.read
        .deleteFrom('idempotencyKeys')
        .where('organizationId', '=', slot('org'))
        .where('mode', '=', slot('mode'))
        .where('key', '=', slot('key')),
    );
  }

  private get idempotencyInsert() {
    return this.prepared.get('idem.insert', () =>
      this.read.insertInto('idempotencyKeys').values({
        organizationId: slot('org'),
        mode: slot('mode'),
        key: slot('key'),
        jobId: slot('jobId'),
        createdAt: slot('now'),
      }),
    );
  }

  private get jobInsert() {
    return this.prepared.get('job.insert', () => {
      const columns = Object.keys(this.jobColumns(SAMPLE_JOB)).concat('contentExpiresAt');
      const values = Object.fromEntries(columns.map((c) => [c, slot(c)]));
      return this.read.insertInto('jobs').values(values as never);
    });
  }

  private eventsInsert(count: number) {
    return this.prepared.get(`events.insert.${count}`, () =>
      this.read.insertInto('jobEvents').values(
        Array.from({ length: count }, (_, i) => ({
          jobId: slot<string>('jobId'),
          organizationId: slot<string>('org'),
          state: slot<string>(`state${i}`),
          errorCode: slot<string | null>(`code${i}`),
          errorMessage: slot<string | null>(`message${i}`),
          at: slot<number>(`at${i}`),
        })),
      ),
    );
  }

  private get contentInsert() {
    return this.prepared.get('content.insert', () =>
      this.read.insertInto('jobContents').values({
        jobId: slot('jobId'),
        organizationId: slot('org'),
        content: slot('content'),
        preview: null,
      }),
    );
  }

  private metadataInsert(count: number) {
    return this.prepared.get(`metadata.insert.${count}`, () =>
      this.read.insertInto('jobMetadata').values(
        Array.from({ length: count }, (_, i) => ({
          jobId: slot<string>('jobId'),
          organizationId: slot<string>('org'),
          key: slot<string>(`key${i}`),
          value: slot<string>(`value${i}`),
        })),
      ),
    );
  }

  private async countLiveJob(
    trx: Transaction<Database>,
    organizationId: string,
    monthlyQuota: number | null,
    now: number,
  ): Promise<void> {
    const period = usagePeriod(now);
    const values = { org: organizationId, period, quota: monthlyQuota };
    await this.prepared
      .get('usage.ensure', () =>
        this.read
          .insertInto('usageCounters')
          .values({ organizationId: slot('org'), period: slot('period'), liveJobs: 0 })
          .onConflict((oc) => oc.columns(['organizationId', 'period']).doNothing()),
      )
      .run(trx, values);
    const limited = monthlyQuota !== null;
    const result = await this.prepared
      .get(`usage.count.${limited}`, () => {
        const q = this.read
          .updateTable('usageCounters')
          .set((eb) => ({ liveJobs: eb('liveJobs', '+', 1) }))
          .where('organizationId', '=', slot('org'))
          .where('period', '=', slot('period'));
        return limited ? q.where('liveJobs', '<', slot<number>('quota')) : q;
      })
      .run(trx, values);
    if (Number(result.numAffectedRows ?? 0) === 0) {
      throw new PrintwireError(
        'LICENSE_LIMIT',
        `the plan's ${monthlyQuota} live jobs of this month are used up`,
        { details: { quota: monthlyQuota, period } },
      );
    }
  }

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
      };
      if (stored) {
        if (stored.finishedAt !== null || report.updatedAt <= stored.updatedAt) {
          return { job: stored, events: [], outcome: 'unchanged' as const };
        }
      } else {
        await this.countLiveJob(trx, organizationId, null, now);
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
      const columns = { ...this.jobColumns(job), contentExpiresAt: null };
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

  private async getIn(
    db: Kysely<Database>,
    organizationId: string,
    mode: Mode,
    id: string,
  ): Promise<Job | undefined> {
    const values = { org: organizationId, mode, id };
    const [row] = await this.prepared
      .get('job.get', () =>
        this.read
          .selectFrom('jobs')
          .selectAll()
          .where('organizationId', '=', slot('org'))
          .where('mode', '=', slot('mode'))
          .where('id', '=', slot('id')),
      )
      .execute<Selectable<JobsTable>>(db, values);
    if (!row) return undefined;
    const events = await this.prepared
      .get('job.events', () =>
        this.read
          .selectFrom('jobEvents')
          .selectAll()
          .where('jobId', '=', slot('id'))
          .where('organizationId', '=', slot('org'))
          .orderBy('id'),
      )
      .execute<Selectable<JobEventsTable>>(db, values);
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
    const metadata = Object.entries(filter.metadata ?? {});
    const cursor = page.cursor ? decodeCursor(page.cursor) : undefined;
    const has = {
      from: filter.from !== undefined,
      to: filter.to !== undefined,
      printerId: filter.printerId !== undefined,
      deviceId: filter.deviceId !== undefined,
      state: filter.state !== undefined,
      cursor: cursor !== undefined,
    };
    const shape = `jobs.list.${Object.values(has).map(Number).join('')}.${metadata.length}`;
    const query = this.prepared.get(shape, () => {
      let q = this.read
        .selectFrom('jobs')
        .select(LIST_COLUMNS)
        .where('jobs.organizationId', '=', slot('org'))
        .where('jobs.mode', '=', slot('mode'));
      if (has.from) q = q.where('jobs.createdAt', '>=', slot<number>('from'));
      if (has.to) q = q.where('jobs.createdAt', '<', slot<number>('to'));
      if (has.printerId) q = q.where('jobs.printerId', '=', slot('printerId'));
      if (has.deviceId) q = q.where('jobs.deviceId', '=', slot('deviceId'));
      if (has.state) q = q.where('jobs.state', '=', slot('state'));
      metadata.forEach((_, i) => {
        q = q.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('jobMetadata')
              .select('jobMetadata.jobId')
              .whereRef('jobMetadata.jobId', '=', 'jobs.id')
              .where('jobMetadata.organizationId', '=', slot('org'))
              .where('jobMetadata.key', '=', slot(`key${i}`))
              .where('jobMetadata.value', '=', slot(`value${i}`)),
          ),
        );
      });
      if (has.cursor) {
        q = q.where((eb) =>
          eb.or([
            eb('jobs.createdAt', '<', slot<number>('cursorAt')),
            eb.and([
              eb('jobs.createdAt', '=', slot<number>('cursorAt')),
              eb('jobs.id', '<', slot<string>('cursorId')),
            ]),
          ]),
        );
      }
      return q
        .orderBy('jobs.createdAt', 'desc')
        .orderBy('jobs.id', 'desc')
        .limit(slot<number>('limit'));
    });
    const values: Record<string, unknown> = {
      org: organizationId,
      mode,
      from: filter.from,
      to: filter.to,
      printerId: filter.printerId,
      deviceId: filter.deviceId,
      state: filter.state,
      cursorAt: cursor?.createdAt,
      cursorId: cursor?.id,
      limit: page.limit + 1,
    };
    metadata.forEach(([key, value], i) => {
      values[`key${i}`] = key;
      values[`value${i}`] = value;
    });
    const rows = await query.execute<ListRow>(this.read, values);
    // No object spreads here: on a page of rows they cost more than the query.
    return toPage(rows, page.limit, (row) => toListedJob(row, organizationId));
  }

  /**
   * How many of the organization's jobs of `mode` created at or after `since` are in each state
   * (the dashboard's Overview): one range of the jobs_list index.
   */
  async countByState(
    organizationId: string,
    mode: Mode,
    since: number,
  ): Promise<Partial<Record<JobState, number>>> {
    const rows = await this.read
      .selectFrom('jobs')
      .select(['state', (eb) => eb.fn.countAll<number>().as('count')])
      .where('organizationId', '=', organizationId)
      .where('mode', '=', mode)
      .where('createdAt', '>=', since)
      .groupBy('state')
      .execute();
    const counts: Partial<Record<JobState, number>> = {};
    for (const r of rows) counts[r.state as JobState] = Number(r.count);
    return counts;
  }

  async getContent(
    organizationId: string,
    mode: Mode,
    id: string,
  ): Promise<JobContent | undefined> {
    const [row] = await this.prepared
      .get('job.content', () =>
        this.read
          .selectFrom('jobContents')
          .innerJoin('jobs', 'jobs.id', 'jobContents.jobId')
          .select(['jobContents.content', 'jobContents.preview'])
          .where('jobs.organizationId', '=', slot('org'))
          .where('jobs.mode', '=', slot('mode'))
          .where('jobs.id', '=', slot('id')),
      )
      .execute<JobContent>(this.read, { org: organizationId, mode, id });
    return row;
  }

  /**
   * The job (without its events) and its content, in one read: what sending a job to its agent
   * needs. `content` is undefined once the content is deleted.
   */
  async getForDispatch(
    organizationId: string,
    mode: Mode,
    id: string,
  ): Promise<{ job: Job; content: Buffer | undefined } | undefined> {
    const [row] = await this.prepared
      .get('job.dispatch', () =>
        this.read
          .selectFrom('jobs')
          .leftJoin('jobContents', 'jobContents.jobId', 'jobs.id')
          .selectAll('jobs')
          .select('jobContents.content as storedContent')
          .where('jobs.organizationId', '=', slot('org'))
          .where('jobs.mode', '=', slot('mode'))
          .where('jobs.id', '=', slot('id')),
      )
      .execute<Selectable<JobsTable> & { storedContent: Buffer | null }>(this.read, {
        org: organizationId,
        mode,
        id,
      });
    if (!row) return undefined;
    const { storedContent, ...job } = row;
    return { job: toJob(job), content: storedContent ?? undefined };
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
    options?: WriteOptions,
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
    }, options);
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
    await this.outbox?.recordJob(trx, job, [event]);
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
      .where('state', '=', sql.lit('queued')) // a literal, so the partial index applies
      .where('source', '=', sql.lit('cloud'))
      .orderBy('createdAt')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toJob);
  }

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
