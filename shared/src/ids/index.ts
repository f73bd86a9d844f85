/**
 * Resource ids: a type prefix and a ULID-like body (48-bit time, 80 random bits, Crockford
 * base32), so ids sort by creation time. Within one millisecond the random part is incremented,
 * which keeps ids of one process strictly increasing: list cursors (createdAt, id) stay correct
 * while new rows arrive. The cloud makes every id with it, and the agent makes the ids of local
 * jobs with it, so that a local job's id never collides with a cloud job's.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The body of an id: 10 characters of time, 16 of randomness. */
export const ID_BODY_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';

let lastTime = -1;
let lastRandom: Uint8Array = new Uint8Array(10);

/**
 * Random bytes are drawn 10 KB at a time and handed out 10 bytes per id, like randomUUID's own
 * cache: a call into the system's generator per id cost more than the rest of the id. A new pool
 * is allocated each time, so bytes already handed out never change.
 */
const POOL_BYTES = 10 * 1024;
let pool = new Uint8Array(0);
let poolOffset = 0;

function randomTen(): Uint8Array {
  if (poolOffset + 10 > pool.length) {
    pool = new Uint8Array(randomBytes(POOL_BYTES));
    poolOffset = 0;
  }
  poolOffset += 10;
  return pool.subarray(poolOffset - 10, poolOffset);
}

function incremented(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 255) {
      out[i]! += 1;
      return out;
    }
    out[i] = 0;
  }
  return out;
}

function encodeTime(ms: number): string {
  let out = '';
  let t = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32]! + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]!;
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

/** A new id such as `job_01JD3M…`; `nowMs` comes from the injected clock. */
export function newId(prefix: string, nowMs: number): string {
  let random: Uint8Array;
  if (nowMs <= lastTime) {
    random = incremented(lastRandom);
    nowMs = lastTime;
  } else {
    random = randomTen();
    lastTime = nowMs;
  }
  lastRandom = random;
  return `${prefix}_${encodeTime(nowMs)}${encodeRandom(random)}`;
}

/** Whether `value` is an id that `newId(prefix, …)` could have made. */
export function isId(prefix: string, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value.slice(prefix.length + 1));
}

const ID_PATTERN = new RegExp(`^${ID_BODY_PATTERN}$`);
