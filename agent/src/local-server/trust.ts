import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { LocalApiError, type LocalErrorCode } from './errors.js';
import type { LocalSettings, OriginAnswers } from './local-store.js';
import { LOCAL_LIMITS, signaturePayload, signedMessage, type RequestAuth } from './protocol.js';

/**
 * Who may print locally (docs/local-mode.md): the organization's settings, the person's answers
 * per origin, and signatures. Pure decisions over the inputs; the nonce store and the prompt are
 * passed in.
 */

/** The person's answer to "this page wants to print": the desktop shell's prompt. */
export type OriginPromptAnswer = 'once' | 'always' | 'block';
export type OriginPrompt = (origin: string) => Promise<OriginPromptAnswer>;

/** Remembers a nonce; false when it was seen within the signature window. */
export interface NonceStore {
  remember(nonce: string, nowSeconds: number): boolean;
}

/** `http://localhost:*` and `http://127.0.0.1:*`: where dev mode lets pages print unsigned. */
export function isDevOrigin(origin: string): boolean {
  return /^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/.test(origin);
}

export type OriginVerdict =
  /** Unsigned requests from this origin print. */
  | { kind: 'open' }
  /** Each request is judged: signed ones may print, unsigned ones need the person's answer. */
  | { kind: 'judge' }
  /** No way to print from here: the session gets this code and is closed. */
  | { kind: 'refuse'; code: LocalErrorCode; message: string };

/**
 * What an origin may do, decided when its session opens (and for CORS): the contract's order of
 * codes is SIGNATURE_REQUIRED, then ORIGIN_BLOCKED, then ORIGIN_NOT_ALLOWED.
 */
export function judgeOrigin(
  origin: string,
  settings: LocalSettings,
  answers: OriginAnswers,
  canAsk: boolean,
): OriginVerdict {
  if (settings.devModeEnabled && isDevOrigin(origin)) return { kind: 'open' };
  const hasKeys = settings.signingKeys.length > 0;
  if (settings.requireSignature) {
    return hasKeys
      ? { kind: 'judge' }
      : {
          kind: 'refuse',
          code: 'SIGNATURE_REQUIRED',
          message: 'this organization requires signed requests and has no signing key',
        };
  }
  if (settings.allowedOrigins.includes(origin)) return { kind: 'open' };
  const answer = answers[origin]?.answer;
  if (answer === 'allow' && settings.unsignedModeEnabled) return { kind: 'open' };
  if (hasKeys) return { kind: 'judge' };
  if (answer === 'block') {
    return {
      kind: 'refuse',
      code: 'ORIGIN_BLOCKED',
      message: `the person at this computer blocked ${origin}`,
    };
  }
  if (settings.unsignedModeEnabled && canAsk) return { kind: 'judge' };
  return {
    kind: 'refuse',
    code: 'ORIGIN_NOT_ALLOWED',
    message: `${origin} is not an allowed origin of this organization`,
  };
}

/** The SHA-256 of a request body as signed: hex of the UTF-8 JSON the page sent (`null` if none). */
export function bodySha256(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body ?? null), 'utf8')
    .digest('hex');
}

const SIGNATURE_FORMAT =
  /^keyId=([A-Za-z0-9_.-]{1,128}),signature=([A-Za-z0-9+/_-]{40,200}={0,2})$/;

/** Verifies Ed25519 signatures with the organization's public keys (parsed once per key). */
export class SignatureVerifier {
  #keys = new Map<string, KeyObject>();
  #source: LocalSettings['signingKeys'] | null = null;

  #key(settings: LocalSettings, keyId: string): KeyObject | null {
    if (this.#source !== settings.signingKeys) {
      this.#keys = new Map();
      for (const k of settings.signingKeys) {
        try {
          this.#keys.set(k.id, createPublicKey(k.publicKey));
        } catch {
          // A key that does not parse verifies nothing.
        }
      }
      this.#source = settings.signingKeys;
    }
    return this.#keys.get(keyId) ?? null;
  }

  /**
   * Throws the right LocalApiError unless `auth` is a valid signature over this request by a key
   * of the organization, within ±300 s, with a nonce not seen in that window.
   */
  check(
    request: { method: string; path: string; origin: string; body: unknown; auth: RequestAuth },
    settings: LocalSettings,
    nonces: NonceStore,
    nowSeconds: number,
  ): { keyId: string } {
    const { auth } = request;
    const parts = SIGNATURE_FORMAT.exec(auth.signature);
    if (!parts) {
      throw new LocalApiError(
        'SIGNATURE_INVALID',
        'auth.signature must be keyId=<id>,signature=<base64> as signPayload returns it',
      );
    }
    const keyId = parts[1]!;
    const key = this.#key(settings, keyId);
    if (!key) {
      throw new LocalApiError('SIGNATURE_INVALID', `signing key ${keyId} is unknown or revoked`);
    }
    const payload = signaturePayload({
      method: request.method,
      path: request.path,
      origin: request.origin,
      bodySha256: bodySha256(request.body),
      timestamp: auth.timestamp,
      nonce: auth.nonce,
    });
    const signature = Buffer.from(
      parts[2]!,
      parts[2]!.includes('-') || parts[2]!.includes('_') ? 'base64url' : 'base64',
    );
    const ok = verify(null, Buffer.from(signedMessage(keyId, payload), 'utf8'), key, signature);
    if (!ok) {
      throw new LocalApiError(
        'SIGNATURE_INVALID',
        'the signature does not match this request (method, path, origin, body, timestamp or nonce changed, or another key signed it)',
      );
    }
    if (Math.abs(nowSeconds - auth.timestamp) > LOCAL_LIMITS.signatureWindowSeconds) {
      throw new LocalApiError(
        'SIGNATURE_EXPIRED',
        `the signature's timestamp is more than ${LOCAL_LIMITS.signatureWindowSeconds} s from the agent's clock`,
      );
    }
    if (!nonces.remember(auth.nonce, nowSeconds)) {
      throw new LocalApiError('REPLAYED', 'this nonce was used already');
    }
    return { keyId };
  }
}
