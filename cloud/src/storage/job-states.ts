/**
 * The job state machine as a pure function: which transitions are allowed and what each one
 * changes. Storage applies the result; the sandbox and (later) the agent gateway drive it.
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import { FINISHED_STATES, type Job, type JobEvent, type JobState } from './types.js';

const ALLOWED: Record<JobState, readonly JobState[]> = {
  queued: ['sending', 'cancelled', 'failed'],
  // An agent may hand a job back (lost connection, retryable error with attempts left).
  sending: ['printed', 'failed', 'queued'],
  printed: [],
  failed: [],
  cancelled: [],
};

export interface TransitionInfo {
  errorCode?: string | null;
  errorMessage?: string | null;
  /**
   * A group job's claim: the change happens only while the job's printer is this member (checked
   * again in the write), so that a job moved meanwhile is not sent to the member it left.
   */
  onlyIfPrinter?: string | null;
}

export interface TransitionResult {
  job: Job;
  event: JobEvent;
  /** When the content is to be deleted; `now` with retention 0. Undefined while unfinished. */
  contentExpiresAt: number | undefined;
  /** True when the content goes at once (retention 0). */
  dropContent: boolean;
}

export function isFinished(state: JobState): boolean {
  return FINISHED_STATES.includes(state);
}

export function canTransition(from: JobState, to: JobState): boolean {
  return ALLOWED[from].includes(to);
}

/** Computes `job` after moving to `to`; throws JOB_ALREADY_FINISHED or CONFLICT when not allowed. */
export function transition(
  job: Job,
  to: JobState,
  info: TransitionInfo,
  now: number,
  retentionDays: number,
): TransitionResult {
  if (!canTransition(job.state, to)) {
    if (isFinished(job.state)) {
      throw new PrintwireError('JOB_ALREADY_FINISHED', `job ${job.id} is already ${job.state}`);
    }
    throw new PrintwireError('CONFLICT', `job ${job.id} cannot go from ${job.state} to ${to}`);
  }
  if (info.onlyIfPrinter !== undefined && job.printerId !== info.onlyIfPrinter) {
    throw new PrintwireError('CONFLICT', `job ${job.id} moved to another printer meanwhile`);
  }
  const next: Job = { ...job, state: to, updatedAt: now };
  const failing = to === 'failed';
  next.errorCode = failing
    ? (info.errorCode ?? 'PRINTER_ERROR')
    : to === 'queued'
      ? job.errorCode
      : null;
  next.errorMessage = failing
    ? (info.errorMessage ?? null)
    : to === 'queued'
      ? job.errorMessage
      : null;
  if (to === 'sending') {
    next.attempt = job.attempt + 1;
    // From the cloud's queue (never sent, or given back): a delivery. Otherwise the agent that
    // holds the job starts its next attempt.
    if (job.dispatchedAt === null) next.deliveries = job.deliveries + 1;
    next.dispatchedAt = now;
  }
  if (to === 'printed') next.printedAt = now;
  let contentExpiresAt: number | undefined;
  let dropContent = false;
  if (isFinished(to)) {
    next.finishedAt = now;
    contentExpiresAt = now + retentionDays * 86_400_000;
    if (retentionDays <= 0) {
      dropContent = true;
      next.contentRetained = false;
      next.hasPreview = false;
    }
  }
  const event: JobEvent = {
    state: to,
    errorCode: next.errorCode,
    errorMessage: next.errorMessage,
    at: now,
  };
  return { job: next, event, contentExpiresAt, dropContent };
}
