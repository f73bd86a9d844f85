import { z } from 'zod';

/**
 * The local API's WebSocket protocol (docs/local-api.md): JSON text frames. The page sends
 * requests `{ v, id, type, body?, auth? }`; the agent answers each with `reply` or `error`
 * (`replyTo` = the request's id) and pushes `event`s. Version 1.
 */
export const LOCAL_API_VERSION = 1;

/** The WebSocket's path on the local port. */
export const LOCAL_WS_PATH = '/v1/local';

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

export const authSchema = z.strictObject({
  /** What the integrator's server returned from `signPayload` (`keyId=…,signature=…`). */
  signature: z.string().min(1).max(512),
  /** Seconds since the epoch, when the SDK built the payload. */
  timestamp: z.number().int().min(0),
  nonce: z
    .string()
    .min(16)
    .max(LOCAL_LIMITS.maxIdChars)
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'letters, digits, _ and - only' }),
});
export type RequestAuth = z.infer<typeof authSchema>;

export const requestSchema = z.strictObject({
  v: z.literal(LOCAL_API_VERSION, { error: `v must be ${LOCAL_API_VERSION}` }),
  id: z.string().min(1).max(LOCAL_LIMITS.maxIdChars),
  type: z.enum(REQUEST_TYPES),
  body: z.unknown().optional(),
  auth: authSchema.optional(),
});
export type LocalRequest = z.infer<typeof requestSchema>;

export const jobIdBodySchema = z.strictObject({ jobId: z.string().min(1).max(128) });

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

export type LocalJobState = 'queued' | 'sending' | 'printed' | 'failed' | 'cancelled';

/** A local job as the page sees it. */
export interface LocalJob {
  id: string;
  source: 'local';
  idempotencyKey: string | null;
  agentPrinterId: string;
  printerId: string | null;
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

export type ServerFrame =
  | { type: 'welcome'; v: number; info: unknown }
  | { type: 'reply'; replyTo: string; result: unknown }
  | {
      type: 'error';
      replyTo?: string;
      code: string;
      message: string;
      retryable: boolean;
      details?: unknown;
    }
  | { type: 'event'; event: 'printer.status'; data: unknown }
  | { type: 'event'; event: 'job'; data: LocalJob };

/**
 * The string a signature covers, as the SDK builds it and hands to `sign`. `keyId` is put
 * before it by the signer (see `signedMessage`).
 */
export function signaturePayload(parts: {
  method: string;
  path: string;
  origin: string;
  bodySha256: string;
  timestamp: number;
  nonce: string;
}): string {
  return [
    'printwire-local-v1',
    parts.method,
    parts.path,
    parts.origin,
    parts.bodySha256,
    String(parts.timestamp),
    parts.nonce,
  ].join('\n');
}

/** What the Ed25519 key signs: the key id, a newline, the payload. */
export function signedMessage(keyId: string, payload: string): string {
  return `${keyId}\n${payload}`;
}
