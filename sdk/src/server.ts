import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import {
  parseSignaturePayload,
  signatureHeader,
  signedMessage,
  type SignedParts,
} from '@printwire/shared/contracts/local-api';

/**
 * @printwire/sdk/server: signs the payloads the browser SDK's `sign` callback hands to your
 * server, with an organization signing key (Ed25519, PKCS#8 PEM as the dashboard showed it once).
 */
export interface SigningKey {
  /** The signing key's id (`GET /orgs/{orgId}/signing-keys`). */
  keyId: string;
  /** PKCS#8 PEM, or a KeyObject. */
  privateKey: string | KeyObject;
}

/** The parts of a payload, to check before signing (which origin, which request). */
export type PayloadParts = SignedParts;

/** Reads a payload the SDK built; throws when it is not one. */
export function parsePayload(payload: string): PayloadParts {
  const parts = parseSignaturePayload(payload);
  if (!parts) throw new Error('not a Printwire local payload');
  return parts;
}

/**
 * Returns the string the page gives back from `sign`: `keyId=<id>,signature=<base64>`, an
 * Ed25519 signature over the key id and the payload. With `options.origins`, refuses (throws)
 * a payload from any other origin: your endpoint should sign only for your own pages.
 */
export function signPayload(
  key: SigningKey,
  payload: string,
  options: { origins?: string[] } = {},
): string {
  const parts = parsePayload(payload);
  if (options.origins && !options.origins.includes(parts.origin)) {
    throw new Error(`refusing to sign for origin ${parts.origin}`);
  }
  const privateKey =
    typeof key.privateKey === 'string' ? createPrivateKey(key.privateKey) : key.privateKey;
  const signature = sign(null, Buffer.from(signedMessage(key.keyId, payload), 'utf8'), privateKey);
  return signatureHeader(key.keyId, signature.toString('base64'));
}
