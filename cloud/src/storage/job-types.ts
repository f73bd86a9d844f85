/** The shapes the jobs repository takes and answers (`store.jobs`, see jobs.ts). */
import type { TransitionInfo } from './job-states.js';
import type { Job, JobEvent, JobState, Mode } from './types.js';

/** The member of a printer group that takes a job: its printer and that printer's device. */
export interface GroupPick {
  printerId: string;
  deviceId: string;
}

/**
 * A round-robin group's turn, taken inside the job's write: the group's row is locked, `pick`
 * gets the member that took the group's last job (null: none yet) and answers the next one (or
 * null: no member is ready), and the cursor moves to it. Two writes, even on two instances,
 * never take the same turn.
 */
export interface GroupTurn {
  groupId: string;
  pick(lastPrinterId: string | null): GroupPick | null;
}

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
  /** The printer group the job named (`printerId` is then the member chosen, or null). */
  printerGroupId?: string | null;
  /** Round-robin: the member is picked, and the group's cursor moved, in the job's write. */
  groupTurn?: GroupTurn;
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
  /** The jobs sent to this printer group, whichever member holds them now. */
  printerGroupId?: string | undefined;
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
