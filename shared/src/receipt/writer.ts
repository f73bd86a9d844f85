/** A growing byte buffer: the encoder writes every command and byte string into one of these. */
export class ByteWriter {
  private buf: Uint8Array;
  private len = 0;

  constructor(initialSize = 4096) {
    this.buf = new Uint8Array(initialSize);
  }

  get length(): number {
    return this.len;
  }

  private ensure(extra: number): void {
    const need = this.len + extra;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  /** Appends single bytes (command codes and parameters). */
  push(...bytes: number[]): this {
    this.ensure(bytes.length);
    for (const b of bytes) this.buf[this.len++] = b;
    return this;
  }

  /** Appends a byte string (char codes 0-255, as the codepage encoder returns). */
  text(s: string): this {
    this.ensure(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.len++] = s.charCodeAt(i);
    return this;
  }

  bytes(data: Uint8Array): this {
    this.ensure(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
    return this;
  }

  /** The bytes written so far (a copy, so the writer can go on). */
  toUint8Array(): Uint8Array {
    return this.buf.slice(0, this.len);
  }

  /** The bytes written so far, without copying. */
  view(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}
