/**
 * The error codes of the local API (docs/local-api.md). Stable: pages and the SDK branch on them.
 * `retryable` says whether the same request may succeed later without a change.
 */
export const LOCAL_ERRORS = {
  SIGNATURE_REQUIRED: { retryable: false, status: 403 },
  SIGNATURE_INVALID: { retryable: false, status: 403 },
  SIGNATURE_EXPIRED: { retryable: false, status: 403 },
  REPLAYED: { retryable: false, status: 403 },
  ORIGIN_NOT_ALLOWED: { retryable: false, status: 403 },
  ORIGIN_BLOCKED: { retryable: false, status: 403 },
  INVALID_JOB: { retryable: false, status: 400 },
  PRINTER_NOT_FOUND: { retryable: false, status: 404 },
  JOB_NOT_FOUND: { retryable: false, status: 404 },
  BAD_MESSAGE: { retryable: false, status: 400 },
  TOO_LARGE: { retryable: false, status: 413 },
  /** Not in the contract's list: the agent is stopping or a limit of concurrency was reached. */
  UNAVAILABLE: { retryable: true, status: 503 },
  /** Not in the contract's list: a fault of the agent itself (logged), never the request's. */
  INTERNAL: { retryable: true, status: 500 },
} as const;

export type LocalErrorCode = keyof typeof LOCAL_ERRORS;

/** An error the local API answers with; its message is for the page's developer. */
export class LocalApiError extends Error {
  readonly code: LocalErrorCode;
  readonly details: unknown;

  constructor(code: LocalErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'LocalApiError';
    this.code = code;
    this.details = details;
  }

  get retryable(): boolean {
    return LOCAL_ERRORS[this.code].retryable;
  }
}
