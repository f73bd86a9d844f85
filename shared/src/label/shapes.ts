/** Boxes, circles, ellipses and diagonals as the label printer draws them (ZPL ^GB ^GC ^GE ^GD, EPL X). */
import { Bitmap } from './bitmap.js';

/**
 * A box `w`×`h` with borders `t` dots thick (a box thinner than twice its border is solid), its
 * corners rounded by `rounding` 0-8 (radius = rounding/8 of half the shorter side, as ^GB says).
 */
export function drawBox(w: number, h: number, t: number, rounding = 0): Bitmap {
  t = Math.max(1, Math.round(t));
  w = Math.max(t, Math.round(w));
  h = Math.max(t, Math.round(h));
  const box = new Bitmap(w, h);
  const r = Math.round((Math.min(w, h) / 2) * (Math.max(0, Math.min(8, rounding)) / 8));
  if (r <= 0) {
    box.fill(0, 0, w, h);
    if (w > 2 * t && h > 2 * t) box.fill(t, t, w - 2 * t, h - 2 * t, 0);
    return box;
  }
  const inside = (
    x: number,
    y: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    rr: number,
  ) => {
    if (x < x0 || x >= x1 || y < y0 || y >= y1) return false;
    const cx = x < x0 + rr ? x0 + rr : x >= x1 - rr ? x1 - rr : x;
    const cy = y < y0 + rr ? y0 + rr : y >= y1 - rr ? y1 - rr : y;
    if (cx === x || cy === y) return true;
    return Math.hypot(x - cx, y - cy) <= rr;
  };
  const ri = Math.max(0, r - t);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      if (!inside(px, py, 0, 0, w, h, r)) continue;
      if (w > 2 * t && h > 2 * t && inside(px, py, t, t, w - t, h - t, ri)) continue;
      box.set(x, y);
    }
  }
  return box;
}

/** An ellipse `w`×`h` with a border `t` dots thick (^GE; ^GC is the w = h case). */
export function drawEllipse(w: number, h: number, t: number): Bitmap {
  w = Math.max(1, Math.round(w));
  h = Math.max(1, Math.round(h));
  t = Math.max(1, Math.round(t));
  const out = new Bitmap(w, h);
  const a = w / 2;
  const b = h / 2;
  const ai = a - t;
  const bi = b - t;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dx = x + 0.5 - a;
      const dy = y + 0.5 - b;
      if ((dx * dx) / (a * a) + (dy * dy) / (b * b) > 1) continue;
      if (ai > 0 && bi > 0 && (dx * dx) / (ai * ai) + (dy * dy) / (bi * bi) < 1) continue;
      out.set(x, y);
    }
  }
  return out;
}

/**
 * A diagonal line in a `w`×`h` box, `t` dots thick measured across (^GD): `R` (or `/`) leans
 * right, rising from bottom left to top right; `L` (or `\`) from top left to bottom right.
 */
export function drawDiagonal(w: number, h: number, t: number, lean: string): Bitmap {
  t = Math.max(1, Math.round(t));
  w = Math.max(t, Math.round(w));
  h = Math.max(1, Math.round(h));
  const out = new Bitmap(w, h);
  const right = lean !== 'L' && lean !== '\\';
  for (let y = 0; y < h; y++) {
    const f = h === 1 ? 0 : y / (h - 1);
    const start = Math.round((w - t) * (right ? 1 - f : f));
    out.fill(start, y, t, 1);
  }
  return out;
}
