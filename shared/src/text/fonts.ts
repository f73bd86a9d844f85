/**
 * The outline fonts the project ships (`shared/fonts/scripts/`, Noto, SIL Open Font License),
 * one per script, each read and handed to HarfBuzz the first time a receipt needs it. Loading is
 * synchronous (the files are part of the package), so the receipt encoder stays synchronous.
 */
import { readFileSync } from 'node:fs';
import * as hb from 'harfbuzzjs';
import { Bitmap, Outline, type PathCommand } from './raster.js';

/** The fonts, by the name the layout uses for them. */
export const FONT_FILES = {
  arabic: 'NotoSansArabic-Regular.ttf',
  hebrew: 'NotoSansHebrew-Regular.ttf',
  thai: 'NotoSansThai-Regular.ttf',
  lao: 'NotoSansLao-Regular.ttf',
  khmer: 'NotoSansKhmer-Regular.ttf',
  devanagari: 'NotoSansDevanagari-Regular.ttf',
  bengali: 'NotoSansBengali-Regular.ttf',
  gurmukhi: 'NotoSansGurmukhi-Regular.ttf',
  gujarati: 'NotoSansGujarati-Regular.ttf',
  oriya: 'NotoSansOriya-Regular.ttf',
  tamil: 'NotoSansTamil-Regular.ttf',
  telugu: 'NotoSansTelugu-Regular.ttf',
  kannada: 'NotoSansKannada-Regular.ttf',
  malayalam: 'NotoSansMalayalam-Regular.ttf',
  sinhala: 'NotoSansSinhala-Regular.ttf',
  /** Noto Sans: Latin, Greek and Cyrillic (Greek is what it draws here). */
  greek: 'NotoSans-Regular.ttf',
  armenian: 'NotoSansArmenian-Regular.ttf',
  georgian: 'NotoSansGeorgian-Regular.ttf',
  ethiopic: 'NotoSansEthiopic-Regular.ttf',
  /** Han characters and CJK punctuation: Simplified Chinese forms unless the line says otherwise. */
  sc: 'NotoSansSC-Regular.ttf',
  /** Kana, and Han characters in a line with kana. */
  jp: 'NotoSansJP-Regular.ttf',
  /** Hangul, and Han characters in a line with Hangul. */
  kr: 'NotoSansKR-Regular.ttf',
  /** Monochrome emoji. */
  emoji: 'NotoEmoji-Regular.ttf',
} as const;

export type FontKey = keyof typeof FONT_FILES;

/** BCP 47 language given to HarfBuzz, for the forms a language prefers (Han in Japanese). */
const LANGUAGE: Partial<Record<FontKey, string>> = { sc: 'zh-Hans', jp: 'ja', kr: 'ko' };

export interface GlyphBox {
  /** Top and bottom of the ink, in font units above the baseline (bottom is negative below). */
  top: number;
  bottom: number;
  /** Left and right of the ink, in font units from the glyph's origin. */
  left: number;
  right: number;
}

/** Sub-dot positions a glyph is drawn at: quarters of a dot. */
const PHASES = 4;
/** Drawn glyphs kept per font; past this the cache starts again. */
const MAX_CACHED = 20000;

export interface LoadedFont {
  key: FontKey;
  font: hb.Font;
  upem: number;
  language: string | undefined;
  /** The glyph's outline in font units (cached). */
  outline(glyph: number): readonly PathCommand[];
  /** The glyph's ink box in font units (cached). */
  box(glyph: number): GlyphBox;
  /** Whether the font has a glyph for this code point. */
  has(codePoint: number): boolean;
  /**
   * The black dots of the glyph drawn at `scale` dots per unit with its origin at (x, y) in
   * dots: (row, first column, column after the last) triples, to be moved by (x, y) given
   * back. Drawn once per quarter-dot position and kept.
   */
  dots(
    glyph: number,
    scale: number,
    x: number,
    y: number,
  ): { runs: Int16Array; x: number; y: number };
}

const FONT_DIR = new URL('../../fonts/scripts/', import.meta.url);
const loaded = new Map<string, LoadedFont>();

function load(key: FontKey): LoadedFont {
  const file = FONT_FILES[key];
  const data = readFileSync(new URL(file, FONT_DIR));
  const face = new hb.Face(new hb.Blob(data), 0);
  const font = new hb.Font(face);
  const outlines = new Map<number, readonly PathCommand[]>();
  const boxes = new Map<number, GlyphBox>();
  const drawn = new Map<string, Int16Array>();
  const box = (glyph: number): GlyphBox => {
    let b = boxes.get(glyph);
    if (b === undefined) {
      const e = font.glyphExtents(glyph);
      b =
        e === undefined
          ? { top: 0, bottom: 0, left: 0, right: 0 }
          : {
              top: e.yBearing,
              bottom: e.yBearing + e.height,
              left: e.xBearing,
              right: e.xBearing + e.width,
            };
      boxes.set(glyph, b);
    }
    return b;
  };
  const outline = (glyph: number): readonly PathCommand[] => {
    let o = outlines.get(glyph);
    if (o === undefined) {
      o = font.glyphToJson(glyph);
      outlines.set(glyph, o);
    }
    return o;
  };
  /** The glyph drawn at origin (fx, fy) within its own small bitmap, as runs relative to it. */
  const draw = (glyph: number, scale: number, fx: number, fy: number): Int16Array => {
    const b = box(glyph);
    const left = Math.floor(fx + b.left * scale) - 1;
    const right = Math.ceil(fx + b.right * scale) + 2;
    const top = Math.floor(fy - b.top * scale) - 1;
    const bottom = Math.ceil(fy - b.bottom * scale) + 2;
    const w = Math.max(1, right - left);
    const h = Math.max(1, bottom - top);
    const bitmap = new Bitmap(w, h);
    const o = new Outline(w, h);
    o.addGlyph(outline(glyph), fx - left, fy - top, scale);
    o.fill(bitmap);
    const runs: number[] = [];
    for (let row = 0; row < h; row++) {
      let x = 0;
      while (x < w) {
        if (bitmap.data[row * w + x] === 0) {
          x++;
          continue;
        }
        const start = x;
        while (x < w && bitmap.data[row * w + x] === 1) x++;
        runs.push(row + top, start + left, x + left);
      }
    }
    return Int16Array.from(runs);
  };
  return {
    key,
    font,
    upem: face.upem,
    language: LANGUAGE[key],
    outline,
    box,
    dots(glyph, scale, x, y) {
      const ix = Math.floor(x);
      const iy = Math.floor(y);
      const fx = Math.round((x - ix) * PHASES) / PHASES;
      const fy = Math.round((y - iy) * PHASES) / PHASES;
      const id = `${glyph}/${scale}/${fx}/${fy}`;
      let runs = drawn.get(id);
      if (runs === undefined) {
        if (drawn.size >= MAX_CACHED) drawn.clear();
        runs = draw(glyph, scale, fx, fy);
        drawn.set(id, runs);
      }
      return { runs, x: ix, y: iy };
    },
    has(codePoint) {
      return font.nominalGlyph(codePoint) !== undefined;
    },
  };
}

/** The font for `key`, read from the package on first use. */
export function getScriptFont(key: FontKey): LoadedFont {
  let f = loaded.get(key);
  if (f === undefined) {
    f = load(key);
    loaded.set(key, f);
  }
  return f;
}

/** Loads every shipped font now (a long-running process may call this at start). */
export function preloadScriptFonts(): void {
  for (const key of Object.keys(FONT_FILES) as FontKey[]) getScriptFont(key);
}
