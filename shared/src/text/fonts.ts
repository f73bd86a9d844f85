/**
 * The outline fonts the project ships (`shared/fonts/scripts/`, Noto, SIL Open Font License),
 * one per script, each read and handed to HarfBuzz the first time a receipt needs it. Loading is
 * synchronous (the files are part of the package), so the receipt encoder stays synchronous.
 */
import { readFileSync } from 'node:fs';
import * as hb from 'harfbuzzjs';
import type { PathCommand } from './raster.js';

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
}

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
  return {
    key,
    font,
    upem: face.upem,
    language: LANGUAGE[key],
    outline(glyph) {
      let o = outlines.get(glyph);
      if (o === undefined) {
        o = font.glyphToJson(glyph);
        outlines.set(glyph, o);
      }
      return o;
    },
    box(glyph) {
      let b = boxes.get(glyph);
      if (b === undefined) {
        const e = font.glyphExtents(glyph);
        b =
          e === undefined
            ? { top: 0, bottom: 0 }
            : { top: e.yBearing, bottom: e.yBearing + e.height };
        boxes.set(glyph, b);
      }
      return b;
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
