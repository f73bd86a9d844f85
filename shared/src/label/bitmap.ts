/**
 * The drawing surface of the label renderer: a 1-bit bitmap (one byte per dot, 1 = black). Every
 * field is drawn upright into a bitmap of its own, turned to its orientation, then laid on the
 * label, black over white or, for reversed fields (^FR, ^LR, EPL LE), flipping what is under it.
 */

/** ZPL's orientations: normal, rotated 90° clockwise, inverted 180°, read from bottom up (270°). */
export type Orientation = 'N' | 'R' | 'I' | 'B';

/** The most dots one bitmap (a label, or one field) may have: 50 million, 50 MB of memory. */
export const LABEL_MAX_DOTS = 50_000_000;

/** A field (or label) asked for more dots than LABEL_MAX_DOTS: the field is not drawn. */
export class TooLargeError extends Error {}

export class Bitmap {
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    data?: Uint8Array,
  ) {
    this.width = Math.max(0, Math.floor(width));
    this.height = Math.max(0, Math.floor(height));
    if (!(this.width * this.height <= LABEL_MAX_DOTS)) {
      throw new TooLargeError(
        `${width} x ${height} dots is more than the ${LABEL_MAX_DOTS} dots drawn at most`,
      );
    }
    this.data = data ?? new Uint8Array(this.width * this.height);
  }

  get(x: number, y: number): number {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return 0;
    return this.data[y * this.width + x]!;
  }

  set(x: number, y: number, value: 0 | 1 = 1): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    this.data[y * this.width + x] = value;
  }

  /** Fills a rectangle (clipped) with black (1) or white (0). */
  fill(x: number, y: number, w: number, h: number, value: 0 | 1 = 1): void {
    const x0 = Math.max(0, Math.round(x));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y0 = Math.max(0, Math.round(y));
    const y1 = Math.min(this.height, Math.round(y + h));
    if (x1 <= x0) return;
    for (let row = y0; row < y1; row++)
      this.data.fill(value, row * this.width + x0, row * this.width + x1);
  }

  /** Lays `src` with its top-left corner at (x, y): black dots are set, or flipped when `reverse`. */
  draw(src: Bitmap, x: number, y: number, reverse = false): void {
    x = Math.round(x);
    y = Math.round(y);
    const x0 = Math.max(0, x);
    const x1 = Math.min(this.width, x + src.width);
    const y0 = Math.max(0, y);
    const y1 = Math.min(this.height, y + src.height);
    for (let row = y0; row < y1; row++) {
      const s = (row - y) * src.width - x;
      const d = row * this.width;
      for (let col = x0; col < x1; col++) {
        if (!src.data[s + col]) continue;
        if (reverse) this.data[d + col]! ^= 1;
        else this.data[d + col] = 1;
      }
    }
  }

  /** A copy turned to `orientation` (R: 90° clockwise, I: 180°, B: 270°). */
  rotate(orientation: Orientation): Bitmap {
    if (orientation === 'N') return this;
    const { width: w, height: h, data } = this;
    if (orientation === 'I') {
      const out = new Uint8Array(data.length);
      for (let i = 0; i < data.length; i++) out[data.length - 1 - i] = data[i]!;
      return new Bitmap(w, h, out);
    }
    const out = new Bitmap(h, w);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (!data[y * w + x]) continue;
        // R: (x, y) → (h-1-y, x); B: (x, y) → (y, w-1-x)
        if (orientation === 'R') out.data[x * h + (h - 1 - y)] = 1;
        else out.data[(w - 1 - x) * h + y] = 1;
      }
    }
    return out;
  }

  /** A copy scaled by whole factors (bitmap fonts and stored graphics are magnified this way). */
  magnify(mx: number, my: number): Bitmap {
    mx = Math.max(1, Math.round(mx));
    my = Math.max(1, Math.round(my));
    if (mx === 1 && my === 1) return this;
    const out = new Bitmap(this.width * mx, this.height * my);
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        if (this.data[y * this.width + x]) out.fill(x * mx, y * my, mx, my);
      }
    }
    return out;
  }
}

/** Where a point of an upright w×h box lands once the box is turned (for ^FT's baseline anchor). */
export function rotatePoint(
  orientation: Orientation,
  px: number,
  py: number,
  w: number,
  h: number,
): [number, number] {
  switch (orientation) {
    case 'N':
      return [px, py];
    case 'R':
      return [h - py, px];
    case 'I':
      return [w - px, h - py];
    case 'B':
      return [py, w - px];
  }
}

/** Fills a polygon set (non-zero winding) given as closed rings of points, into `target`. */
export function fillPolygons(target: Bitmap, rings: number[][]): void {
  let minY = Infinity;
  let maxY = -Infinity;
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i += 2) {
      minY = Math.min(minY, ring[i]!);
      maxY = Math.max(maxY, ring[i]!);
    }
  }
  const y0 = Math.max(0, Math.floor(minY));
  const y1 = Math.min(target.height - 1, Math.ceil(maxY));
  const xs: number[] = [];
  const dirs: number[] = [];
  for (let row = y0; row <= y1; row++) {
    const sy = row + 0.5; // sample at the dot's centre
    xs.length = 0;
    dirs.length = 0;
    for (const ring of rings) {
      const n = ring.length / 2;
      for (let i = 0; i < n; i++) {
        const ax = ring[i * 2]!;
        const ay = ring[i * 2 + 1]!;
        const j = (i + 1) % n;
        const bx = ring[j * 2]!;
        const by = ring[j * 2 + 1]!;
        if (ay === by) continue;
        const up = ay < by;
        const top = up ? ay : by;
        const bottom = up ? by : ay;
        if (sy < top || sy >= bottom) continue;
        xs.push(ax + ((sy - ay) * (bx - ax)) / (by - ay));
        dirs.push(up ? 1 : -1);
      }
    }
    if (xs.length < 2) continue;
    const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
    let winding = 0;
    for (let k = 0; k < order.length - 1; k++) {
      winding += dirs[order[k]!]!;
      if (winding === 0) continue;
      const from = Math.round(xs[order[k]!]!);
      const to = Math.round(xs[order[k + 1]!]!);
      if (to > from) target.fill(from, row, to - from, 1);
    }
  }
}
