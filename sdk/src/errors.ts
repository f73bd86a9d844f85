import type { LocalErrorCode, SdkErrorCode } from '@printwire/shared/contracts/local-api';

/**
 * Codes a `PrintwireError` carries: the local API's (docs/local-api.md) and the SDK's own:
 * `AGENT_NOT_FOUND` (no agent answered on any port, or the connection was lost),
 * `LOCAL_ACCESS_BLOCKED` (the browser refused to let the page reach the computer's loopback). All
 * are in Printwire's one error catalog.
 */
export type PrintwireErrorCode = LocalErrorCode | SdkErrorCode;

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
