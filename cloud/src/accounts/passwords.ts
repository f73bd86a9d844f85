/**
 * Password hashing: Argon2id (m = 19 MiB, t = 2, p = 1, OWASP's first choice). Hashes made by
 * the first `admin bootstrap` (scrypt, `scrypt$salt$hash`) are still verified by their prefix.
 * Passwords are never truncated: the whole text, up to the 200 characters the API accepts, is
 * hashed.
 */
import { hash, verify } from '@node-rs/argon2';
import { scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;

/** @node-rs/argon2's `Algorithm.Argon2id` (a const enum its types declare). */
const ARGON2ID = 2;

export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export async function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** True when `password` matches `stored` (Argon2 PHC string, or the bootstrap scrypt form). */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (stored.startsWith('scrypt$')) {
    const [, salt, expected] = stored.split('$');
    if (!salt || !expected) return false;
    const want = Buffer.from(expected, 'base64url');
    const got = await scryptAsync(password, Buffer.from(salt, 'base64url'), want.length);
    return got.length === want.length && timingSafeEqual(got, want);
  }
  if (!stored.startsWith('$argon2')) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification when there is no account, so that a wrong e-mail and a
 * wrong password take as long as each other.
 */
export async function verifyNothing(password: string): Promise<void> {
  dummy ??= hashPassword('printwire-no-such-account');
  await verifyPassword(await dummy, password);
}
