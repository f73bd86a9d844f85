/**
 * The paper: a 1-bit page (one byte per dot, 1 = black) of fixed width that grows downward as the
 * printer feeds, up to a maximum height.
 */
export class PageCanvas {
  pixels: Uint8Array;
  /** Rows allocated so far. */
  private capacity: number;

  constructor(
    readonly width: number,
    readonly maxHeight: number,
  ) {
    // Large zeroed buffers are cheap to allocate: start with room for a long receipt.
    this.capacity = Math.min(maxHeight, 2048);
    this.pixels = new Uint8Array(width * this.capacity);
  }

  /** Makes rows [0, rows) writable; false when that passes the maximum height. */
  ensure(rows: number): boolean {
    if (rows > this.maxHeight) return false;
    if (rows <= this.capacity) return true;
    let capacity = this.capacity;
    while (capacity < rows) capacity *= 2;
    capacity = Math.min(capacity, this.maxHeight);
    const pixels = new Uint8Array(this.width * capacity);
    pixels.set(this.pixels);
    this.pixels = pixels;
    this.capacity = capacity;
    return true;
  }

  /** Fills (value 1) or clears (value 0) a rectangle, clipped to the page. */
  fill(x: number, y: number, w: number, h: number, value: 0 | 1 = 1): void {
    const x0 = Math.max(0, x);
    const x1 = Math.min(this.width, x + w);
    const y0 = Math.max(0, y);
    const y1 = Math.min(this.capacity, y + h);
    if (x1 <= x0) return;
    for (let row = y0; row < y1; row++) {
      const offset = row * this.width;
      this.pixels.fill(value, offset + x0, offset + x1);
    }
  }

  /** Flips a rectangle (black becomes white): invert mode's glyphs are white on black. */
  invert(x: number, y: number, w: number, h: number): void {
    const x0 = Math.max(0, x);
    const x1 = Math.min(this.width, x + w);
    const y0 = Math.max(0, y);
    const y1 = Math.min(this.capacity, y + h);
    for (let row = y0; row < y1; row++) {
      const offset = row * this.width;
      for (let col = x0; col < x1; col++) this.pixels[offset + col]! ^= 1;
    }
  }

  /** The first `height` rows (a view: valid until the canvas grows again). */
  rows(height: number): Uint8Array {
    this.ensure(height);
    return this.pixels.subarray(0, this.width * height);
  }
}
