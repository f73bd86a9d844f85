/**
 * The rasteriser: glyph outlines (lines, quadratic and cubic curves, as HarfBuzz draws them) filled
 * into a one-bit bitmap of printer dots with the non-zero winding rule. Each dot is sampled on
 * four sub-rows, with exact coverage along the row; a dot is black when at least half of it is
 * covered, as a thermal head prints it. Pure arithmetic: the same outline gives the same dots on
 * every machine.
 */

/** One byte per dot (0 white, 1 black), row after row. */
export class Bitmap {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.data = new Uint8Array(width * height);
  }

  get(x: number, y: number): number {
    return this.data[y * this.width + x]!;
  }

  /** Sets (black) the dots of a rectangle, clipped to the bitmap. */
  fill(x: number, y: number, w: number, h: number): void {
    const x0 = Math.max(0, x);
    const x1 = Math.min(this.width, x + w);
    const y0 = Math.max(0, y);
    const y1 = Math.min(this.height, y + h);
    for (let row = y0; row < y1; row++)
      this.data.fill(1, row * this.width + x0, row * this.width + x1);
  }

  /** Turns black to white and white to black in a rectangle (white on black print). */
  invert(x: number, y: number, w: number, h: number): void {
    const x0 = Math.max(0, x);
    const x1 = Math.min(this.width, x + w);
    const y0 = Math.max(0, y);
    const y1 = Math.min(this.height, y + h);
    for (let row = y0; row < y1; row++) {
      for (let i = row * this.width + x0; i < row * this.width + x1; i++) this.data[i]! ^= 1;
    }
  }

  /** Emphasis: each black dot also blackens the `dots` dots to its right (the printer's double strike). */
  embolden(dots: number): void {
    for (let row = 0; row < this.height; row++) {
      const base = row * this.width;
      for (let x = this.width - 1; x >= 0; x--) {
        if (this.data[base + x] === 1) continue;
        for (let d = 1; d <= dots && x - d >= 0; d++) {
          if (this.data[base + x - d] === 1) {
            this.data[base + x] = 2; // marked, so that the new dots do not spread further
            break;
          }
        }
      }
      for (let x = 0; x < this.width; x++) if (this.data[base + x] === 2) this.data[base + x] = 1;
    }
  }

  /** The rows packed 8 dots a byte, most significant bit first, as `GS v 0` takes them. */
  packRows(): { rowBytes: number; data: Uint8Array } {
    const rowBytes = Math.ceil(this.width / 8);
    const out = new Uint8Array(rowBytes * this.height);
    for (let y = 0; y < this.height; y++) {
      const base = y * this.width;
      for (let x = 0; x < this.width; x++) {
        if (this.data[base + x] === 1) out[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
      }
    }
    return { rowBytes, data: out };
  }
}

/** A path command as HarfBuzz gives it (`glyphToJson`), in font units, y up. */
export interface PathCommand {
  type: string;
  values: number[];
}

const SUBROWS = 4;
/** A dot is black from this share of it covered. */
const THRESHOLD = 0.5;

/** Line segments in dot coordinates (y down), collected from outlines and then filled at once. */
export class Outline {
  private readonly segs: number[] = [];

  /**
   * Adds a glyph outline placed with its origin at (`x`, `y`) in dots and scaled by `scale` dots
   * per font unit (the font's y axis points up, the bitmap's down).
   */
  addGlyph(commands: readonly PathCommand[], x: number, y: number, scale: number): void {
    let cx = 0;
    let cy = 0;
    let sx = 0;
    let sy = 0;
    const px = (v: number) => x + v * scale;
    const py = (v: number) => y - v * scale;
    for (const c of commands) {
      const v = c.values;
      switch (c.type) {
        case 'M':
          if (cx !== sx || cy !== sy) this.line(cx, cy, sx, sy);
          cx = sx = px(v[0]!);
          cy = sy = py(v[1]!);
          break;
        case 'L': {
          const nx = px(v[0]!);
          const ny = py(v[1]!);
          this.line(cx, cy, nx, ny);
          cx = nx;
          cy = ny;
          break;
        }
        case 'Q': {
          const x1 = px(v[0]!);
          const y1 = py(v[1]!);
          const x2 = px(v[2]!);
          const y2 = py(v[3]!);
          const n = steps(Math.hypot(x1 - cx, y1 - cy) + Math.hypot(x2 - x1, y2 - y1));
          let lx = cx;
          let ly = cy;
          for (let i = 1; i <= n; i++) {
            const t = i / n;
            const u = 1 - t;
            const nx = u * u * cx + 2 * u * t * x1 + t * t * x2;
            const ny = u * u * cy + 2 * u * t * y1 + t * t * y2;
            this.line(lx, ly, nx, ny);
            lx = nx;
            ly = ny;
          }
          cx = x2;
          cy = y2;
          break;
        }
        case 'C': {
          const x1 = px(v[0]!);
          const y1 = py(v[1]!);
          const x2 = px(v[2]!);
          const y2 = py(v[3]!);
          const x3 = px(v[4]!);
          const y3 = py(v[5]!);
          const n = steps(
            Math.hypot(x1 - cx, y1 - cy) +
              Math.hypot(x2 - x1, y2 - y1) +
              Math.hypot(x3 - x2, y3 - y2),
          );
          let lx = cx;
          let ly = cy;
          for (let i = 1; i <= n; i++) {
            const t = i / n;
            const u = 1 - t;
            const nx = u * u * u * cx + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3;
            const ny = u * u * u * cy + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3;
            this.line(lx, ly, nx, ny);
            lx = nx;
            ly = ny;
          }
          cx = x3;
          cy = y3;
          break;
        }
        case 'Z':
          if (cx !== sx || cy !== sy) this.line(cx, cy, sx, sy);
          cx = sx;
          cy = sy;
          break;
      }
    }
    if (cx !== sx || cy !== sy) this.line(cx, cy, sx, sy);
  }

