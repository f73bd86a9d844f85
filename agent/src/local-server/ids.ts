import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A job id in the cloud's format (`job_` + 48-bit time and 80 random bits in Crockford base32,
 * 26 characters), so a job made here never collides with one the cloud made and sorts by time
 * beside them in GET /v1/jobs.
 */
export function newLocalJobId(now: number): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let random = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      random += ALPHABET[(value >>> (bits - 5)) & 31]!;
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return `job_${time}${random}`;
}
