/**
 * The label printer's fonts. Font 0 (Zebra's scalable CG Triumvirate Bold Condensed) is drawn
 * from Roboto Condensed Bold (`shared/fonts/`, Apache 2.0), each character on the advance, ink
 * offset and ink width measured on Labelary's renders (`font0-metrics.ts`); characters Roboto
 * lacks come from DejaVu Sans Condensed Bold (Bitstream Vera licence). The bitmap fonts A-H are
 * the virtual receipt printer's Terminus cells resampled to the cell sizes of the ZPL manual's
 * font matrix, then magnified by whole factors as the printer magnifies them. Glyphs are cached
 * per size.
 */
import { readFileSync } from 'node:fs';
// @ts-expect-error opentype.js ships no types: the few shapes font 0 uses are declared below.
import opentypeModule from 'opentype.js';
import { getFont as getTerminus, type BitmapFont } from '../escpos/fonts.js';
import { Bitmap, fillPolygons } from './bitmap.js';
import { FONT0_METRICS } from './font0-metrics.js';

/** A run of text drawn upright: its bitmap and the row of its baseline. */
export interface TextBitmap {
  bitmap: Bitmap;
  baseline: number;
  /** Font 0 only: where each character's glyph was drawn in `bitmap` (for measuring, `bench/font0-fit.ts`). */
  glyphs?: PlacedGlyph[];
}

/** One character of a line of font 0: its glyph and the dot of `bitmap` where its top left was drawn. */
export interface PlacedGlyph {
  char: string;
  bitmap: Bitmap;
  x: number;
  y: number;
  /** The pen position before this character, in dots from the line's start (fractional). */
  pen: number;
  advance: number;
}

/** A font as a field asks for it: its name (ZPL letter or digit), height and width in dots. */
export interface FontRequest {
  name: string;
  height: number;
  width: number;
}

/** Cell height × width and the gap after each character, in dots, for 6 and 8 dots/mm (ZPL manual, "Font Matrices"). */
export const BITMAP_FONTS: Record<string, { h: number; w: number; gap: number; baseline: number }> =
  {
    A: { h: 9, w: 5, gap: 1, baseline: 7 },
    B: { h: 11, w: 7, gap: 2, baseline: 11 },
    C: { h: 18, w: 10, gap: 2, baseline: 14 },
    D: { h: 18, w: 10, gap: 2, baseline: 14 },
    E: { h: 28, w: 15, gap: 5, baseline: 23 },
    F: { h: 26, w: 13, gap: 3, baseline: 21 },
    G: { h: 60, w: 40, gap: 8, baseline: 48 },
    H: { h: 21, w: 13, gap: 6, baseline: 21 },
  };

// ---- font 0 ----------------------------------------------------------------------------------

// The part of opentype.js (which ships no types) that font 0 uses.
interface PathCommand {
  type: 'M' | 'L' | 'Q' | 'C' | 'Z';
  x?: number;
  y?: number;
  x1?: number;
  y1?: number;
  x2?: number;
  y2?: number;
}
interface Glyph {
  advanceWidth?: number;
  getPath(x: number, y: number, fontSize: number): { commands: PathCommand[] };
}
interface Font {
  unitsPerEm: number;
  ascender: number;
  descender: number;
  charToGlyph(char: string): Glyph;
  hasChar(char: string): boolean;
}

// A static import (not a require at run time), so that bundles of the agent carry it.
const opentype = opentypeModule as { parse(buffer: ArrayBuffer): Font };

