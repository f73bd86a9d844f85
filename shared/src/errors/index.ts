import {
  LOCAL_ERROR_CODES,
  SDK_ERROR_CODES,
  type LocalErrorCode,
  type SdkErrorCode,
} from '../contracts/local-api.js';

/**
 * The one catalog of Printwire error codes. Every error a client, an agent, a web page or a
 * webhook receiver can see carries one of these codes, whether it is retryable, and (for HTTP)
 * its status. Codes are stable: they are part of the public API, the agent protocol and the
 * local API. Which codes each side sends is listed below the catalog (`API_ERROR_CODES`, …);
 * the apps' translations are checked against those lists (test/error-catalog.test.ts).
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

  // The local API (agent ↔ web page, docs/local-api.md) and the SDK's own codes
  SIGNATURE_REQUIRED: { status: 403, retryable: false },
  SIGNATURE_INVALID: { status: 403, retryable: false },
  SIGNATURE_EXPIRED: { status: 403, retryable: false },
  REPLAYED: { status: 403, retryable: false },
  ORIGIN_NOT_ALLOWED: { status: 403, retryable: false },
  ORIGIN_BLOCKED: { status: 403, retryable: false },
  BAD_MESSAGE: { status: 400, retryable: false },
  TOO_LARGE: { status: 413, retryable: false },
  // No agent answered on this computer (the SDK says retryable when a connection was lost).
  AGENT_NOT_FOUND: { status: 503, retryable: false },
  // The browser refused to let the page reach the computer's loopback.
  LOCAL_ACCESS_BLOCKED: { status: 403, retryable: false },

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
  // The person at the agent's computer cancelled the job in the agent's window before it printed.
  CANCELLED_AT_AGENT: { status: 409, retryable: false },
  // A printer that polls the cloud took the job and never said whether it printed: it is not
  // handed over again (at most once on paper); a reprint is the user's choice.
  UNCONFIRMED: { status: 409, retryable: false },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CATALOG, code);
}

/** The codes the cloud's HTTP API answers with (`error.code` of its error bodies). */
export const API_ERROR_CODES = [
  'INVALID_JOB',
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNAUTHORIZED',
  'LICENSE_LIMIT',
  'FORBIDDEN',
  'EMAIL_NOT_VERIFIED',
  'PLAN_REQUIRED',
  'NOT_FOUND',
  'JOB_NOT_FOUND',
  'CONFLICT',
  'JOB_ALREADY_FINISHED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const satisfies readonly ErrorCode[];

/** The codes a job may end with (`job.errorCode`), set by the agents, the sandbox and the sweeper. */
export const JOB_ERROR_CODES = [
  'INVALID_JOB',
  'EXPIRED',
  'PRINTER_OFFLINE',
  'PRINTER_NOT_FOUND',
  'PAPER_OUT',
  'COVER_OPEN',
  'PRINTER_ERROR',
  'CONNECTION_REFUSED',
  'CONNECTION_LOST',
  'TIMEOUT',
  'UNSUPPORTED_JOB',
  'DOWNLOAD_FAILED',
  'DOWNLOAD_TIMEOUT',
  'DOWNLOAD_TOO_LARGE',
  'NO_BROWSER',
  'RENDER_FAILED',
  'INTERRUPTED',
  'CANCELLED_AT_AGENT',
  'UNCONFIRMED',
] as const satisfies readonly ErrorCode[];

/**
 * The codes the agent window's API answers with that the window says in its own words (an
 * activation, a cancel, a printer change, its key). It shows the message of VALIDATION_FAILED,
 * which names the field, as it is; INVALID_JSON and PAYLOAD_TOO_LARGE never reach its own pages;
 * a 5xx is "the agent failed".
 */
export const WINDOW_ERROR_CODES = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'JOB_NOT_FOUND',
  'PRINTER_NOT_FOUND',
  'CONFLICT',
  'JOB_ALREADY_FINISHED',
  'UNAVAILABLE',
] as const satisfies readonly ErrorCode[];

/**
 * The codes of the local API's error frames, and the SDK's own: listed in the local API's wire
 * module (which the SDK takes alone), each with its entry in this catalog.
 */
export { LOCAL_ERROR_CODES, SDK_ERROR_CODES, type LocalErrorCode, type SdkErrorCode };

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
