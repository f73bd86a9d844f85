/**
 * The byte stream as commands see it: a cursor with reads that never pass the end. While more
 * data may come (`final` false), a read past the end throws NEED_MORE and the interpreter waits
 * for the next chunk; at the end, a command whose fixed parameters are cut off consumes the rest
 * and is reported, and a declared length larger than what remains is clamped to it.
 */
import type { WarningLog } from './warnings.js';

/** Thrown by a read that needs bytes not received yet; the command is retried on more data. */
export const NEED_MORE: unique symbol = Symbol('need more bytes');

export class ByteReader {
  pos = 0;
  /** Position and name of the command being read, for warnings. */
  start = 0;
  command = '';

  constructor(
    readonly bytes: Uint8Array,
    readonly warnings: WarningLog,
    /** Offset of `bytes[0]` in the whole stream. */
    readonly base = 0,
    /** Whether these are the last bytes of the stream. */
    readonly final = true,
  ) {}

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  /** Offset of the current command in the whole stream. */
  get offset(): number {
    return this.base + this.start;
  }

  warn(message: string): void {
    this.warnings.add(message, this.offset);
  }

  /** Throws NEED_MORE when `n` more bytes are needed and the stream has not ended. */
  private wait(n: number): void {
    if (!this.final && this.pos + n > this.bytes.length) throw NEED_MORE;
  }

  /** The next `n` bytes, or undefined (everything consumed, reported) when fewer remain. */
  take(n: number): Uint8Array | undefined {
    this.wait(n);
    if (this.pos + n > this.bytes.length) {
      this.warn(`${this.command} cut off by the end of the data`);
      this.pos = this.bytes.length;
      return undefined;
    }
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** One parameter byte, or undefined when the data ends first. */
  byte(): number | undefined {
    return this.take(1)?.[0];
  }

  /** `n` bytes of declared data, clamped (and reported) to what remains. */
  data(n: number): Uint8Array {
    this.wait(n);
    if (n > this.remaining) {
      this.warn(`${this.command} declares ${n} bytes of data but only ${this.remaining} remain`);
      n = this.remaining;
    }
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Bytes up to a NUL (consumed, not returned); undefined when no NUL comes within `max`. */
  untilNul(max: number): Uint8Array | undefined {
    const end = Math.min(this.bytes.length, this.pos + max + 1);
    for (let i = this.pos; i < end; i++) {
      if (this.bytes[i] === 0) {
        const out = this.bytes.subarray(this.pos, i);
        this.pos = i + 1;
        return out;
      }
    }
    if (end === this.bytes.length && end < this.pos + max + 1) this.wait(max + 1);
    return undefined;
  }
}

/** `ESC a`, `GS ( k` …: how warnings name a command. */
export function commandName(prefix: number, code: number): string {
  const p = prefix === 0x1b ? 'ESC' : prefix === 0x1d ? 'GS' : prefix === 0x1c ? 'FS' : 'DLE';
  const c = code > 0x20 && code < 0x7f ? String.fromCharCode(code) : `0x${hex(code)}`;
  return `${p} ${c}`;
}

export function hex(byte: number): string {
  return byte.toString(16).toUpperCase().padStart(2, '0');
}