const loaded = new Map<string, Font>();
/** A font shipped in shared/fonts, read and parsed once. */
function shippedFont(name: string): Font {
  let font = loaded.get(name);
  if (!font) {
    const file = readFileSync(new URL(`../../fonts/${name}`, import.meta.url));
    font = opentype.parse(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
    loaded.set(name, font);
  }
  return font;
}

const font0 = (): Font => shippedFont('RobotoCondensed-Bold.ttf');
const fallback0 = (): Font => shippedFont('DejaVuSansCondensed-Bold.ttf');

/**
 * Font 0's baseline sits this far down its cell (Labelary: the best fit on 49 carrier labels,
 * 9 to 355 dots high), and its capitals are this share of the cell high and start at its top.
 */
const FONT0_ASCENT = 0.745;
const FONT0_CAP_HEIGHT = 0.758;

/** How each face is drawn: its capitals' height in its em, and its width against the printer's. */
interface FaceFit {
  /** Capital height over the em (the face's own). */
  capHeight: number;
  /** A line `w` dots wide takes this share of the face's own advances at `w` dots. */
  width: number;
  /** Capitals A-Z drawn this much wider still. */
  capitals: number;
}
/** Roboto Condensed: advances fitted per character (below); others at the face's own width. */
const ROBOTO_FIT: FaceFit = { capHeight: 0.711, width: 1, capitals: 1 };
/**
 * DejaVu Sans Condensed Bold (characters Roboto lacks): 0.783 of its width, capitals 5 % wider
 * (measured on Labelary's renders when DejaVu drew every character).
 */
const DEJAVU_FIT: FaceFit = { capHeight: 0.729, width: 0.783, capitals: 1.05 };

interface ScaledGlyph {
  bitmap: Bitmap;
  /** Left edge of the bitmap relative to the pen. */
  left: number;
  /** Top of the bitmap relative to the baseline (negative: above). */
  top: number;
  advance: number;
}

const glyphCache = new Map<string, ScaledGlyph>();

function flatten(commands: PathCommand[]): number[][] {
  const rings: number[][] = [];
  let ring: number[] = [];
  let cx = 0;
  let cy = 0;
  const close = () => {
    if (ring.length >= 6) rings.push(ring);
    ring = [];
  };
  for (const c of commands) {
    if (c.type === 'M') {
      close();
      cx = c.x!;
      cy = c.y!;
      ring.push(cx, cy);
    } else if (c.type === 'L') {
      cx = c.x!;
      cy = c.y!;
      ring.push(cx, cy);
    } else if (c.type === 'Q' || c.type === 'C') {
      const steps = 6;
      for (let i = 1; i <= steps; i++) {
        const t = i / steps;
        const u = 1 - t;
        let x: number;
        let y: number;
        if (c.type === 'Q') {
          x = u * u * cx + 2 * u * t * c.x1! + t * t * c.x!;
          y = u * u * cy + 2 * u * t * c.y1! + t * t * c.y!;
        } else {
          x = u * u * u * cx + 3 * u * u * t * c.x1! + 3 * u * t * t * c.x2! + t * t * t * c.x!;
          y = u * u * u * cy + 3 * u * u * t * c.y1! + 3 * u * t * t * c.y2! + t * t * t * c.y!;
        }
        ring.push(x, y);
      }
      cx = c.x!;
      cy = c.y!;
    } else close();
  }
  close();
  return rings;
}

function scalableGlyph(char: string, height: number, width: number): ScaledGlyph {
  const key = `${char}\u0000${height}\u0000${width}`;
  let glyph = glyphCache.get(key);
  if (glyph) return glyph;
  const roboto = font0();
  const font = roboto.hasChar(char) || !fallback0().hasChar(char) ? roboto : fallback0();
  const fit = font === roboto ? ROBOTO_FIT : DEJAVU_FIT;
  const g = font.charToGlyph(char);
  const size = (height * FONT0_CAP_HEIGHT) / fit.capHeight;
  const sx = ((width * fit.width) / size) * (/[A-Z]/.test(char) ? fit.capitals : 1);
  const rings = flatten(g.getPath(0, 0, size).commands).map((ring) =>
    ring.map((v, i) => (i % 2 === 0 ? v * sx : v)),
  );
  let advance = (((g.advanceWidth ?? font.unitsPerEm / 2) * size) / font.unitsPerEm) * sx;
  const measured = FONT0_METRICS[char];
  if (measured && char !== '-') {
    // The printer's advance; the ink scaled with it, moved by the measured offset, then
    // widened or narrowed about its middle to the measured ink width.
    const [advanceShare, offsetShare, inkShare] = measured;
    const k = (advanceShare * width) / advance;
    advance = advanceShare * width;
    const box = ringBounds(rings);
    const inkWidth = (box.maxX - box.minX) * k;
    const middle = ((box.minX + box.maxX) / 2) * k + offsetShare * width;
    const m = inkWidth > 0 ? Math.max(0.5, (inkWidth + inkShare * width) / inkWidth) : 1;
    for (const ring of rings)
      for (let i = 0; i < ring.length; i += 2)
        ring[i] = middle + (ring[i]! * k + offsetShare * width - middle) * m;
  }
  const { minX, maxX } = ringBounds(rings);
  if (char === '-' && maxX > minX) {
    // The printer's hyphen is a long dash: 0.58 of the width in ink, 0.18 in from the pen, 0.93
    // of the width in advance (Labelary, "G-FAM" at 90 dots).
    const k = (0.58 * width) / (maxX - minX);
    const shift = 0.18 * width;
    for (const ring of rings)
      for (let i = 0; i < ring.length; i += 2) ring[i] = (ring[i]! - minX) * k + shift;
    advance = 0.93 * width;
  }
  glyph = ringsGlyph(rings, advance);
  if (glyphCache.size > 20_000) glyphCache.clear();
  glyphCache.set(key, glyph);
  return glyph;
}

function drawScalable(text: string, height: number, width: number, spacing = 0): TextBitmap {
  const chars = [...text];
  const glyphs = chars.map((c) => scalableGlyph(c, height, width));
  let pen = 0;
  const pens: number[] = [];
  for (const g of glyphs) {
    pens.push(pen);
    pen += g.advance + spacing;
  }
  // Each glyph starts on a whole dot, as the printer's (Labelary's) do: placing them at the
  // fractional pen measured worse.
  const baseline = Math.round(height * FONT0_ASCENT);
  const bitmap = new Bitmap(Math.max(1, Math.round(pen - spacing)), height);
  const placed: PlacedGlyph[] = glyphs.map((g, i) => ({
    char: chars[i]!,
    bitmap: g.bitmap,
    x: Math.round(pens[i]!) + g.left,
    y: baseline + g.top,
    pen: pens[i]!,
    advance: g.advance,
  }));
  for (const p of placed) bitmap.draw(p.bitmap, p.x, p.y);
  return { bitmap, baseline, glyphs: placed };
}

// ---- bitmap fonts A-H ------------------------------------------------------------------------

const cellCache = new Map<string, Bitmap>();

/** One character in a font's base cell: the Terminus glyph resampled, a dot set where any source dot is. */
function bitmapCell(source: BitmapFont, code: number, w: number, h: number): Bitmap {
  const key = `${source.name}${code},${w},${h}`;
  let cell = cellCache.get(key);
  if (cell) return cell;
  const glyph = source.glyphs.get(code) ?? source.missing;
  const src = new Bitmap(source.width, source.height);
  for (let i = 0; i < glyph.runs.length; i += 3) {
    src.fill(glyph.runs[i + 1]!, glyph.runs[i]!, glyph.runs[i + 2]! - glyph.runs[i + 1]!, 1);
  }
  // The source cell carries its own spacing (one column right, rows above and below): trim it so
  // the letter fills the printer's cell.
  const sx0 = 0;
  const sx1 = source.width - 1;
  const sy0 = Math.round(source.height * 0.12);
  const sy1 = source.height - Math.round(source.height * 0.04);
  cell = new Bitmap(w, h);
  for (let y = 0; y < h; y++) {
    const fy0 = sy0 + Math.floor(((sy1 - sy0) * y) / h);
    const fy1 = Math.max(fy0 + 1, sy0 + Math.floor(((sy1 - sy0) * (y + 1)) / h));
    for (let x = 0; x < w; x++) {
      const fx0 = sx0 + Math.floor(((sx1 - sx0) * x) / w);
      const fx1 = Math.max(fx0 + 1, sx0 + Math.floor(((sx1 - sx0) * (x + 1)) / w));
      let on = 0;
      let all = 0;
      for (let yy = fy0; yy < fy1; yy++) {
        for (let xx = fx0; xx < fx1; xx++) {
          on += src.get(xx, yy);
          all++;
        }
      }
      if (on * 4 >= all) cell.set(x, y);
    }
  }
  if (cellCache.size > 20_000) cellCache.clear();
  cellCache.set(key, cell);
  return cell;
}

/** A cell font: `h`×`w` cells, `gap` dots between characters, magnified `mx`×`my`. */
export interface CellFont {
  h: number;
  w: number;
  gap: number;
  baseline: number;
}

/** Draws text in a cell font (ZPL A-H, EPL 1-5), each cell magnified by whole factors. */
export function drawCellFont(text: string, spec: CellFont, mx: number, my: number): TextBitmap {
  const source = getTerminus(spec.h >= 18 ? 'A' : 'B');
  const chars = [...text];
  const step = (spec.w + spec.gap) * mx;
  const bitmap = new Bitmap(Math.max(1, chars.length * step - spec.gap * mx), spec.h * my);
  chars.forEach((c, i) => {
    const cell = bitmapCell(source, c.codePointAt(0)!, spec.w, spec.h).magnify(mx, my);
    bitmap.draw(cell, i * step, 0);
  });
  return { bitmap, baseline: spec.baseline * my };
}

const monoFont = (): Font => shippedFont('DejaVuSansMono.ttf');

/** DejaVu Sans Mono's advance, in ems. */
const MONO_ADVANCE = 0.602;

/**
 * ZPL's bitmap fonts A-H as Labelary draws them: a monospaced sans (DejaVu Sans Mono) sized so
 * that its advance is the magnified cell's pitch, (w + gap) × mx dots, on the cell's baseline
 * (the font matrix's, magnified); a taller magnification stretches it vertically.
 */
/**
 * How far each monospaced letter sits right of its cell's middle, in cells: a tenth of a cell to
 * the left, as Labelary draws them (fitted on its renders of 49 carrier labels, bitmap fonts A-H
 * and interpretation lines at 6 to 40 dots a letter: 25 of the labels under 1 % of their dots
 * apart as printed instead of 19).
 */
const MONO_SHIFT = -0.1;

export function drawMonoCells(text: string, spec: CellFont, mx: number, my: number): TextBitmap {
  const font = monoFont();
  const pitch = (spec.w + spec.gap) * mx;
  const emX = pitch / MONO_ADVANCE;
  const emY = (emX * (my * spec.h)) / (mx * (spec.w + spec.gap)) / 1.5;
  const baseline = spec.baseline * my;
  const chars = [...text];
  // The last letter's ink may reach into the gap after it.
  const bitmap = new Bitmap(Math.max(1, chars.length * pitch), spec.h * my);
  chars.forEach((c, i) => {
    const key = `mono${c}\u0000${emX}\u0000${emY}`;
    let glyph = glyphCache.get(key);
    if (!glyph) {
      const rings = flatten(font.charToGlyph(c).getPath(0, 0, emY).commands).map((ring) =>
        ring.map((v, k) => (k % 2 === 0 ? (v * emX) / emY + MONO_SHIFT * pitch : v)),
      );
      glyph = ringsGlyph(rings, pitch);
      glyphCache.set(key, glyph);
    }
    bitmap.draw(glyph.bitmap, i * pitch + glyph.left, baseline + glyph.top);
  });
  return { bitmap, baseline };
}

/** The box of outline rings (x, y pairs). */
function ringBounds(rings: number[][]): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const ring of rings) {
    for (let i = 0; i < ring.length; i += 2) {
      minX = Math.min(minX, ring[i]!);
      maxX = Math.max(maxX, ring[i]!);
      minY = Math.min(minY, ring[i + 1]!);
      maxY = Math.max(maxY, ring[i + 1]!);
    }
  }
  return { minX, minY, maxX, maxY };
}

