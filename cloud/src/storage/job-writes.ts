/**
 * Writing new jobs: the job, its first events, content, metadata and idempotency key in one
 * durable write, counted against the monthly quota (prepared statements: a job is created often).
 */
import type { Kysely, Transaction } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import { newId } from '../lib/ids.js';
import { transition } from './job-states.js';
import type { JobReads } from './job-reads.js';
import type { CreateJobResult, NewJob } from './job-types.js';
import { usagePeriod, type WriteFn } from './organizations.js';
import { slot, type PreparedCache } from './prepared.js';
import type { Database } from './schema.js';
import type { Job, JobEvent } from './types.js';
import type { WebhookOutbox } from './webhook-outbox.js';
import { takeTurn } from './printer-groups.js';

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
}

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
  printerGroupId: null,
  movedFrom: [],
  deliveries: 0,
};

/** A job as the columns of its row (what inserts and the local jobs' updates write). */
export function jobColumns(job: Job) {
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
    printerGroupId: job.printerGroupId,
    movedFrom: JSON.stringify(job.movedFrom),
    deliveries: job.deliveries,
  };
}

/**
 * Counts one live job in the organization's usage of this month, inside the job's own write;
 * throws LICENSE_LIMIT when `monthlyQuota` (null: unlimited) is used up.
 */
export async function countLiveJob(
  prepared: PreparedCache,
  db: Kysely<Database>,
  trx: Transaction<Database>,
  organizationId: string,
  monthlyQuota: number | null,
  now: number,
): Promise<void> {
  const period = usagePeriod(now);
  const values = { org: organizationId, period, quota: monthlyQuota };
  await prepared
    .get('usage.ensure', () =>
      db
        .insertInto('usageCounters')
        .values({ organizationId: slot('org'), period: slot('period'), liveJobs: 0 })
        .onConflict((oc) => oc.columns(['organizationId', 'period']).doNothing()),
    )
    .run(trx, values);
  const limited = monthlyQuota !== null;
  const result = await prepared
    .get(`usage.count.${limited}`, () => {
      const q = db
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

export class JobWrites {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    private readonly prepared: PreparedCache,
    private readonly reads: JobReads,
    private readonly idempotencyWindowMs: number,
    /** Webhook events are written with the change they announce (see webhook-outbox.ts). */
    private readonly outbox?: WebhookOutbox,
  ) {}

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
        const job = await this.reads.getIn(trx, org, input.mode, existing.jobId);
        if (job) return { job, created: false };
      }
      if (existing) await this.idempotencyDelete.run(trx, scope);
      await this.idempotencyInsert.run(trx, { ...scope, jobId: id, now });
    }

    if (input.mode === 'live') {
      await countLiveJob(
        this.prepared,
        this.read,
        trx,
        input.organizationId,
        input.monthlyQuota,
        now,
      );
    }

    const turn = input.groupTurn ? await takeTurn(trx, org, input.groupTurn) : undefined;
    let job: Job = {
      id,
      organizationId: org,
      mode: input.mode,
      idempotencyKey: input.idempotencyKey,
      deviceId: turn === undefined ? input.deviceId : (turn?.deviceId ?? null),
      printerId: turn === undefined ? input.printerId : (turn?.printerId ?? null),
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
      printerGroupId: input.printerGroupId ?? null,
      movedFrom: [],
      deliveries: 0,
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
      ...jobColumns(job),
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
      const columns = Object.keys(jobColumns(SAMPLE_JOB)).concat('contentExpiresAt');
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
}
