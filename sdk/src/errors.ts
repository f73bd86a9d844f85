/**
 * Codes a `PrintwireError` carries: the local API's (docs/local-api.md) and two of the SDK's own:
 * `AGENT_NOT_FOUND` (no agent answered on any port, or the connection was lost) and
 * `LOCAL_ACCESS_BLOCKED` (the browser refused to let the page reach the computer's loopback).
 */
export type PrintwireErrorCode =
  | 'SIGNATURE_REQUIRED'
  | 'SIGNATURE_INVALID'
  | 'SIGNATURE_EXPIRED'
  | 'REPLAYED'
  | 'ORIGIN_NOT_ALLOWED'
  | 'ORIGIN_BLOCKED'
  | 'INVALID_JOB'
  | 'PRINTER_NOT_FOUND'
  | 'JOB_NOT_FOUND'
  | 'BAD_MESSAGE'
  | 'TOO_LARGE'
  | 'UNAVAILABLE'
  | 'INTERNAL'
  | 'TIMEOUT'
  | 'AGENT_NOT_FOUND'
  | 'LOCAL_ACCESS_BLOCKED';

/** Every error the SDK throws or rejects with. */
export class PrintwireError extends Error {
  readonly code: PrintwireErrorCode;
  readonly retryable: boolean;
  /** Per-field problems for INVALID_JOB and BAD_MESSAGE: `[{ path, message }]`. */
  readonly details: unknown;

  constructor(code: PrintwireErrorCode, message: string, retryable = false, details?: unknown) {
    super(message);
    this.name = 'PrintwireError';
    this.code = code;
    this.retryable = retryable;
    this.details = details;
  }
}