/** Outline rings (dots, y down from the baseline) filled into a glyph bitmap. */
function ringsGlyph(rings: number[][], advance: number): ScaledGlyph {
  const { minX, minY, maxX, maxY } = ringBounds(rings);
  if (rings.length === 0) return { bitmap: new Bitmap(0, 0), left: 0, top: 0, advance };
  const left = Math.floor(minX);
  const top = Math.floor(minY);
  const bitmap = new Bitmap(Math.ceil(maxX) - left + 1, Math.ceil(maxY) - top + 1);
  fillPolygons(
    bitmap,
    rings.map((ring) => ring.map((v, i) => v - (i % 2 === 0 ? left : top))),
  );
  return { bitmap, left, top, advance };
}

function drawBitmapFont(text: string, name: string, height: number, width: number): TextBitmap {
  const spec = BITMAP_FONTS[name]!;
  const my = Math.max(1, Math.min(10, Math.round(height / spec.h) || 1));
  const mx = width > 0 ? Math.max(1, Math.min(10, Math.round(width / spec.w) || 1)) : my;
  return drawMonoCells(text, spec, mx, my);
}

/** Whether a ZPL font name is one of the built-in bitmap fonts (else it is drawn as font 0). */
export function isBitmapFont(name: string): boolean {
  return name in BITMAP_FONTS;
}

