import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@printwire/shared/errors/index';
import type { QueueDb } from './queue-db.js';
import type {
  CancelMessage,
  LocalReportMessage,
  OutboxMessage,
  ResultMessage,
  WithdrawnMessage,
} from './types.js';

/**
 * What must reach the cloud, kept until the cloud acknowledges each message's id: job results,
 * cancel answers and local jobs' reports. A job has at most one pending result or report (the
 * newest replaces the older); cancel answers are kept beside them.
 */
export class Outbox {
  readonly #db: QueueDb;

  constructor(db: QueueDb) {
    this.#db = db;
  }

  /** Queues a job's result or report, replacing an unsent one of the same job. */
  put(message: ResultMessage | LocalReportMessage): void {
    const jobId = message.type === 'job.local' ? message.job.id : message.jobId;
    this.#db.sql('DELETE FROM outbox WHERE job_id = ?').run(jobId);
    this.#insert(message.id, jobId, message);
  }

  /**
   * Queues the answer to a cancel or a withdraw: it never replaces a pending result of the same
   * job.
   */
  putAnswer(message: CancelMessage | WithdrawnMessage): void {
    this.#insert(message.id, null, message);
  }

  #insert(id: string, jobId: string | null, message: OutboxMessage): void {
    this.#db
      .sql('INSERT INTO outbox (id, job_id, message, created_at) VALUES (?, ?, ?, ?)')
      .run(id, jobId, JSON.stringify(message), this.#db.now());
  }

  /** The job's unconfirmed result or report, or null. */
  pendingFor(jobId: string): OutboxMessage | null {
    const row = this.#db.sql('SELECT message FROM outbox WHERE job_id = ?').get(jobId) as
      { message: string } | undefined;
    return row ? (JSON.parse(row.message) as OutboxMessage) : null;
  }

  /**
   * The result to send again for a job that is finished here (queued again until confirmed), or
   * null when the job is not known as printed or failed.
   */
  resultFor(id: string): ResultMessage | null {
    const pending = this.pendingFor(id);
    if (pending) return pending as ResultMessage;
    const row = this.#db.row(id);
    const printed =
      this.#db.sql('SELECT 1 FROM printed_jobs WHERE job_id = ?').get(id) !== undefined;
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
      at: this.#db.iso(),
    };
    this.#db.transaction(() => this.put(message));
    return message;
  }

  /** Messages the cloud has not acknowledged yet, oldest first. */
  all(): OutboxMessage[] {
    const rows = this.#db
      .sql('SELECT message FROM outbox ORDER BY created_at, rowid')
      .all() as Array<{ message: string }>;
    return rows.map((r) => JSON.parse(r.message) as OutboxMessage);
  }

  /** The cloud acknowledged the message with this id. */
  confirm(messageId: string): void {
    this.#db.sql('DELETE FROM outbox WHERE id = ?').run(messageId);
  }

  count(): number {
    return (this.#db.sql('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
  }
}
