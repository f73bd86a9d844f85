import type { LocalSettings, OriginAnswer, OriginAnswers } from './local-store.js';
import type {
  LocalAgentInfo,
  LocalJob,
  LocalPrinter,
  LocalPrinterStatusEvent,
} from '@printwire/shared/contracts/local-api';
import type { NonceStore } from './trust.js';

/** `GET /v1/info` and the session's welcome. */
export type LocalInfo = LocalAgentInfo;

export type LocalEvent =
  { event: 'printer.status'; data: LocalPrinterStatusEvent } | { event: 'job'; data: LocalJob };

/** What the local server needs from the agent (the agent implements it; tests fake it). */
export interface LocalBackend {
  info(): LocalInfo;
  printers(): LocalPrinter[];
  /**
   * Validates a job request (as POST /v1/jobs), stores it durably in the queue with source
   * local and returns it; the same idempotency key returns the job it named. Throws LocalApiError.
   */
  print(request: unknown): Promise<LocalJob>;
  /** Cancels a local job that has not started; returns it as it is now. Throws JOB_NOT_FOUND. */
  cancel(jobId: string): Promise<LocalJob>;
  job(jobId: string): LocalJob | null;
  settings(): LocalSettings;
  originAnswers(): OriginAnswers;
  setOriginAnswer(origin: string, answer: OriginAnswer): void;
  nonces: NonceStore;
  /** Subscribes to printer status and job changes; returns the unsubscribe function. */
  subscribe(listener: (event: LocalEvent) => void): () => void;
}