/** The cell size a font request resolves to (bitmap fonts snap to whole magnifications). */
export function cellSize(req: FontRequest): { height: number; width: number } {
  const spec = BITMAP_FONTS[req.name];
  if (!spec) return { height: req.height, width: req.width || req.height };
  const my = Math.max(1, Math.min(10, Math.round(req.height / spec.h) || 1));
  const mx = req.width > 0 ? Math.max(1, Math.min(10, Math.round(req.width / spec.w) || 1)) : my;
  return { height: spec.h * my, width: (spec.w + spec.gap) * mx };
}

/** Draws one line of text upright in the requested font. */
export function drawText(text: string, req: FontRequest): TextBitmap {
  if (isBitmapFont(req.name)) return drawBitmapFont(text, req.name, req.height, req.width);
  const height = Math.max(1, Math.round(req.height));
  const width = Math.max(1, Math.round(req.width || req.height));
  return drawScalable(text, height, width);
}

/** The width in dots of a line of text in the requested font, without drawing it. */
export function measureText(text: string, req: FontRequest): number {
  if (isBitmapFont(req.name)) {
    const spec = BITMAP_FONTS[req.name]!;
    const { width } = cellSize(req);
    const n = [...text].length;
    const mx = width / (spec.w + spec.gap);
    return Math.max(0, n * width - spec.gap * mx);
  }
  const height = Math.max(1, Math.round(req.height));
  const width = Math.max(1, Math.round(req.width || req.height));
  let pen = 0;
  for (const c of text) pen += scalableGlyph(c, height, width).advance;
  return Math.round(pen);
}
