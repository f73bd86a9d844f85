/**
 * Webhook signatures: `Printwire-Signature: t=<unix seconds>,v1=<hex>` where v1 is the hex
 * HMAC-SHA256 of `${t}.${rawBody}` keyed with the endpoint's whole secret (`whsec_…` included).
 * Customers verify with `verifyWebhookSignature` on the raw body bytes, before JSON parsing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Printwire-Signature';
export const EVENT_ID_HEADER = 'Printwire-Event-Id';
export const WEBHOOK_USER_AGENT = 'Printwire-Webhooks/1';
/** Seconds a signature's timestamp may differ from the receiver's clock (spec: 300). */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

type RawBody = string | Uint8Array;

function hmacHex(secret: string, timestamp: number, rawBody: RawBody): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(rawBody);
  return hmac.digest('hex');
}

/**
 * Signs a delivery. Returns the `Printwire-Signature` header value.
 * @param timestamp unix seconds (an integer)
 */
export function signWebhookPayload(secret: string, timestamp: number, rawBody: RawBody): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError('timestamp: must be a non-negative integer of unix seconds');
  }
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

export type WebhookVerification =
  | { ok: true; timestamp: number }
  | {
      ok: false;
      reason: 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch';
      message: string;
    };

export interface VerifyOptions {
  /** Largest accepted distance between `t` and now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock in unix seconds; defaults to the system clock. */
  now?: number;
}

/**
 * Verifies a `Printwire-Signature` header against the raw body. Several `v1=` values are allowed
 * (any match passes), so a receiver keeps working while a secret rotates. Comparison is in
 * constant time.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  rawBody: RawBody,
  options: VerifyOptions = {},
): WebhookVerification {
  const tolerance = options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of (header ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) {
    return {
      ok: false,
      reason: 'malformed_header',
      message: 'Printwire-Signature: expected "t=<unix seconds>,v1=<64 hex digits>"',
    };
  }
  if (Math.abs(now - timestamp) > tolerance) {
    return {
      ok: false,
      reason: 'timestamp_out_of_tolerance',
      message: `Printwire-Signature: t is ${Math.abs(now - timestamp)} s from now, more than the ${tolerance} s allowed`,
    };
  }
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex');
  const match = signatures.some((sig) => timingSafeEqual(expected, Buffer.from(sig, 'hex')));
  return match
    ? { ok: true, timestamp }
    : {
        ok: false,
        reason: 'signature_mismatch',
        message: 'Printwire-Signature: no v1 matches the body',
      };
}
