import Database from 'better-sqlite3';
import type { DispatchedJob, DispatchedJobOptions } from '@printwire/shared/protocol/index';
import type { Clock } from '../core/clock.js';
import { MIGRATIONS } from './schema.js';
import type { QueuedJob, QueuedJobState } from './types.js';
import { WalSync } from './wal-sync.js';

/** A row of the `jobs` table. */
export interface JobRow {
  id: string;
  agent_printer_id: string;
  type: string;
  encoding: string;
  content: string;
  options: string;
  attempt: number;
  max_attempts: number;
  state: QueuedJobState;
  next_attempt_at: number;
  expires_at: number | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  received_at: number;
  updated_at: number;
  source: 'cloud' | 'local';
  idempotency_key: string | null;
  template_id: string | null;
  metadata: string | null;
  events: string | null;
  printed_at: number | null;
  /** 1 once the printing mark was set: a byte of the job may have reached the printer. */
  started: 0 | 1;
  /** The attempt the cloud dispatched (null in rows of older queues: then `attempt`). */
  dispatched_attempt: number | null;
  /** The dispatch's `delivery` (null: the cloud sent none, or a row of an older queue). */
  dispatched_delivery: number | null;
  /** A local job that named a printer group: its id (the job may move among its members). */
  printer_group_id: string | null;
}

export function toJob(row: JobRow): QueuedJob {
  return {
    id: row.id,
    agentPrinterId: row.agent_printer_id,
    type: row.type as QueuedJob['type'],
    encoding: row.encoding as QueuedJob['encoding'],
    content: JSON.parse(row.content) as QueuedJob['content'],
    options: JSON.parse(row.options) as DispatchedJobOptions,
    attempt: row.attempt,
    maxAttempts: row.max_attempts,
    state: row.state,
    nextAttemptAt: row.next_attempt_at,
    expiresAt: row.expires_at,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    createdAt: row.created_at,
    receivedAt: row.received_at,
  };
}

/** What a local job carries beyond a cloud job's columns. */
export interface LocalColumns {
  idempotencyKey: string | null;
  templateId: string | null;
  metadata: Record<string, string>;
  events: Array<{ state: string; errorCode: string | null; at: string }>;
  printerGroupId?: string | null;
}

/**
 * The queue's SQLite database (WAL, synchronous NORMAL): opened and migrated once, its
 * statements compiled once, its commits made durable by `flush()`. The job queue, the outbox,
 * the local jobs and the nonces each work on it; the only place in the agent that opens SQL.
 */
export class QueueDb {
  readonly #db: Database.Database;
  readonly #wal: WalSync | null;
  readonly #statements = new Map<string, Database.Statement>();
  readonly clock: Clock;

  constructor(path: string, clock: Clock, durability: 'power-loss' | 'process') {
    this.clock = clock;
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    const version = this.#db.pragma('user_version', { simple: true }) as number;
    this.#db.transaction(() => {
      for (let v = version; v < MIGRATIONS.length; v++) this.#db.exec(MIGRATIONS[v]!);
      this.#db.pragma(`user_version = ${MIGRATIONS.length}`);
    })();
    this.#wal = durability === 'process' ? null : new WalSync(`${path}-wal`);
  }

  /** Resolves once every commit made before the call is durable (see `JobQueueOptions`). */
  flush(): Promise<void> {
    return this.#wal ? this.#wal.flush() : Promise.resolve();
  }

  close(): void {
    this.#wal?.close();
    this.#db.close();
  }

  /** Runs `fn` in one transaction (committed when it returns). */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn)();
  }

  /** The prepared statement for `source`, compiled once: compiling costs more than running. */
  sql(source: string): Database.Statement {
    let statement = this.#statements.get(source);
    if (!statement) {
      statement = this.#db.prepare(source);
      this.#statements.set(source, statement);
    }
    return statement;
  }

  now(): number {
    return this.clock.now();
  }

  iso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  row(id: string): JobRow | undefined {
    return this.sql('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
  }

  /** Stores `job` as queued and due now: a cloud job, or a local one with its own fields. */
  insert(job: DispatchedJob, local?: LocalColumns): void {
    const now = this.clock.now();
    this.sql(
      `INSERT INTO jobs (id, agent_printer_id, type, encoding, content, options, attempt,
           max_attempts, state, next_attempt_at, expires_at, created_at, received_at, updated_at,
           source, idempotency_key, template_id, metadata, events, dispatched_attempt,
           printer_group_id, dispatched_delivery)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      job.id,
      job.agentPrinterId,
      job.type,
      job.encoding,
      JSON.stringify(job.content),
      JSON.stringify(job.options),
      job.attempt,
      job.maxAttempts,
      now,
      job.expiresAt === null ? null : Date.parse(job.expiresAt),
      job.createdAt,
      now,
      now,
      local ? 'local' : 'cloud',
      local?.idempotencyKey ?? null,
      local?.templateId ?? null,
      local ? JSON.stringify(local.metadata) : null,
      local ? JSON.stringify(local.events) : null,
      job.attempt,
      local?.printerGroupId ?? null,
      job.delivery ?? null,
    );
  }
}
