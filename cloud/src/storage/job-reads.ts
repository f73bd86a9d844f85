/**
 * Reading jobs: one with its events, a page of a list, the Overview's counts, the content, and
 * what dispatching needs. Every read takes the organization id and the mode.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { decodeCursor, toPage } from './cursor.js';
import type { JobContent, JobFilter } from './job-types.js';
import { slot, type PreparedCache } from './prepared.js';
import { toJob, toJobEvent, toListedJob, type ListedJobRow } from './rows.js';
import type { Database, JobEventsTable, JobsTable } from './schema.js';
import type { Job, JobState, Mode, Page, PageQuery } from './types.js';

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
  'jobs.printerGroupId',
  'jobs.movedFrom',
] as const;

type ListRow = ListedJobRow;

export class JobReads {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly prepared: PreparedCache,
  ) {}

  /** The job with its events, read through `db` (a transaction of a write, or the reader). */
  async getIn(
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
      printerGroupId: filter.printerGroupId !== undefined,
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
      if (has.printerGroupId) q = q.where('jobs.printerGroupId', '=', slot('printerGroupId'));
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
      printerGroupId: filter.printerGroupId,
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
}
