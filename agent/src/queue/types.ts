import type {
  AgentMessageOf,
  DispatchedJob,
  DispatchedJobOptions,
  LocalJob,
} from '@printwire/shared/protocol/index';

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
export type WithdrawnMessage = AgentMessageOf<'job.withdrawn'>;

/** A local job's whole record, as reported to the cloud in `job.local`. */
export type LocalJobRecord = LocalJob;
export type LocalJobState = LocalJob['state'];

/** The report of a local job to the cloud (the newest record replaces the older one). */
export type LocalReportMessage = AgentMessageOf<'job.local'>;

export type OutboxMessage = ResultMessage | CancelMessage | WithdrawnMessage | LocalReportMessage;

/** What a page asked for, beyond the job itself. */
export interface LocalJobFields {
  idempotencyKey: string | null;
  templateId: string | null;
  metadata: Record<string, string>;
  /** The printer group the page named (its job may move among the members here). */
  printerGroupId?: string | null;
}

/** A local group job that has not started, on the member that holds it now. */
export interface HeldGroupJob {
  id: string;
  agentPrinterId: string;
  printerGroupId: string;
}

export type AcceptOutcome =
  /** New: stored durably; acknowledge it. */
  | 'stored'
  /** Already queued or printing here; acknowledge again. */
  | 'duplicate'
  /** Already finished here (or printed once): acknowledge, and the result is sent again. */
  | 'finished'
  /**
   * Given back to the cloud (job.withdraw) at this delivery or a later one (at this attempt,
   * from a cloud that sends no `delivery`): a stale re-send, neither stored nor acknowledged
   * (the cloud dispatches it again with a higher delivery).
   */
  | 'withdrawn';

export type CancelOutcome = AgentMessageOf<'job.cancelled'>['reason'];
export type WithdrawOutcome = WithdrawnMessage['reason'];

/** A job as the agent's window lists it (no content). Times are epoch milliseconds. */
export interface QueueListEntry {
  id: string;
  agentPrinterId: string;
  type: QueuedJob['type'];
  state: QueuedJobState;
  source: 'cloud' | 'local';
  attempt: number;
  maxAttempts: number;
  /** When a queued job is tried next; null once it left the queue. */
  nextAttemptAt: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  receivedAt: number;
  updatedAt: number;
}

export interface QueueSummary {
  queued: number;
  printing: number;
  printed: number;
  failed: number;
  cancelled: number;
  /** Results and cancel answers not yet acknowledged by the cloud. */
  unconfirmed: number;
}
