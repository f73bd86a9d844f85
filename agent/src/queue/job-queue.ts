import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { isErrorCode, type ErrorCode } from '@printwire/shared/errors/index';
import { PROTOCOL_LIMITS } from '@printwire/shared/protocol/index';
import type {
  AgentMessageOf,
  DispatchedJob,
  DispatchedJobOptions,
  LocalJob,
} from '@printwire/shared/protocol/index';
import { systemClock, type Clock } from '../core/clock.js';
import { MIGRATIONS } from './schema.js';
import { WalSync } from './wal-sync.js';

export type QueuedJobState = 'queued' | 'printing' | 'printed' | 'failed' | 'cancelled';

/** A job as the agent's queue holds it. Times are epoch milliseconds. */
export interface QueuedJob {
  id: string;
  agentPrinterId: string;
  type: DispatchedJob['type'];
  encoding: DispatchedJob['encoding'];
  content: DispatchedJob['content'];
  options: DispatchedJobOptions;
  attempt: number;
  maxAttempts: number;
  state: QueuedJobState;
  nextAttemptAt: number;
  expiresAt: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: string;
  receivedAt: number;
}

/** A message that must reach the cloud: kept until the cloud acknowledges its id. */
export type ResultMessage = AgentMessageOf<'job.result'>;
export type CancelMessage = AgentMessageOf<'job.cancelled'>;

/** A local job's whole record, as reported to the cloud in `job.local`. */
export type LocalJobRecord = LocalJob;
export type LocalJobState = LocalJob['state'];

/** The report of a local job to the cloud (the newest record replaces the older one). */
export type LocalReportMessage = AgentMessageOf<'job.local'>;

export type OutboxMessage = ResultMessage | CancelMessage | LocalReportMessage;

/** What a page asked for, beyond the job itself. */
export interface LocalJobFields {
  idempotencyKey: string | null;
  templateId: string | null;
  metadata: Record<string, string>;
}

export type AcceptOutcome =
  /** New: stored durably; acknowledge it. */
  | 'stored'
  /** Already queued or printing here; acknowledge again. */
  | 'duplicate'
  /** Already finished here (or printed once): acknowledge, and the result is sent again. */
  | 'finished';

export type CancelOutcome = AgentMessageOf<'job.cancelled'>['reason'];

export interface QueueSummary {
  queued: number;
  printing: number;
  printed: number;
  failed: number;
  cancelled: number;
  /** Results and cancel answers not yet acknowledged by the cloud. */
  unconfirmed: number;
}

interface JobRow {
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
}