  private line(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return; // horizontal edges cross no scanline
    this.segs.push(x0, y0, x1, y1);
  }

  /** Fills the outline into `bitmap` (non-zero winding), OR-ing black dots into what is there. */
  fill(bitmap: Bitmap): void {
    const segs = this.segs;
    const n = segs.length / 4;
    if (n === 0) return;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      minY = Math.min(minY, segs[i * 4 + 1]!, segs[i * 4 + 3]!);
      maxY = Math.max(maxY, segs[i * 4 + 1]!, segs[i * 4 + 3]!);
    }
    const rowStart = Math.max(0, Math.floor(minY));
    const rowEnd = Math.min(bitmap.height, Math.ceil(maxY));
    // Edges sorted by their top, so that each sub-row only looks at the edges it may cross.
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) =>
        Math.min(segs[a * 4 + 1]!, segs[a * 4 + 3]!) - Math.min(segs[b * 4 + 1]!, segs[b * 4 + 3]!),
    );
    const width = bitmap.width;
    const coverage = new Float64Array(width + 1);
    const xs: number[] = [];
    const dirs: number[] = [];
    let first = 0;
    let active: number[] = [];
    for (let row = rowStart; row < rowEnd; row++) {
      coverage.fill(0);
      for (let s = 0; s < SUBROWS; s++) {
        const y = row + (s + 0.5) / SUBROWS;
        while (
          first < n &&
          Math.min(segs[order[first]! * 4 + 1]!, segs[order[first]! * 4 + 3]!) <= y
        ) {
          active.push(order[first]!);
          first++;
        }
        active = active.filter((e) => Math.max(segs[e * 4 + 1]!, segs[e * 4 + 3]!) > y);
        xs.length = 0;
        dirs.length = 0;
        for (const e of active) {
          const x0 = segs[e * 4]!;
          const y0 = segs[e * 4 + 1]!;
          const x1 = segs[e * 4 + 2]!;
          const y1 = segs[e * 4 + 3]!;
          const top = Math.min(y0, y1);
          if (y < top) continue;
          const t = (y - y0) / (y1 - y0);
          xs.push(x0 + t * (x1 - x0));
          dirs.push(y1 > y0 ? 1 : -1);
        }
        const idx = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
        let winding = 0;
        let spanStart = 0;
        for (const i of idx) {
          const before = winding;
          winding += dirs[i]!;
          if (before === 0 && winding !== 0) spanStart = xs[i]!;
          else if (before !== 0 && winding === 0) addSpan(coverage, width, spanStart, xs[i]!);
        }
      }
      const base = row * width;
      for (let x = 0; x < width; x++) {
        if (coverage[x]! >= THRESHOLD * SUBROWS) bitmap.data[base + x] = 1;
      }
    }
  }
}

/** Straight pieces a curve of this length (in dots) is cut into. */
function steps(length: number): number {
  return Math.max(1, Math.min(24, Math.ceil(length / 2)));
}

/** Adds the coverage of the span [a, b) of one sub-row to the dots it crosses. */
function addSpan(coverage: Float64Array, width: number, a: number, b: number): void {
  const x0 = Math.max(0, a);
  const x1 = Math.min(width, b);
  if (x1 <= x0) return;
  const i0 = Math.floor(x0);
  const i1 = Math.floor(x1);
  if (i0 === i1) {
    coverage[i0]! += x1 - x0;
    return;
  }
  coverage[i0]! += i0 + 1 - x0;
  for (let i = i0 + 1; i < i1; i++) coverage[i]! += 1;
  if (i1 < width) coverage[i1]! += x1 - i1;
}
