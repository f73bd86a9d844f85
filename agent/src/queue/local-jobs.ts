import { randomUUID } from 'node:crypto';
import { isErrorCode, type ErrorCode } from '@printwire/shared/errors/index';
import {
  PROTOCOL_LIMITS,
  type DispatchedJob,
  type LocalJob,
} from '@printwire/shared/protocol/index';
import type { Outbox } from './outbox.js';
import type { QueueDb } from './queue-db.js';
import type { LocalJobFields, LocalJobRecord, LocalJobState, LocalReportMessage } from './types.js';

/**
 * The jobs pages print through the local server: stored in the same queue as cloud jobs (one
 * worker prints both), found again by their idempotency key, and reported to the cloud whole
 * (`job.local`, the newest record replacing an unsent older one) with their events.
 */
export class LocalJobs {
  readonly #db: QueueDb;
  readonly #outbox: Outbox;

  constructor(db: QueueDb, outbox: Outbox) {
    this.#db = db;
    this.#outbox = outbox;
  }

  /**
   * Stores a job a page printed locally (committed when this returns), or finds the local job
   * its idempotency key names already. The job's first report to the cloud goes to the outbox.
   */
  accept(job: DispatchedJob, fields: LocalJobFields): { id: string; created: boolean } {
    return this.#db.transaction(() => {
      if (fields.idempotencyKey !== null) {
        const existing = this.#db
          .sql(`SELECT id FROM jobs WHERE source = 'local' AND idempotency_key = ?`)
          .get(fields.idempotencyKey) as { id: string } | undefined;
        if (existing) return { id: existing.id, created: false };
      }
      this.#db.insert(job, {
        idempotencyKey: fields.idempotencyKey,
        templateId: fields.templateId,
        metadata: fields.metadata,
        events: [{ state: 'queued', errorCode: null, at: this.#db.iso() }],
        printerGroupId: fields.printerGroupId ?? null,
      });
      this.#report(job.id);
      return { id: job.id, created: true };
    });
  }

  /** Whether the job came from the local server. */
  isLocal(id: string): boolean {
    return this.#db.row(id)?.source === 'local';
  }

  /** The unconfirmed `job.local` report of a local job, or null when the cloud has it. */
  pendingReport(jobId: string): LocalReportMessage | null {
    const message = this.#outbox.pendingFor(jobId);
    return message?.type === 'job.local' ? message : null;
  }

  /** A local job's whole record, or null (unknown, or a cloud job). */
  record(id: string): LocalJobRecord | null {
    const row = this.#db.row(id);
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

  /** Adds an event to a local job's record and queues its new report. */
  event(
    id: string,
    state: LocalJobState,
    errorCode: string | null,
    printedAt: number | null,
  ): void {
    const row = this.#db.row(id);
    if (!row) return;
    const events = JSON.parse(row.events ?? '[]') as LocalJobRecord['events'];
    events.push({
      state,
      errorCode: errorCode !== null && isErrorCode(errorCode) ? errorCode : null,
      at: this.#db.iso(),
    });
    // The protocol caps a report's events: the first (created) and the newest are kept.
    if (events.length > PROTOCOL_LIMITS.maxJobEvents) {
      events.splice(1, events.length - PROTOCOL_LIMITS.maxJobEvents);
    }
    this.#db
      .sql('UPDATE jobs SET events = ?, printed_at = COALESCE(?, printed_at) WHERE id = ?')
      .run(JSON.stringify(events), printedAt, id);
    this.#report(id);
  }

  /** Puts the job's current record in the outbox, replacing an older unsent one. */
  #report(id: string): void {
    const job = this.record(id);
    if (!job) return;
    this.#outbox.put({ type: 'job.local', id: randomUUID(), job });
  }
}