function toJob(row: JobRow): QueuedJob {
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

export interface JobQueueOptions {
  clock?: Clock;
  /**
   * What a commit survives once `flush()` resolves. Commits are written to SQLite's WAL
   * (synchronous NORMAL), so they always survive the agent's crash or SIGKILL.
   * `power-loss` (default): `flush()` also syncs the WAL file to disk (one `fdatasync` shared by
   * the commits made before it, about 0.5 ms on an SSD), so what was flushed survives a power
   * cut. `process`: `flush()` resolves at once; the last commits may be lost with the power.
   */
  durability?: 'power-loss' | 'process';
}

/**
 * The agent's durable job queue in SQLite (WAL). Every write is committed when its method
 * returns; `flush()` makes the commits so far durable (see `JobQueueOptions.durability`), and the
 * agent awaits it before telling anyone about them: before acknowledging a job, before the first
 * byte of a job goes to the printer, before a result or a cancel answer is sent. It also
 * remembers every job id it printed, so that a job delivered again, even after a restart, is
 * never printed twice, and an outbox of results the cloud has not yet confirmed. The only place
 * with SQL in the agent.
 */
export class JobQueue {
  readonly #db: Database.Database;
  readonly #clock: Clock;
  readonly #wal: WalSync | null;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(path: string, options: JobQueueOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    const version = this.#db.pragma('user_version', { simple: true }) as number;
    this.#db.transaction(() => {
      for (let v = version; v < MIGRATIONS.length; v++) this.#db.exec(MIGRATIONS[v]!);
      this.#db.pragma(`user_version = ${MIGRATIONS.length}`);
    })();
    this.#wal = options.durability === 'process' ? null : new WalSync(`${path}-wal`);
  }

  /**
   * Resolves once every commit made before the call is durable: on disk with `power-loss`
   * durability (a sync shared with the other commits of this turn of the event loop), at once
   * with `process` (the commits are in the WAL already).
   */
  flush(): Promise<void> {
    return this.#wal ? this.#wal.flush() : Promise.resolve();
  }

  close(): void {
    this.#wal?.close();
    this.#db.close();
  }

  /** The prepared statement for `source`, compiled once: compiling costs more than running. */
  #sql(source: string): Database.Statement {
    let statement = this.#statements.get(source);
    if (!statement) {
      statement = this.#db.prepare(source);
      this.#statements.set(source, statement);
    }
    return statement;
  }

  #iso(): string {
    return new Date(this.#clock.now()).toISOString();
  }

  #row(id: string): JobRow | undefined {
    return this.#sql('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
  }

  get(id: string): QueuedJob | null {
    const row = this.#row(id);
    return row ? toJob(row) : null;
  }

  isPrinted(id: string): boolean {
    return this.#sql('SELECT 1 FROM printed_jobs WHERE job_id = ?').get(id) !== undefined;
  }

  /** Stores a dispatched job (committed when this returns) unless it is known already. */
  accept(job: DispatchedJob): AcceptOutcome {
    return this.#db.transaction((): AcceptOutcome => {
      const existing = this.#row(job.id);
      if (existing) {
        return existing.state === 'queued' || existing.state === 'printing'
          ? 'duplicate'
          : 'finished';
      }
      if (this.isPrinted(job.id)) return 'finished';
      this.#insert(job);
      return 'stored';
    })();
  }

  /** Stores `job` as queued and due now: a cloud job, or a local one with its own fields. */
  #insert(
    job: DispatchedJob,
    local?: {
      idempotencyKey: string | null;
      templateId: string | null;
      metadata: Record<string, string>;
      events: Array<{ state: string; errorCode: string | null; at: string }>;
    },
  ): void {
    const now = this.#clock.now();
    this.#sql(
      `INSERT INTO jobs (id, agent_printer_id, type, encoding, content, options, attempt,
           max_attempts, state, next_attempt_at, expires_at, created_at, received_at, updated_at,
           source, idempotency_key, template_id, metadata, events)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    );
  }

  /** The oldest job of the printer that is due now, or null. */
  nextDue(agentPrinterId: string): QueuedJob | null {
    const row = this.#sql(
      `SELECT * FROM jobs WHERE agent_printer_id = ? AND state = 'queued' AND next_attempt_at <= ?
         ORDER BY next_attempt_at, received_at, rowid LIMIT 1`,
    ).get(agentPrinterId, this.#clock.now()) as JobRow | undefined;
    return row ? toJob(row) : null;
  }

  /** When the printer's next queued job falls due (epoch ms), or null when none is queued. */
  nextDueAt(agentPrinterId: string): number | null {
    const row = this.#sql(
      `SELECT MIN(next_attempt_at) AS at FROM jobs WHERE agent_printer_id = ? AND state = 'queued'`,
    ).get(agentPrinterId) as { at: number | null };
    return row.at;
  }

  /** Ids of the jobs waiting for a printer, oldest first. */
  queuedJobIds(agentPrinterId: string): string[] {
    const rows = this.#sql(
      `SELECT id FROM jobs WHERE agent_printer_id = ? AND state = 'queued' ORDER BY received_at, rowid`,
    ).all(agentPrinterId) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  /** Printers that have queued jobs (including printers this agent no longer has). */
  printersWithQueuedJobs(): string[] {
    const rows = this.#sql(
      `SELECT DISTINCT agent_printer_id AS p FROM jobs WHERE state = 'queued'`,
    ).all() as Array<{ p: string }>;
    return rows.map((r) => r.p);
  }

  /**
   * Marks the job as being printed, before its first byte goes out. False when it is no longer
   * queued (cancelled in the meantime): then nothing may be written.
   */
  markPrinting(id: string): boolean {
    const result = this.#sql(
      `UPDATE jobs SET state = 'printing', updated_at = ? WHERE id = ? AND state = 'queued'`,
    ).run(this.#clock.now(), id);
    if (result.changes === 1 && this.#row(id)?.source === 'local') {
      this.#localEvent(id, 'sending', null, null);
    }
    return result.changes === 1;
  }

  #finish(
    id: string,
    state: 'printed' | 'failed',
    error: { code: ErrorCode; message: string; retryable: boolean } | null,
  ): ResultMessage {
    const row = this.#row(id);
    if (!row) throw new Error(`no job ${id} in the queue`);
    const now = this.#clock.now();
    this.#sql(
      `UPDATE jobs SET state = ?, error_code = ?, error_message = ?, updated_at = ? WHERE id = ?`,
    ).run(state, error?.code ?? null, error?.message ?? null, now, id);
    if (state === 'printed') {
      this.#sql('INSERT OR IGNORE INTO printed_jobs (job_id, printed_at) VALUES (?, ?)').run(
        id,
        now,
      );
    }
    if (row.source === 'local') {
      this.#localEvent(id, state, error?.code ?? null, state === 'printed' ? now : null);
    }
    const message: ResultMessage = {
      type: 'job.result',
      id: randomUUID(),
      jobId: id,
      attempt: row.attempt,
      outcome: state,
      ...(error
        ? { errorCode: error.code, errorMessage: error.message, retryable: error.retryable }
        : {}),
      at: this.#iso(),
    };
    // A local job is reported whole (job.local); the cloud never dispatched it, so no job.result.
    if (row.source !== 'local') this.#addOutbox(message);
    return message;
  }

  #addOutbox(message: OutboxMessage): void {
    const jobId = message.type === 'job.local' ? message.job.id : message.jobId;
    this.#sql('DELETE FROM outbox WHERE job_id = ?').run(jobId);
    this.#sql('INSERT INTO outbox (id, job_id, message, created_at) VALUES (?, ?, ?, ?)').run(
      message.id,
      jobId,
      JSON.stringify(message),
      this.#clock.now(),
    );
  }

  /** The printer accepted the whole job: printed, remembered, and its result queued for the cloud. */
  markPrinted(id: string): ResultMessage {
    return this.#db.transaction(() => this.#finish(id, 'printed', null))();
  }

  /** The job failed for good; its result is queued for the cloud. */
  markFailed(
    id: string,
    error: { code: ErrorCode; message: string; retryable: boolean },
  ): ResultMessage {
    return this.#db.transaction(() => this.#finish(id, 'failed', error))();
  }

  /** Puts the job back in the queue for another attempt at `nextAttemptAt`. */
  scheduleRetry(
    id: string,
    attempt: number,
    nextAttemptAt: number,
    error: { code: string; message: string },
  ): void {
    this.#sql(
      `UPDATE jobs SET state = 'queued', attempt = ?, next_attempt_at = ?, error_code = ?,
           error_message = ?, updated_at = ? WHERE id = ? AND state IN ('queued', 'printing')`,
    ).run(attempt, nextAttemptAt, error.code, error.message, this.#clock.now(), id);
    if (this.#row(id)?.source === 'local') this.#localEvent(id, 'queued', error.code, null);
  }

  /**
   * Cancels a job that has not started. The answer for the cloud goes to the outbox; a job that
   * started or finished is left alone.
   */
  cancel(id: string): CancelMessage {
    return this.#db.transaction(() => {
      const row = this.#row(id);
      let reason: CancelOutcome;
      if (!row) reason = this.isPrinted(id) ? 'finished' : 'unknown_job';
      else if (row.state === 'queued') reason = 'not_started';
      else if (row.state === 'printing') reason = 'started';
      else reason = 'finished';
      if (reason === 'not_started') {
        this.#sql(`UPDATE jobs SET state = 'cancelled', updated_at = ? WHERE id = ?`).run(
          this.#clock.now(),
          id,
        );
        if (row?.source === 'local') this.#localEvent(id, 'cancelled', null, null);
      }
      const message: CancelMessage = {
        type: 'job.cancelled',
        id: randomUUID(),
        jobId: id,
        cancelled: reason === 'not_started' || row?.state === 'cancelled',
        reason,
        at: this.#iso(),
      };
      // A local job's cancel is reported through its job.local record.
      if (row?.source === 'local') return message;
      // The answer to a cancel never replaces a pending result of the same job.
      this.#sql('INSERT INTO outbox (id, job_id, message, created_at) VALUES (?, ?, ?, ?)').run(
        message.id,
        null,
        JSON.stringify(message),
        this.#clock.now(),
      );
      return message;
    })();
  }

  /**
   * After a crash: a job found `printing` may be on paper already, so it is not printed again;
   * it fails with INTERRUPTED (not retryable). Returns the results queued for the cloud.
   */
  recoverInterrupted(): ResultMessage[] {
    const rows = this.#sql(`SELECT id FROM jobs WHERE state = 'printing'`).all() as Array<{
      id: string;
    }>;
    return rows.map((r) =>
      this.markFailed(r.id, {
        code: 'INTERRUPTED',
        message: 'the agent stopped while this job was being sent; it is not printed again',
        retryable: false,
      }),
    );
  }

  /** The result to send again for a job that is finished here. */
  resultFor(id: string): ResultMessage | null {
    const pending = this.#sql('SELECT message FROM outbox WHERE job_id = ?').get(id) as
      { message: string } | undefined;
    if (pending) return JSON.parse(pending.message) as ResultMessage;
    const row = this.#row(id);
    const printed = this.isPrinted(id);
    if (!printed && (!row || row.state !== 'failed')) return null;
    const message: ResultMessage = {
      type: 'job.result',
      id: randomUUID(),
      jobId: id,
      attempt: row?.attempt ?? 1,
      outcome: printed ? 'printed' : 'failed',
      ...(!printed && row?.error_code
        ? {
            errorCode: row.error_code as ErrorCode,
            errorMessage: row.error_message ?? '',
            retryable: false,
          }
        : {}),
      at: this.#iso(),
    };
    this.#db.transaction(() => this.#addOutbox(message))();
    return message;
  }

  /** Messages the cloud has not acknowledged yet, oldest first. */
  outbox(): OutboxMessage[] {
    const rows = this.#sql('SELECT message FROM outbox ORDER BY created_at, rowid').all() as Array<{
      message: string;
    }>;
    return rows.map((r) => JSON.parse(r.message) as OutboxMessage);
  }

  /** The cloud acknowledged the message with this id. */
  confirm(messageId: string): void {
    this.#sql('DELETE FROM outbox WHERE id = ?').run(messageId);
  }

  /**
   * Stores a job a page printed locally (committed when this returns), or finds the local job
   * its idempotency key names already. The job's first report to the cloud goes to the outbox.
   */
  acceptLocal(job: DispatchedJob, fields: LocalJobFields): { id: string; created: boolean } {
    return this.#db.transaction(() => {
      if (fields.idempotencyKey !== null) {
        const existing = this.#sql(
          `SELECT id FROM jobs WHERE source = 'local' AND idempotency_key = ?`,
        ).get(fields.idempotencyKey) as { id: string } | undefined;
        if (existing) return { id: existing.id, created: false };
      }
      this.#insert(job, {
        idempotencyKey: fields.idempotencyKey,
        templateId: fields.templateId,
        metadata: fields.metadata,
        events: [{ state: 'queued', errorCode: null, at: this.#iso() }],
      });
      this.#reportLocal(job.id);
      return { id: job.id, created: true };
    })();
  }

  /** The unconfirmed `job.local` report of a local job, or null when the cloud has it. */
  pendingReport(jobId: string): LocalReportMessage | null {
    const row = this.#sql('SELECT message FROM outbox WHERE job_id = ?').get(jobId) as
      { message: string } | undefined;
    if (!row) return null;
    const message = JSON.parse(row.message) as OutboxMessage;
    return message.type === 'job.local' ? message : null;
  }

  /** Whether the job came from the local server. */
  isLocal(id: string): boolean {
    return this.#row(id)?.source === 'local';
  }

  /** A local job's whole record, or null (unknown, or a cloud job). */
  localRecord(id: string): LocalJobRecord | null {
    const row = this.#row(id);
    if (!row || row.source !== 'local') return null;
    const events = JSON.parse(row.events ?? '[]') as LocalJobRecord['events'];
    const state: LocalJobState = row.state === 'printing' ? 'sending' : row.state;
    // Attempts made so far: each one began with `sending`.
    const attempt = events.filter((e) => e.state === 'sending').length;
    return {
      id: row.id,
      idempotencyKey: row.idempotency_key,
      agentPrinterId: row.agent_printer_id,
      type: row.type as LocalJob['type'],
      templateId: row.template_id,
      metadata: JSON.parse(row.metadata ?? '{}') as Record<string, string>,
      state,
      attempt,
      errorCode: state === 'failed' ? (row.error_code as ErrorCode | null) : null,
      errorMessage: state === 'failed' ? row.error_message : null,
      createdAt: row.created_at,
      updatedAt: new Date(row.updated_at).toISOString(),
      printedAt: row.printed_at === null ? null : new Date(row.printed_at).toISOString(),
      events,
    };
  }

  #localEvent(
    id: string,
    state: LocalJobState,
    errorCode: string | null,
    printedAt: number | null,
  ): void {
    const row = this.#row(id);
    if (!row) return;
    const events = JSON.parse(row.events ?? '[]') as LocalJobRecord['events'];
    events.push({
      state,
      errorCode: errorCode !== null && isErrorCode(errorCode) ? errorCode : null,
      at: this.#iso(),
    });
    // The protocol caps a report's events: the first (created) and the newest are kept.
    if (events.length > PROTOCOL_LIMITS.maxJobEvents) {
      events.splice(1, events.length - PROTOCOL_LIMITS.maxJobEvents);
    }
    this.#sql('UPDATE jobs SET events = ?, printed_at = COALESCE(?, printed_at) WHERE id = ?').run(
      JSON.stringify(events),
      printedAt,
      id,
    );
    this.#reportLocal(id);
  }

  /** Puts the job's current record in the outbox, replacing an older unsent one. */
  #reportLocal(id: string): void {
    const job = this.localRecord(id);
    if (!job) return;
    this.#addOutbox({ type: 'job.local', id: randomUUID(), job });
  }

  /**
   * Remembers the nonce of a signed local request; false when it was seen within the last
   * `windowSeconds` (older ones are forgotten: their timestamp can no longer pass).
   */
  rememberNonce(nonce: string, nowSeconds: number, windowSeconds: number): boolean {
    return this.#db.transaction(() => {
      this.#sql('DELETE FROM local_nonces WHERE seen_at < ?').run(nowSeconds - 2 * windowSeconds);
      return (
        this.#sql('INSERT OR IGNORE INTO local_nonces (nonce, seen_at) VALUES (?, ?)').run(
          nonce,
          nowSeconds,
        ).changes === 1
      );
    })();
  }

  summary(): QueueSummary {
    const rows = this.#sql('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state').all() as Array<{
      state: QueuedJobState;
      n: number;
    }>;
    const out: QueueSummary = {
      queued: 0,
      printing: 0,
      printed: 0,
      failed: 0,
      cancelled: 0,
      unconfirmed: 0,
    };
    for (const r of rows) out[r.state] = r.n;
    out.unconfirmed = (this.#sql('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
    return out;
  }

  /**
   * Deletes finished jobs older than `jobAgeMs` (their content) and printed ids older than
   * `printedIdAgeMs`. The printed ids must outlive any redelivery: the cloud's longest job
   * lifetime is 7 days, so the default keeps them 30 days.
   */
  prune(jobAgeMs = 7 * 86_400_000, printedIdAgeMs = 30 * 86_400_000): void {
    const now = this.#clock.now();
    this.#sql(
      `DELETE FROM jobs WHERE state IN ('printed', 'failed', 'cancelled') AND updated_at < ?
         AND id NOT IN (SELECT job_id FROM outbox WHERE job_id IS NOT NULL)`,
    ).run(now - jobAgeMs);
    this.#sql('DELETE FROM printed_jobs WHERE printed_at < ?').run(now - printedIdAgeMs);
  }
}
