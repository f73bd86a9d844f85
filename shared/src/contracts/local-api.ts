/**
 * The local API's wire (docs/local-api.md): the frames between a web page (the SDK) and the
 * agent's local server, its limits and error codes, and the signature payload. Both sides import
 * this one module: the agent, and the SDK, whose build inlines it so that the SDK keeps no
 * runtime dependency. It therefore imports nothing (the lint lets only this module into `sdk/`).
 */

/** The version of the local API this code speaks (`v` of every request, `localApiVersion`). */
export const LOCAL_API_VERSION = 1;

/** The WebSocket's path on the local port. */
export const LOCAL_WS_PATH = '/v1/local';

/** The ports the agent listens on by default, tried in this order by the SDK. */
export const DEFAULT_LOCAL_PORTS: readonly number[] = [21910, 21911, 21912, 21913];

/** Limits of the local protocol; each is enforced and answered with a code. */
export const LOCAL_LIMITS = {
  /** Largest request frame, in bytes (a bigger one gets TOO_LARGE; the session stays open). */
  maxMessageBytes: 8 * 1024 * 1024,
  /** Frames over this are not even read: the socket closes with 1009. */
  hardMaxMessageBytes: 16 * 1024 * 1024,
  /** Requests of one session awaiting their answer (more get UNAVAILABLE). */
  maxInFlight: 32,
  /** Open sessions at once (more are closed with UNAVAILABLE). */
  maxSessions: 64,
  /** Request ids, nonces. */
  maxIdChars: 64,
  /** How far a signature's timestamp may be from the agent's clock, in seconds. */
  signatureWindowSeconds: 300,
} as const;

