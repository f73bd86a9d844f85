/**
 * The one catalog of Printwire error codes. Every error a client, an agent or a webhook receiver
 * can see carries one of these codes, whether it is retryable, and (for HTTP) its status.
 * Codes are stable: they are part of the public API and of the agent protocol.
 */
export const ERROR_CATALOG = {
  // HTTP API (spec "Errors" and ../CONTRACT.md "Errors beyond the spec's table")
  INVALID_JOB: { status: 400, retryable: false },
  VALIDATION_FAILED: { status: 400, retryable: false },
  INVALID_JSON: { status: 400, retryable: false },
  UNAUTHORIZED: { status: 401, retryable: false },
  LICENSE_LIMIT: { status: 402, retryable: false },
  FORBIDDEN: { status: 403, retryable: false },
  EMAIL_NOT_VERIFIED: { status: 403, retryable: false },
  PLAN_REQUIRED: { status: 403, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  JOB_NOT_FOUND: { status: 404, retryable: false },
  CONFLICT: { status: 409, retryable: false },
  JOB_ALREADY_FINISHED: { status: 409, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  INTERNAL: { status: 500, retryable: true },
  UNAVAILABLE: { status: 503, retryable: true },

  // Job failures reported by agents and the sandbox (job.errorCode)
  EXPIRED: { status: 410, retryable: false },
  PRINTER_OFFLINE: { status: 503, retryable: true },
  PRINTER_NOT_FOUND: { status: 404, retryable: false },
  PAPER_OUT: { status: 503, retryable: true },
  COVER_OPEN: { status: 503, retryable: true },
  PRINTER_ERROR: { status: 503, retryable: true },
  CONNECTION_REFUSED: { status: 503, retryable: true },
  CONNECTION_LOST: { status: 503, retryable: true },
  TIMEOUT: { status: 504, retryable: true },
  UNSUPPORTED_JOB: { status: 400, retryable: false },
  DOWNLOAD_FAILED: { status: 502, retryable: true },
  DOWNLOAD_TIMEOUT: { status: 504, retryable: true },
  DOWNLOAD_TOO_LARGE: { status: 413, retryable: false },
  NO_BROWSER: { status: 503, retryable: false },
  RENDER_FAILED: { status: 400, retryable: false },
  // The agent found the job half-sent after a crash: it is not printed again (at most once on paper).
  INTERRUPTED: { status: 409, retryable: false },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CATALOG, code);
}

/**
 * The rules a field issue may name (`FieldIssue.rule`): stable words a client translates. Bounds
 * travel in `params` (`minimum`, `maximum`, `values`, `format`, `expected`).
 */
export const FIELD_RULES = [
  'required',
  'min_length',
  'max_length',
  'min_items',
  'max_items',
  'min',
  'max',
  'email',
  'url',
  'format',
  'type',
  'one_of',
  'unknown_field',
  'unique',
  'six_digits',
  'link_invalid',
  'name_mismatch',
] as const;
export type FieldRule = (typeof FIELD_RULES)[number];

/**
 * One field that failed validation: `path` as the user wrote it (`blocks[12].size`), the English
 * `message`, and where known the `rule` it broke as a stable word with its `params` (`min_length`
 * with `{ minimum: 10 }`), so that a client can say it in its user's language.
 */
export interface FieldIssue {
  path: string;
  message: string;
  rule?: FieldRule;
  params?: Record<string, string | number>;
}

/**
 * An error with a stable code. HTTP handlers turn it into the spec's body
 * `{ error: { code, message, retryable, details? }, requestId }`; agents report its code as the
 * job's errorCode.
 */
export class PrintwireError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly status: number;
  readonly details: unknown;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: unknown; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PrintwireError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.retryable = options.retryable ?? ERROR_CATALOG[code].retryable;
    this.details = options.details;
  }
}

/**
 * Formats zod-style issue paths the way users write them: `['blocks', 12, 'size']` becomes
 * `blocks[12].size`.
 */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}
