import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

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

const PAYLOAD =
  /^printwire-local-v1\n[a-z.]{1,32}\n\/[^\n]{0,200}\n[^\n]{1,512}\n[0-9a-f]{64}\n\d{1,12}\n[A-Za-z0-9_-]{16,64}$/;

/** The parts of a payload, to check before signing (which origin, which request). */
export interface PayloadParts {
  method: string;
  path: string;
  origin: string;
  bodySha256: string;
  timestamp: number;
  nonce: string;
}

/** Reads a payload the SDK built; throws when it is not one. */
export function parsePayload(payload: string): PayloadParts {
  if (!PAYLOAD.test(payload)) throw new Error('not a Printwire local payload');
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
  const signature = sign(null, Buffer.from(`${key.keyId}\n${payload}`, 'utf8'), privateKey);
  return `keyId=${key.keyId},signature=${signature.toString('base64')}`;
}
