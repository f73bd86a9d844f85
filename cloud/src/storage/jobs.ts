/**
 * Jobs, their content, events, metadata and idempotency keys (`store.jobs`). Every read and write
 * takes the organization id and the mode: a test key never sees a live job and the other way
 * round. The sweeper's methods (next expiry, expire, purge) are the only ones that span
 * organizations.
 *
 * One repository to its callers, written by subject: new jobs (job-writes.ts), reads
 * (job-reads.ts), state changes (job-transitions.ts), the agents' local jobs (local-jobs.ts) and
 * the sweeper's passes (job-sweeps.ts). Each method is documented where it is written.
 */
import type { Kysely } from 'kysely';
import { JobReads } from './job-reads.js';
import { JobSweeps } from './job-sweeps.js';
import { JobTransitions } from './job-transitions.js';
import type { JobsRepositoryOptions } from './job-types.js';
import { JobWrites } from './job-writes.js';
import { LocalJobs } from './local-jobs.js';
import type { WriteFn } from './organizations.js';
import { PreparedCache } from './prepared.js';
import type { Database } from './schema.js';
import type { WebhookOutbox } from './webhook-outbox.js';

export type {
  CreateJobResult,
  GroupPick,
  GroupTurn,
  JobContent,
  JobFilter,
  JobsRepositoryOptions,
  LocalJobReport,
  LocalJobResult,
  NewJob,
} from './job-types.js';

// Methods are fields bound to their part, so a test may stand one in (see http/basics.test.ts).
export class JobsRepository {
  create: JobWrites['create'];
  upsertLocal: LocalJobs['upsertLocal'];
  get: JobReads['get'];
  list: JobReads['list'];
  countByState: JobReads['countByState'];
  getContent: JobReads['getContent'];
  getForDispatch: JobReads['getForDispatch'];
  listQueuedForDevice: JobReads['listQueuedForDevice'];
  savePreview: JobTransitions['savePreview'];
  transition: JobTransitions['transition'];
  nextExpiry: JobSweeps['nextExpiry'];
  expireDue: JobSweeps['expireDue'];
  purgeContent: JobSweeps['purgeContent'];
  purgeIdempotencyKeys: JobSweeps['purgeIdempotencyKeys'];

  constructor(
    read: Kysely<Database>,
    write: WriteFn,
    options: JobsRepositoryOptions = {},
    /** Webhook events are written with the change they announce (see webhook-outbox.ts). */
    outbox?: WebhookOutbox,
  ) {
    const windowMs = options.idempotencyWindowMs ?? 24 * 3_600_000;
    const prepared = new PreparedCache();
    const reads = new JobReads(read, prepared);
    const writes = new JobWrites(read, write, prepared, reads, windowMs, outbox);
    const local = new LocalJobs(read, write, prepared, outbox);
    const transitions = new JobTransitions(write, outbox);
    const sweeps = new JobSweeps(read, write, transitions, windowMs);
    this.create = writes.create.bind(writes);
    this.upsertLocal = local.upsertLocal.bind(local);
    this.get = reads.get.bind(reads);
    this.list = reads.list.bind(reads);
    this.countByState = reads.countByState.bind(reads);
    this.getContent = reads.getContent.bind(reads);
    this.getForDispatch = reads.getForDispatch.bind(reads);
    this.listQueuedForDevice = reads.listQueuedForDevice.bind(reads);
    this.savePreview = transitions.savePreview.bind(transitions);
    this.transition = transitions.transition.bind(transitions);
    this.nextExpiry = sweeps.nextExpiry.bind(sweeps);
    this.expireDue = sweeps.expireDue.bind(sweeps);
    this.purgeContent = sweeps.purgeContent.bind(sweeps);
    this.purgeIdempotencyKeys = sweeps.purgeIdempotencyKeys.bind(sweeps);
  }
}
