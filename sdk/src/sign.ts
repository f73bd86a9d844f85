/** The string the agent verifies: see docs/local-api.md, "Signed requests". */
export { signaturePayload } from '@printwire/shared/contracts/local-api';

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** Hex SHA-256 of a string's UTF-8 (WebCrypto: a secure context, which localhost and https are). */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** A fresh 128-bit nonce, as hex. */
export function newNonce(): string {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}
