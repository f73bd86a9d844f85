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

  /** Sets the dots of (row, first column, column after the last) runs moved by (dx, dy), clipped. */
  blit(runs: Int16Array, dx: number, dy: number): void {
    const { width, height, data } = this;
    for (let r = 0; r < runs.length; r += 3) {
      const y = runs[r]! + dy;
      if (y < 0 || y >= height) continue;
      const base = y * width;
      const x1 = Math.min(width, runs[r + 2]! + dx);
      for (let x = Math.max(0, runs[r + 1]! + dx); x < x1; x++) data[base + x] = 1;
    }
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
    const { width, data } = this;
    for (let y = 0; y < this.height; y++) {
      const base = y * width;
      let o = y * rowBytes;
      for (let x = 0; x < width; x += 8, o++) {
        let byte = 0;
        const end = Math.min(8, width - x);
        for (let b = 0; b < end; b++) byte |= data[base + x + b]! << (7 - b);
        out[o] = byte;
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

/** A dot is black from this share of it covered. */
const THRESHOLD = 0.5;

/**
 * Outlines drawn into a bitmap of `width` × `height` dots. Each line segment adds its signed
 * area to an accumulation buffer (the method of font-rs); summing a row gives each dot's exact
 * coverage under the non-zero rule, overlapping contours of the same direction adding up to a
 * union.
 */
export class Outline {
  private readonly width: number;
  private readonly height: number;
  private readonly acc: Float32Array;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.acc = new Float32Array(width * height + 3);
  }

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
          const n = steps(
            Math.abs(x1 - cx) + Math.abs(y1 - cy) + Math.abs(x2 - x1) + Math.abs(y2 - y1),
          );
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
            Math.abs(x1 - cx) +
              Math.abs(y1 - cy) +
              Math.abs(x2 - x1) +
              Math.abs(y2 - y1) +
              Math.abs(x3 - x2) +
              Math.abs(y3 - y2),
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

  /** Adds the signed area of one segment to the dots it crosses (x kept within the bitmap). */
  private line(ax: number, ay: number, bx: number, by: number): void {
    if (ay === by) return;
    const w = this.width;
    const a = this.acc;
    let x0p = Math.min(Math.max(ax, 0), w);
    let y0p = ay;
    let x1p = Math.min(Math.max(bx, 0), w);
    let y1p = by;
    let dir = 1;
    if (y0p > y1p) {
      dir = -1;
      [x0p, y0p, x1p, y1p] = [x1p, y1p, x0p, y0p];
    }
    const dxdy = (x1p - x0p) / (y1p - y0p);
    let x = x0p;
    if (y0p < 0) x -= y0p * dxdy;
    const yStart = Math.max(0, Math.floor(y0p));
    const yEnd = Math.min(this.height, Math.ceil(y1p));
    for (let row = yStart; row < yEnd; row++) {
      const lineStart = row * w;
      const dy = Math.min(row + 1, y1p) - Math.max(row, y0p);
      const xnext = x + dxdy * dy;
      const d = dy * dir;
      const xa = Math.min(x, xnext);
      const xb = Math.max(x, xnext);
      const xaFloor = Math.floor(xa);
      const xai = xaFloor;
      const xbCeil = Math.ceil(xb);
      const xbi = xbCeil;
      if (xbi <= xai + 1) {
        const xmf = 0.5 * (x + xnext) - xaFloor;
        a[lineStart + xai]! += d - d * xmf;
        a[lineStart + xai + 1]! += d * xmf;
      } else {
        const s = 1 / (xb - xa);
        const xaf = xa - xaFloor;
        const a0 = 0.5 * s * (1 - xaf) * (1 - xaf);
        const xbf = xb - xbCeil + 1;
        const am = 0.5 * s * xbf * xbf;
        a[lineStart + xai]! += d * a0;
        if (xbi === xai + 2) {
          a[lineStart + xai + 1]! += d * (1 - a0 - am);
        } else {
          const a1 = s * (1.5 - xaf);
          a[lineStart + xai + 1]! += d * (a1 - a0);
          for (let xi = xai + 2; xi < xbi - 1; xi++) a[lineStart + xi]! += d * s;
          const a2 = a1 + (xbi - xai - 3) * s;
          a[lineStart + xbi - 1]! += d * (1 - a2 - am);
        }
        a[lineStart + xbi]! += d * am;
      }
      x = xnext;
    }
  }

  /** Sets the dots at least half covered, OR-ing them into `bitmap` (of the outline's size). */
  fill(bitmap: Bitmap): void {
    const a = this.acc;
    const data = bitmap.data;
    const n = this.width * this.height;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      sum += a[i]!;
      if (Math.abs(sum) >= THRESHOLD) data[i] = 1;
    }
  }
}

/** Straight pieces a curve of this length (in dots, roughly) is cut into. */
function steps(length: number): number {
  return Math.max(1, Math.min(16, Math.ceil(length / 3)));
}
