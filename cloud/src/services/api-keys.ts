/**
 * API keys: `pw_live_…` and `pw_test_…` followed by 32 random characters. Only the SHA-256 of a
 * key is stored; the prefix shown in the dashboard is its first 12 characters.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Mode } from '../storage/types.js';

const KEY_PATTERN = /^pw_(live|test)_[A-Za-z0-9]{32}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function generateApiKey(mode: Mode): { key: string; hash: string; prefix: string } {
  const bytes = randomBytes(32);
  let body = '';
  for (const b of bytes) body += ALPHABET[b % ALPHABET.length];
  const key = `pw_${mode}_${body}`;
  return { key, hash: hashSecret(key), prefix: key.slice(0, 12) };
}

/** SHA-256 hex of a secret (API keys, activation codes, device tokens). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The mode a key's text names, or undefined when it is not shaped like a Printwire key. */
export function keyMode(key: string): Mode | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] as Mode) : undefined;
}
