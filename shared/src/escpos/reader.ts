/**
 * The byte stream as commands see it: a cursor with reads that never pass the end. A command
 * whose fixed parameters are cut off consumes the rest and is reported; a declared length larger
 * than what remains is clamped to it.
 */
import type { WarningLog } from './warnings.js';

export class ByteReader {
  pos = 0;
  /** Offset and name of the command being read, for warnings. */
  start = 0;
  command = '';

  constructor(
    readonly bytes: Uint8Array,
    readonly warnings: WarningLog,
  ) {}

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  warn(message: string): void {
    this.warnings.add(message, this.start);
  }

  /** The next `n` bytes, or undefined (everything consumed, reported) when fewer remain. */
  take(n: number): Uint8Array | undefined {
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
