import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@printwire/shared/errors/index';
import type { DispatchedJob } from '@printwire/shared/protocol/index';
import { systemClock, type Clock } from '../core/clock.js';
import { LocalJobs } from './local-jobs.js';
import { NonceStore } from './nonces.js';
import { Outbox } from './outbox.js';
import { QueueDb, toJob, type JobRow } from './queue-db.js';
import type {
  AcceptOutcome,
  CancelMessage,
  CancelOutcome,
  HeldGroupJob,
  LocalJobFields,
  LocalJobRecord,
  LocalReportMessage,
  OutboxMessage,
  QueuedJob,
  QueuedJobState,
  QueueListEntry,
  QueueSummary,
  ResultMessage,
  WithdrawnMessage,
  WithdrawOutcome,
} from './types.js';

export type * from './types.js';

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
 * never printed twice. This file holds a job's way through the queue; beside it, `outbox.ts`
 * (what the cloud has not confirmed), `local-jobs.ts` (jobs pages printed) and `nonces.ts`.
 */
export class JobQueue {
  readonly #db: QueueDb;
  readonly #outbox: Outbox;
  readonly #local: LocalJobs;
  readonly #nonces: NonceStore;

  constructor(path: string, options: JobQueueOptions = {}) {
    this.#db = new QueueDb(path, options.clock ?? systemClock, options.durability ?? 'power-loss');
    this.#outbox = new Outbox(this.#db);
    this.#local = new LocalJobs(this.#db, this.#outbox);
    this.#nonces = new NonceStore(this.#db);
  }

  /**
   * Resolves once every commit made before the call is durable: on disk with `power-loss`
   * durability (a sync shared with the other commits of this turn of the event loop), at once
   * with `process` (the commits are in the WAL already).
   */
  flush(): Promise<void> {
    return this.#db.flush();
  }

  close(): void {
    this.#db.close();
  }

  get(id: string): QueuedJob | null {
    const row = this.#db.row(id);
    return row ? toJob(row) : null;
  }

  isPrinted(id: string): boolean {
    return this.#db.sql('SELECT 1 FROM printed_jobs WHERE job_id = ?').get(id) !== undefined;
  }