export const REQUEST_TYPES = ['printers.list', 'job.print', 'job.cancel', 'job.get'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/**
 * The codes an `error` frame of the local API carries. Their status and `retryable` are in the
 * one error catalog (`ERROR_CATALOG` of @printwire/shared), which lists every one of them.
 */
export const LOCAL_ERROR_CODES = [
  'SIGNATURE_REQUIRED',
  'SIGNATURE_INVALID',
  'SIGNATURE_EXPIRED',
  'REPLAYED',
  'ORIGIN_NOT_ALLOWED',
  'ORIGIN_BLOCKED',
  'INVALID_JOB',
  'PRINTER_NOT_FOUND',
  'JOB_NOT_FOUND',
  'BAD_MESSAGE',
  'TOO_LARGE',
  /** Not in the contract's list: the agent is stopping or a limit of concurrency was reached. */
  'UNAVAILABLE',
  /** Not in the contract's list: a fault of the agent itself (logged), never the request's. */
  'INTERNAL',
] as const;
export type LocalErrorCode = (typeof LOCAL_ERROR_CODES)[number];

/**
 * The SDK's own codes, never on the wire: no agent answered (or the connection was lost), or the
 * browser refused to let the page reach the loopback.
 */
export const SDK_ERROR_CODES = ['AGENT_NOT_FOUND', 'LOCAL_ACCESS_BLOCKED'] as const;
export type SdkErrorCode = (typeof SDK_ERROR_CODES)[number];

/** What `GET /v1/info` and the `welcome` frame say about the agent. */
export interface LocalAgentInfo {
  agentVersion: string;
  deviceId: string | null;
  organizationId: string | null;
  cloud: 'connected' | 'offline' | 'not-activated';
  localApiVersion: number;
}

/** The signature of a request (docs/local-api.md, "Signed requests"). */
export interface LocalRequestAuth {
  /** What the integrator's server returned from `signPayload` (`keyId=…,signature=…`). */
  signature: string;
  /** Seconds since the epoch, when the SDK built the payload. */
  timestamp: number;
  /** 16-64 of A-Z a-z 0-9 _ -, new for each request. */
  nonce: string;
}

/** page → agent: one request; the agent answers it with `reply` or `error` (`replyTo` = `id`). */
export interface LocalRequestFrame {
  v: typeof LOCAL_API_VERSION;
  id: string;
  type: RequestType;
  body?: unknown;
  auth?: LocalRequestAuth;
}

/** The printer fields a page sees (no URI: it may name hosts of the shop's network). */
export interface LocalPrinter {
  agentPrinterId: string;
  printerId: string | null;
  name: string;
  alias: string | null;
  kind: string;
  language: string;
  paper: string | null;
  status: string;
  isDefault: boolean;
}

/** A printer's status as the `printer.status` event carries it. */
export type LocalPrinterStatusEvent = LocalPrinter & { detail: string | null; at: string };

export type LocalJobState = 'queued' | 'sending' | 'printed' | 'failed' | 'cancelled';

/** The states a local job ends in. */
export const FINAL_LOCAL_JOB_STATES: readonly LocalJobState[] = ['printed', 'failed', 'cancelled'];

/**
 * Where a `job.print` body prints (the rest of the body is POST /v1/jobs's): one printer
 * (`printerId`, or `printer` by id, alias or name), or instead `printerGroupId`, a group of the
 * agent's configuration, among whose members on this computer the agent chooses (failover or
 * round-robin, docs/local-mode.md). Naming both, or a group the agent does not know, is
 * INVALID_JOB.
 */
export interface LocalPrintTarget {
  printerId?: string;
  printer?: string | { id?: string; alias?: string; name?: string };
  printerGroupId?: string;
}

/** A local job as the page sees it. */
export interface LocalJob {
  id: string;
  source: 'local';
  idempotencyKey: string | null;
  /** The printer that has the job now (a group's job may move to another member before it starts). */
  agentPrinterId: string;
  printerId: string | null;
  /** The group the request named, else null. */
  printerGroupId: string | null;
  type: string;
  templateId: string | null;
  state: LocalJobState;
  attempt: number;
  errorCode: string | null;
  errorMessage: string | null;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** An `error` frame: the answer to a request (`replyTo`), or the refusal of a whole session. */
export interface LocalErrorFrame {
  type: 'error';
  replyTo?: string;
  code: LocalErrorCode;
  message: string;
  retryable: boolean;
  /** Per-field problems for INVALID_JOB and BAD_MESSAGE: `[{ path, message, rule?, params? }]`. */
  details?: unknown;
}

/** agent → page. */
export type LocalServerFrame =
  | { type: 'welcome'; v: number; info: LocalAgentInfo }
  | { type: 'reply'; replyTo: string; result: unknown }
  | LocalErrorFrame
  | { type: 'event'; event: 'printer.status'; data: LocalPrinterStatusEvent }
  | { type: 'event'; event: 'job'; data: LocalJob };

/** The parts of a request a signature covers. */
export interface SignedParts {
  method: string;
  path: string;
  origin: string;
  /** Hex SHA-256 of the UTF-8 of `JSON.stringify(body ?? null)`. */
  bodySha256: string;
  /** Seconds since the epoch. */
  timestamp: number;
  nonce: string;
}

const PAYLOAD_TAG = 'printwire-local-v1';
const PAYLOAD_PATTERN =
  /^printwire-local-v1\n[a-z.]{1,32}\n\/[^\n]{0,200}\n[^\n]{1,512}\n[0-9a-f]{64}\n\d{1,12}\n[A-Za-z0-9_-]{16,64}$/;

/**
 * The string a signature covers, as the SDK builds it and hands to `sign`: seven lines. `keyId`
 * is put before it by the signer (see `signedMessage`).
 */
export function signaturePayload(parts: SignedParts): string {
  return [
    PAYLOAD_TAG,
    parts.method,
    parts.path,
    parts.origin,
    parts.bodySha256,
    String(parts.timestamp),
    parts.nonce,
  ].join('\n');
}

/** Reads a payload `signaturePayload` built; null when the string is not one. */
export function parseSignaturePayload(payload: string): SignedParts | null {
  if (!PAYLOAD_PATTERN.test(payload)) return null;
  const [, method, path, origin, bodySha256, timestamp, nonce] = payload.split('\n') as string[];
  return {
    method: method!,
    path: path!,
    origin: origin!,
    bodySha256: bodySha256!,
    timestamp: Number(timestamp),
    nonce: nonce!,
  };
}

/** What the Ed25519 key signs: the key id, a newline, the payload. */
export function signedMessage(keyId: string, payload: string): string {
  return `${keyId}\n${payload}`;
}

/** What the signer answers and the page sends as `auth.signature`. */
export function signatureHeader(keyId: string, signatureBase64: string): string {
  return `keyId=${keyId},signature=${signatureBase64}`;
}