  /** Stores a dispatched job (committed when this returns) unless it is known already. */
  accept(job: DispatchedJob): AcceptOutcome {
    return this.#db.transaction((): AcceptOutcome => {
      const existing = this.#db.row(job.id);
      if (existing) {
        return existing.state === 'queued' || existing.state === 'printing'
          ? 'duplicate'
          : 'finished';
      }
      if (this.isPrinted(job.id)) return 'finished';
      const withdrawn = this.#db
        .sql('SELECT attempt, delivery FROM withdrawn_jobs WHERE job_id = ?')
        .get(job.id) as { attempt: number; delivery: number | null } | undefined;
      if (withdrawn && isStale(job, withdrawn)) return 'withdrawn';
      this.#db.insert(job);
      return 'stored';
    });
  }

  /** The oldest job of the printer that is due now, or null. */
  nextDue(agentPrinterId: string): QueuedJob | null {
    const row = this.#db
      .sql(
        `SELECT * FROM jobs WHERE agent_printer_id = ? AND state = 'queued' AND next_attempt_at <= ?
         ORDER BY next_attempt_at, received_at, rowid LIMIT 1`,
      )
      .get(agentPrinterId, this.#db.now()) as JobRow | undefined;
    return row ? toJob(row) : null;
  }

  /** When the printer's next queued job falls due (epoch ms), or null when none is queued. */
  nextDueAt(agentPrinterId: string): number | null {
    const row = this.#db
      .sql(
        `SELECT MIN(next_attempt_at) AS at FROM jobs WHERE agent_printer_id = ? AND state = 'queued'`,
      )
      .get(agentPrinterId) as { at: number | null };
    return row.at;
  }

  /** Ids of the jobs waiting for a printer, oldest first. */
  queuedJobIds(agentPrinterId: string): string[] {
    const rows = this.#db
      .sql(
        `SELECT id FROM jobs WHERE agent_printer_id = ? AND state = 'queued' ORDER BY received_at, rowid`,
      )
      .all(agentPrinterId) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  /** Printers that have queued jobs (including printers this agent no longer has). */
  printersWithQueuedJobs(): string[] {
    const rows = this.#db
      .sql(`SELECT DISTINCT agent_printer_id AS p FROM jobs WHERE state = 'queued'`)
      .all() as Array<{ p: string }>;
    return rows.map((r) => r.p);
  }

  /**
   * Marks the job as being printed, before its first byte goes out. False when it is no longer
   * queued (cancelled in the meantime): then nothing may be written.
   */
  markPrinting(id: string, agentPrinterId?: string): boolean {
    // `started` is set in the same statement: from here on the job is never withdrawn or moved.
    // With `agentPrinterId`, only while the job is still that printer's (a group's job may move).
    const result = this.#db
      .sql(
        `UPDATE jobs SET state = 'printing', started = 1, updated_at = ?
         WHERE id = ? AND state = 'queued' AND agent_printer_id = COALESCE(?, agent_printer_id)`,
      )
      .run(this.#db.now(), id, agentPrinterId ?? null);
    if (result.changes === 1 && this.#db.row(id)?.source === 'local') {
      this.#local.event(id, 'sending', null, null);
    }
    return result.changes === 1;
  }

  #finish(
    id: string,
    state: 'printed' | 'failed',
    error: { code: ErrorCode; message: string; retryable: boolean } | null,
  ): ResultMessage {
    const row = this.#db.row(id);
    if (!row) throw new Error(`no job ${id} in the queue`);
    const now = this.#db.now();
    this.#db
      .sql(
        `UPDATE jobs SET state = ?, error_code = ?, error_message = ?, updated_at = ? WHERE id = ?`,
      )
      .run(state, error?.code ?? null, error?.message ?? null, now, id);
    if (state === 'printed') {
      this.#db
        .sql('INSERT OR IGNORE INTO printed_jobs (job_id, printed_at) VALUES (?, ?)')
        .run(id, now);
    }
    if (row.source === 'local') {
      this.#local.event(id, state, error?.code ?? null, state === 'printed' ? now : null);
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
      at: this.#db.iso(),
    };
    // A local job is reported whole (job.local); the cloud never dispatched it, so no job.result.
    if (row.source !== 'local') this.#outbox.put(message);
    return message;
  }

  /** The printer accepted the whole job: printed, remembered, and its result queued for the cloud. */
  markPrinted(id: string): ResultMessage {
    return this.#db.transaction(() => this.#finish(id, 'printed', null));
  }

  /** The job failed for good; its result is queued for the cloud. */
  markFailed(
    id: string,
    error: { code: ErrorCode; message: string; retryable: boolean },
  ): ResultMessage {
    return this.#db.transaction(() => this.#finish(id, 'failed', error));
  }

  /** Puts the job back in the queue for another attempt at `nextAttemptAt`. */
  scheduleRetry(
    id: string,
    attempt: number,
    nextAttemptAt: number,
    error: { code: string; message: string },
  ): void {
    this.#db
      .sql(
        `UPDATE jobs SET state = 'queued', attempt = ?, next_attempt_at = ?, error_code = ?,
           error_message = ?, updated_at = ? WHERE id = ? AND state IN ('queued', 'printing')`,
      )
      .run(attempt, nextAttemptAt, error.code, error.message, this.#db.now(), id);
    if (this.#db.row(id)?.source === 'local') this.#local.event(id, 'queued', error.code, null);
  }

  /**
   * Cancels a job that has not started. The answer for the cloud goes to the outbox; a job that
   * started or finished is left alone.
   */
  cancel(id: string): CancelMessage {
    return this.#db.transaction(() => {
      const row = this.#db.row(id);
      let reason: CancelOutcome;
      if (!row) reason = this.isPrinted(id) ? 'finished' : 'unknown_job';
      else if (row.state === 'queued') reason = 'not_started';
      else if (row.state === 'printing') reason = 'started';
      else reason = 'finished';
      if (reason === 'not_started') {
        this.#db
          .sql(`UPDATE jobs SET state = 'cancelled', updated_at = ? WHERE id = ?`)
          .run(this.#db.now(), id);
        if (row?.source === 'local') this.#local.event(id, 'cancelled', null, null);
      }
      const message: CancelMessage = {
        type: 'job.cancelled',
        id: randomUUID(),
        jobId: id,
        cancelled: reason === 'not_started' || row?.state === 'cancelled',
        reason,
        at: this.#db.iso(),
      };
      // A local job's cancel is reported through its job.local record.
      if (row?.source !== 'local') this.#outbox.putAnswer(message);
      return message;
    });
  }

  /**
   * Whether a byte of the job may have reached the printer: its printing mark was set in some
   * attempt (also one a crash interrupted).
   */
  isStarted(id: string): boolean {
    return this.#db.row(id)?.started === 1;
  }

  /** Whether the job is still the queue's to print (queued or printing), on that printer. */
  holds(id: string, agentPrinterId?: string): boolean {
    const row = this.#db.row(id);
    if (!row || (agentPrinterId !== undefined && row.agent_printer_id !== agentPrinterId)) {
      return false;
    }
    return row.state === 'queued' || row.state === 'printing';
  }

  // ---- Local mode's printer groups ----

  /** The printer group a local job named, or null. */
  printerGroupOf(id: string): string | null {
    return this.#db.row(id)?.printer_group_id ?? null;
  }

  /** Local group jobs that have not started: the ones that may still move to another member. */
  heldGroupJobs(): HeldGroupJob[] {
    const rows = this.#db
      .sql(
        `SELECT id, agent_printer_id, printer_group_id FROM jobs
         WHERE printer_group_id IS NOT NULL AND state = 'queued' AND started = 0
         ORDER BY received_at, rowid`,
      )
      .all() as Array<{ id: string; agent_printer_id: string; printer_group_id: string }>;
    return rows.map((r) => ({
      id: r.id,
      agentPrinterId: r.agent_printer_id,
      printerGroupId: r.printer_group_id,
    }));
  }

  /**
   * Moves a local group job from one member to another, due at once, only while it is queued on
   * `from` and has never started: one statement, so it excludes the printing mark (which checks
   * the printer). False when it started or moved meanwhile.
   */
  moveGroupJob(id: string, from: string, to: string): boolean {
    return this.#db.transaction(() => {
      const now = this.#db.now();
      const moved =
        this.#db
          .sql(
            `UPDATE jobs SET agent_printer_id = ?, next_attempt_at = ?, updated_at = ?
             WHERE id = ? AND agent_printer_id = ? AND state = 'queued' AND started = 0`,
          )
          .run(to, now, now, id, from).changes === 1;
      if (moved) this.#local.event(id, 'queued', null, null);
      return moved;
    });
  }

  /**
   * Holds a local group job that could not start on its printer without using up an attempt:
   * it waits there until `until`, or until it moves to a member that is ready.
   */
  holdGroupJob(id: string, until: number, error: { code: string; message: string }): void {
    this.#db
      .sql(
        `UPDATE jobs SET next_attempt_at = ?, error_code = ?, error_message = ?, updated_at = ?
         WHERE id = ? AND state = 'queued'`,
      )
      .run(until, error.code, error.message, this.#db.now(), id);
  }

  /** The member that took a round-robin group's last local job, or null. */
  groupCursor(groupId: string): string | null {
    const row = this.#db
      .sql('SELECT agent_printer_id FROM group_cursors WHERE group_id = ?')
      .get(groupId) as { agent_printer_id: string } | undefined;
    return row?.agent_printer_id ?? null;
  }

  setGroupCursor(groupId: string, agentPrinterId: string): void {
    this.#db
      .sql('INSERT OR REPLACE INTO group_cursors (group_id, agent_printer_id) VALUES (?, ?)')
      .run(groupId, agentPrinterId);
  }

  /**
   * Gives a cloud job back (job.withdraw) when no byte of it can have gone out: in one
   * transaction with respect to `markPrinting`, so the job is either dropped here (and then no
   * worker can start it) or already marked started. A dropped job is remembered with its
   * dispatch (its delivery, and its attempt for a cloud that sends none): a re-send of that
   * dispatch is refused, a later delivery prints.
   * The answer goes to the outbox (sent until the cloud acknowledges it); the caller sends it
   * once `flush()` made the drop durable.
   */
  withdraw(id: string): WithdrawnMessage {
    return this.#db.transaction(() => {
      const row = this.#db.row(id);
      let reason: WithdrawOutcome;
      /** The delivery given back (told to the cloud, which moves only the delivery it asked). */
      let delivery: number | undefined;
      if (!row) {
        const withdrawn = this.#db
          .sql('SELECT delivery FROM withdrawn_jobs WHERE job_id = ?')
          .get(id) as { delivery: number | null } | undefined;
        delivery = withdrawn?.delivery ?? undefined;
        if (this.isPrinted(id)) reason = 'finished';
        else reason = withdrawn ? 'not_started' : 'unknown_job';
      } else if (row.source === 'local') reason = 'unknown_job';
      else if (row.started === 1) reason = row.state === 'printed' ? 'finished' : 'started';
      else if (row.state === 'queued') reason = 'not_started';
      else reason = 'finished';
      if (row && reason === 'not_started') {
        const now = this.#db.now();
        delivery = row.dispatched_delivery ?? undefined;
        this.#db.sql('DELETE FROM jobs WHERE id = ?').run(id);
        this.#db
          .sql(
            `INSERT OR REPLACE INTO withdrawn_jobs (job_id, attempt, delivery, withdrawn_at)
             VALUES (?, ?, ?, ?)`,
          )
          .run(id, row.dispatched_attempt ?? row.attempt, row.dispatched_delivery, now);
      }
      const message: WithdrawnMessage = {
        type: 'job.withdrawn',
        id: randomUUID(),
        jobId: id,
        withdrawn: reason === 'not_started',
        reason,
        ...(reason === 'not_started' && delivery !== undefined ? { delivery } : {}),
        at: this.#db.iso(),
      };
      this.#outbox.putAnswer(message);
      return message;
    });
  }

  /**
   * After a crash: a job found `printing` may be on paper already, so it is not printed again;
   * it fails with INTERRUPTED (not retryable). Returns the results queued for the cloud.
   */
  recoverInterrupted(): ResultMessage[] {
    const rows = this.#db.sql(`SELECT id FROM jobs WHERE state = 'printing'`).all() as Array<{
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

  // ---- The outbox, local jobs and nonces (their own modules) ----

  /** The result to send again for a job that is finished here. */
  resultFor(id: string): ResultMessage | null {
    return this.#outbox.resultFor(id);
  }

  /** Messages the cloud has not acknowledged yet, oldest first. */
  outbox(): OutboxMessage[] {
    return this.#outbox.all();
  }

  /** The cloud acknowledged the message with this id. */
  confirm(messageId: string): void {
    this.#outbox.confirm(messageId);
  }

  /** See `LocalJobs.accept`. */
  acceptLocal(job: DispatchedJob, fields: LocalJobFields): { id: string; created: boolean } {
    return this.#local.accept(job, fields);
  }

  /** The unconfirmed `job.local` report of a local job, or null when the cloud has it. */
  pendingReport(jobId: string): LocalReportMessage | null {
    return this.#local.pendingReport(jobId);
  }

  /** Whether the job came from the local server. */
  isLocal(id: string): boolean {
    return this.#local.isLocal(id);
  }

  /** A local job's whole record, or null (unknown, or a cloud job). */
  localRecord(id: string): LocalJobRecord | null {
    return this.#local.record(id);
  }

  /** See `NonceStore.remember`. */
  rememberNonce(nonce: string, nowSeconds: number, windowSeconds: number): boolean {
    return this.#nonces.remember(nonce, nowSeconds, windowSeconds);
  }

  // ---- What the window lists, and housekeeping ----

  /**
   * The newest jobs, unfinished first (what the agent's window lists): at most `limit`, without
   * their content.
   */
  list(limit = 100): QueueListEntry[] {
    const rows = this.#db
      .sql(
        `SELECT id, agent_printer_id, type, state, attempt, max_attempts, next_attempt_at,
           error_code, error_message, received_at, updated_at, source
         FROM jobs
         ORDER BY CASE WHEN state IN ('queued', 'printing') THEN 0 ELSE 1 END,
           received_at DESC, rowid DESC
         LIMIT ?`,
      )
      .all(limit) as Array<
      Pick<
        JobRow,
        | 'id'
        | 'agent_printer_id'
        | 'type'
        | 'state'
        | 'attempt'
        | 'max_attempts'
        | 'next_attempt_at'
        | 'error_code'
        | 'error_message'
        | 'received_at'
        | 'updated_at'
        | 'source'
      >
    >;
    return rows.map((r) => ({
      id: r.id,
      agentPrinterId: r.agent_printer_id,
      type: r.type as QueuedJob['type'],
      state: r.state,
      source: r.source,
      attempt: r.attempt,
      maxAttempts: r.max_attempts,
      nextAttemptAt: r.state === 'queued' ? r.next_attempt_at : null,
      errorCode: r.error_code,
      errorMessage: r.error_message,
      receivedAt: r.received_at,
      updatedAt: r.updated_at,
    }));
  }

  /**
   * A queued job waiting for its next attempt is due now (the window's Retry). False when the
   * job is not queued.
   */
  retryNow(id: string): boolean {
    const now = this.#db.now();
    return (
      this.#db
        .sql(
          `UPDATE jobs SET next_attempt_at = ?, updated_at = ? WHERE id = ? AND state = 'queued'`,
        )
        .run(now, now, id).changes === 1
    );
  }

  summary(): QueueSummary {
    const rows = this.#db
      .sql('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state')
      .all() as Array<{
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
    out.unconfirmed = this.#outbox.count();
    return out;
  }

  /**
   * Deletes finished jobs older than `jobAgeMs` (their content) and printed ids older than
   * `printedIdAgeMs`. The printed ids must outlive any redelivery: the cloud's longest job
   * lifetime is 7 days, so the default keeps them 30 days.
   */
  prune(jobAgeMs = 7 * 86_400_000, printedIdAgeMs = 30 * 86_400_000): void {
    const now = this.#db.now();
    this.#db
      .sql(
        `DELETE FROM jobs WHERE state IN ('printed', 'failed', 'cancelled') AND updated_at < ?
         AND id NOT IN (SELECT job_id FROM outbox WHERE job_id IS NOT NULL)`,
      )
      .run(now - jobAgeMs);
    this.#db.sql('DELETE FROM printed_jobs WHERE printed_at < ?').run(now - printedIdAgeMs);
    this.#db.sql('DELETE FROM withdrawn_jobs WHERE withdrawn_at < ?').run(now - printedIdAgeMs);
  }
}

/**
 * Whether a dispatch of a job this agent gave back is a re-send of a dispatch at or before the
 * one given back (never stored, never printed). By `delivery` when the cloud sends it (a job
 * given back from a dispatch without one: its attempt, which the cloud's first delivery number
 * is above); by `attempt` from a cloud that sends none.
 */
function isStale(
  job: DispatchedJob,
  givenBack: { attempt: number; delivery: number | null },
): boolean {
  if (job.delivery !== undefined) return job.delivery <= (givenBack.delivery ?? givenBack.attempt);
  return job.attempt <= givenBack.attempt;
}
