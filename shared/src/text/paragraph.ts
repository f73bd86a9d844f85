/**
 * One paragraph of receipt text laid out in printer dots: split into runs by script (each drawn
 * by its font, or by the printer's own font for the text the code page carries), ordered by the
 * Unicode bidirectional algorithm (bidi-js), shaped by HarfBuzz, and broken into lines where
 * `Intl.Segmenter` finds words (between any two words, or characters, of the scripts written
 * without spaces).
 */
import bidiModule from 'bidi-js';
import * as hb from 'harfbuzzjs';
import { getScriptFont, type FontKey, type LoadedFont } from './fonts.js';
import { Bitmap } from './raster.js';
import { breaksAnywhere, charClass, type CharClass } from './script.js';

/** The printer's own text: its code page and its bitmap font (the cell every column is). */
export interface PrinterText {
  /** The byte string of `text` in the code page (one char code per cell). */
  encode(text: string): string;
  /** Whether the code page has this character as it is. */
  carries(codePoint: number): boolean;
  /** Whether the code page has something to print instead of this character (not '?'). */
  replaces(char: string): boolean;
  /** The bitmap of a byte of the code page: (row, first column, column after the last) triples. */
  glyph(byte: number): { runs: Int16Array };
  /** The font's cell in dots at size 1, and the row under its baseline. */
  cellWidth: number;
  cellHeight: number;
  baseline: number;
}

/** Size multiplier (1-8) of the text, as GS ! gives it to the printer's font. */
export interface LineStyle {
  size: number;
  bold: boolean;
  underline: boolean;
  invert: boolean;
}

type RunKey = FontKey | 'text';

interface Piece {
  start: number;
  end: number;
  key: RunKey;
  level: number;
}

/** What a laid-out line is made of, left to right. */
export type LineItem =
  | { kind: 'cells'; x: number; bytes: string }
  | { kind: 'native'; x: number; text: string }
  | {
      kind: 'glyphs';
      x: number;
      font: LoadedFont;
      scale: number;
      glyphs: { id: number; x: number; y: number }[];
    };

/** A line ready to draw: its width and its ink above and below the baseline, in dots. */
export interface LaidLine {
  width: number;
  ascent: number;
  descent: number;
  items: LineItem[];
}

// bidi-js is CommonJS: Node gives its factory as the default import, TypeScript the namespace.
type BidiFactory = typeof bidiModule.default;
const bidiExport = bidiModule as unknown as BidiFactory | { default: BidiFactory };
const bidi = (typeof bidiExport === 'function' ? bidiExport : bidiExport.default)();
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const FORMAT = /\p{Cf}/gu;
/** Punctuation that follows a word and is drawn in its script's font. */
const ATTACHED_PUNCTUATION = ',.;:!?';
/** Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko… and their presentation forms) or bidi controls. */
const RTL_OR_CONTROL =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069]|\ud802[\udc00-\udfff]|\ud803[\udc00-\ude7f]|\ud83a[\udc00-\udfff]|\ud83b[\udc00-\udeff]/;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** CJK punctuation a line must not start with (closing marks, small kana, the prolonged sound mark). */
const NO_LINE_START = new Set(
  '、。，．：；？！）」』】〕〉》〙〗ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・…'.split(''),
);
/** CJK punctuation a line must not end with (opening marks). */
const NO_LINE_END = new Set('（「『【〔〈《〘〖'.split(''));

/** The visible text of a paragraph: tabs become spaces, control characters go. */
export function cleanText(text: string): string {
  return text.replace(/\t/g, ' ').replace(CONTROL, '');
}

/** Whether the first strong character (bidi class L, R or AL) of `text` is right to left. */
export function firstStrongIsRtl(text: string): boolean {
  for (const ch of text) {
    const type = bidi.getBidiCharTypeName(ch);
    if (type === 'L') return false;
    if (type === 'R' || type === 'AL') return true;
  }
  return false;
}

/** Whether the paragraph has a run the code page cannot carry (then it is drawn, not sent as text). */
export function needsRaster(text: string, printer: PrinterText): boolean {
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x300 || printer.carries(cp)) continue;
    const cls = charClass(cp);
    if (cls !== 'text' && cls !== 'mark' && cls !== 'space') return true;
  }
  return false;
}

export class Paragraph {
  readonly text: string;
  /** The paragraph's direction: right to left when its first strong character is. */
  readonly rtl: boolean;
  private readonly printer: PrinterText;
  private readonly size: number;
  private readonly levels: Uint8Array;
  private readonly runs: { start: number; end: number; key: RunKey }[];
  private breaks: number[] | undefined;
  private native: ReadonlySet<FontKey> = new Set();

  constructor(text: string, printer: PrinterText, size: number) {
    this.text = cleanText(text);
    this.printer = printer;
    this.size = size;
    if (RTL_OR_CONTROL.test(this.text)) {
      const embedding = bidi.getEmbeddingLevels(this.text, 'auto');
      this.levels = embedding.levels;
      this.rtl = (embedding.paragraphs[0]?.level ?? 0) % 2 === 1;
    } else {
      // Nothing right-to-left: every character at level 0.
      this.levels = new Uint8Array(this.text.length);
      this.rtl = false;
    }
    this.runs = this.itemize();
  }

  /** Splits the text into runs of one font (or of the printer's text). */
  private itemize(): { start: number; end: number; key: RunKey }[] {
    const text = this.text;
    const cps: { start: number; end: number; cls: CharClass }[] = [];
    let hasKana = false;
    let hasHangul = false;
    for (let i = 0; i < text.length;) {
      const cp = text.codePointAt(i)!;
      const len = cp > 0xffff ? 2 : 1;
      let cls = charClass(cp);
      if (cls === 'text' && /\p{Cf}/u.test(String.fromCodePoint(cp))) cls = 'mark';
      if (cls === 'kana') hasKana = true;
      if (cls === 'hangul') hasHangul = true;
      cps.push({ start: i, end: i + len, cls });
      i += len;
    }
    const fontOf = (cls: CharClass): RunKey => {
      if (cls === 'han') return hasKana ? 'jp' : hasHangul ? 'kr' : 'sc';
      if (cls === 'kana') return 'jp';
      if (cls === 'hangul') return 'kr';
      if (cls === 'text' || cls === 'mark' || cls === 'space') return 'text';
      return cls;
    };
    const keys: RunKey[] = cps.map((c) => fontOf(c.cls));
    // Marks go with the character before them.
    for (let i = 0; i < cps.length; i++) {
      if (cps[i]!.cls === 'mark') keys[i] = i > 0 ? keys[i - 1]! : 'text';
    }
    // Punctuation after a word of a script goes with it, in its font (a comma after Hindi).
    for (let i = 1; i < cps.length; i++) {
      const key = keys[i - 1]!;
      if (key === 'text' || keys[i] !== 'text') continue;
      const cp = text.codePointAt(cps[i]!.start)!;
      if (ATTACHED_PUNCTUATION.includes(String.fromCodePoint(cp)) && getScriptFont(key).has(cp)) {
        keys[i] = key;
      }
    }
    // Spaces between two words of one script belong to it (its font's spaces).
    for (let i = 0; i < cps.length; i++) {
      if (cps[i]!.cls !== 'space') continue;
      let j = i;
      while (j < cps.length && cps[j]!.cls === 'space') j++;
      const before = i > 0 ? keys[i - 1]! : 'text';
      const after = j < cps.length ? keys[j]! : 'text';
      const key = before === after ? before : 'text';
      for (let k = i; k < j; k++) keys[k] = key;
      i = j - 1;
    }
    // A symbol the code page lacks and cannot stand in for (₪ in CP437), in a drawn line: drawn
    // from the font of the script before it, or Noto Sans, or the emoji font.
    for (let i = 0; i < cps.length; i++) {
      const cp = text.codePointAt(cps[i]!.start)!;
      if (keys[i] !== 'text' || cp < 0x80 || this.printer.carries(cp)) continue;
      const char = String.fromCodePoint(cp);
      if (/\p{L}|\p{M}|\p{Cf}|\s/u.test(char) || this.printer.replaces(char)) continue;
      const before = i > 0 ? keys[i - 1]! : 'text';
      const candidates: FontKey[] =
        before === 'text' ? ['greek', 'emoji'] : [before, 'greek', 'emoji'];
      const key = candidates.find((k) => getScriptFont(k).has(cp));
      if (key !== undefined) keys[i] = key;
    }
    const runs: { start: number; end: number; key: RunKey }[] = [];
    for (let i = 0; i < cps.length; i++) {
      const last = runs[runs.length - 1];
      if (last !== undefined && last.key === keys[i]) last.end = cps[i]!.end;
      else runs.push({ start: cps[i]!.start, end: cps[i]!.end, key: keys[i]! });
    }
    // A run whose every letter the code page has stays the printer's text (Greek in CP437 does not).
    for (const run of runs) {
      if (run.key === 'text') continue;
      const letters = [...text.slice(run.start, run.end).normalize('NFC')].filter(
        (c) => charClass(c.codePointAt(0)!) !== 'space' && !/\p{M}|\p{Cf}/u.test(c),
      );
      if (letters.every((c) => this.printer.carries(c.codePointAt(0)!))) run.key = 'text';
    }
    const merged: typeof runs = [];
    for (const run of runs) {
      const last = merged[merged.length - 1];
      if (last !== undefined && last.key === run.key) last.end = run.end;
      else merged.push({ ...run });
    }
    return merged;
  }

  /**
   * Lets the printer print runs of these fonts' scripts as text of its own (two columns a
   * character), when every run of the paragraph is text or one of them; says whether it did.
   */
  useNative(keys: ReadonlySet<FontKey>, apply = true): boolean {
    if (keys.size === 0 || !this.runs.every((r) => r.key === 'text' || keys.has(r.key))) {
      return false;
    }
    if (apply) this.native = keys;
    return true;
  }

  /** Whether any run is drawn from a script font. */
  get raster(): boolean {
    return this.runs.some((r) => r.key !== 'text');
  }

  /** Where a line may start: after spaces, between words of scripts without spaces, between CJK characters. */
  private breakOpportunities(): number[] {
    const text = this.text;
    const clsAt = (i: number) => charClass(text.codePointAt(i)!);
    const isSpace = (i: number) => clsAt(i) === 'space';
    const out = new Set<number>();
    const segs = [...words.segment(text)];
    for (let k = 1; k < segs.length; k++) {
      const at = segs[k]!.index;
      const prev = segs[k - 1]!.segment;
      if (isSpace(at)) continue;
      const before = prev.codePointAt(prev.length - 1 - (/[\udc00-\udfff]$/.test(prev) ? 1 : 0))!;
      if (charClass(before) === 'space') out.add(at);
      else if (breaksAnywhere(charClass(before)) && breaksAnywhere(clsAt(at))) out.add(at);
    }
    // Han and kana: between any two characters, save before closing and after opening marks.
    for (const g of graphemes.segment(text)) {
      const at = g.index;
      if (at === 0) continue;
      const prev = text[at - 1]!;
      const next = text[at]!;
      const a = clsAt(at - 1 - (/[\udc00-\udfff]/.test(prev) ? 1 : 0));
      const b = clsAt(at);
      if ((a === 'han' || a === 'kana') && (b === 'han' || b === 'kana')) {
        if (!NO_LINE_START.has(next) && !NO_LINE_END.has(prev)) out.add(at);
      } else if (NO_LINE_START.has(next)) {
        out.delete(at);
      }
    }
    return [...out].sort((x, y) => x - y);
  }

  /** The lines of the paragraph within `width` dots. */
  lines(width: number): LaidLine[] {
    const text = this.text;
    const n = text.length;
    const isSpaceAt = (i: number) => i < n && charClass(text.codePointAt(i)!) === 'space';
    const skipSpaces = (i: number) => {
      while (isSpaceAt(i)) i++;
      return i;
    };
    const trimEnd = (s: number, e: number) => {
      while (e > s && charClass(text.codePointAt(e - 1)!) === 'space') e--;
      return e;
    };
    const out: LaidLine[] = [];
    let start = skipSpaces(0);
    if (start >= n) return [this.layout(0, 0)];
    // Most receipt lines fit whole.
    const whole = this.layout(start, trimEnd(start, n));
    if (whole.width <= width) return [whole];
    this.breaks ??= this.breakOpportunities();
    const ends = [...this.breaks, n];
    while (start < n) {
      let best = -1;
      let bestLine: LaidLine | undefined;
      for (const b of ends) {
        if (b <= start) continue;
        const e = trimEnd(start, b);
        if (e <= start) continue;
        const line = this.layout(start, e);
        if (line.width > width) break;
        best = b;
        bestLine = line;
      }
      if (bestLine === undefined) {
        // A word longer than the line: cut it between characters.
        const next = ends.find((b) => b > start) ?? n;
        let cut = -1;
        for (const g of graphemes.segment(text.slice(start, next))) {
          const at = start + g.index + g.segment.length;
          const line = this.layout(start, at);
          if (line.width > width && cut !== -1) break;
          cut = at;
          bestLine = line;
          if (line.width > width) break;
        }
        best = cut;
      }
      out.push(bestLine!);
      start = skipSpaces(best);
    }
    return out;
  }

  /** Lays out the characters [start, end) as one line, in visual order. */
  private layout(start: number, end: number): LaidLine {
    const pieces: Piece[] = [];
    for (const run of this.runs) {
      const s = Math.max(start, run.start);
      const e = Math.min(end, run.end);
      if (s >= e) continue;
      let i = s;
      while (i < e) {
        const level = this.levels[i]!;
        let j = i + 1;
        while (j < e && this.levels[j] === level) j++;
        pieces.push({ start: i, end: j, key: run.key, level });
        i = j;
      }
    }
    // Rule L2: from the highest level down to the lowest odd one, reverse each sequence at or above it.
    if (pieces.length > 1) {
      const max = Math.max(...pieces.map((p) => p.level));
      const minOdd = Math.min(...pieces.map((p) => (p.level % 2 === 1 ? p.level : Infinity)));
      for (let lvl = max; lvl >= minOdd && lvl > 0; lvl--) {
        for (let i = 0; i < pieces.length;) {
          if (pieces[i]!.level < lvl) {
            i++;
            continue;
          }
          let j = i;
          while (j < pieces.length && pieces[j]!.level >= lvl) j++;
          const rev = pieces.slice(i, j).reverse();
          pieces.splice(i, j - i, ...rev);
          i = j;
        }
      }
    }
    const s = this.size;
    const p = this.printer;
    let x = 0;
    let ascent = p.baseline * s;
    let descent = (p.cellHeight - p.baseline) * s;
    const items: LineItem[] = [];
    for (const piece of pieces) {
      const str = this.text.slice(piece.start, piece.end);
      if (piece.key === 'text') {
        const bytes = cellBytes(str.replace(FORMAT, ''), piece.level % 2 === 1, p);
        items.push({ kind: 'cells', x, bytes });
        x += bytes.length * p.cellWidth * s;
        continue;
      }
      if (this.native.has(piece.key)) {
        const str2 = str.replace(FORMAT, '');
        items.push({ kind: 'native', x, text: str2 });
        x += nativeColumns(str2) * p.cellWidth * s;
        continue;
      }
      const font = getScriptFont(piece.key);
      const scale = (EM_CELLS * p.cellWidth * s) / font.upem;
      const shaped = shape(font, str, piece.level % 2 === 1);
      const glyphs: { id: number; x: number; y: number }[] = [];
      let pen = 0;
      for (const g of shaped) {
        glyphs.push({
          id: g.id,
          x: (pen + (g.xOffset ?? 0)) * scale,
          y: (g.yOffset ?? 0) * scale,
        });
        const box = font.box(g.id);
        if (box.top !== box.bottom) {
          ascent = Math.max(ascent, Math.ceil((box.top + (g.yOffset ?? 0)) * scale));
          descent = Math.max(descent, Math.ceil(-(box.bottom + (g.yOffset ?? 0)) * scale));
        }
        pen += g.xAdvance ?? 0;
      }
      items.push({ kind: 'glyphs', x, font, scale, glyphs });
      x += pen * scale;
    }
    return { width: Math.ceil(x - 1e-6), ascent, descent, items };
  }
}

/** Columns a printer's own CJK font takes for the text: two a character, one for half-width forms. */
export function nativeColumns(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x1100 || (cp >= 0xff61 && cp <= 0xffdc) ? 1 : 2;
  }
  return n;
}

/** An em of a script font is two cells of the printer's font (a CJK character takes two columns). */
const EM_CELLS = 2;

let shapeBuffer: hb.Buffer | undefined;

function shape(font: LoadedFont, text: string, rtl: boolean) {
  shapeBuffer ??= new hb.Buffer();
  const buffer = shapeBuffer;
  buffer.reset();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
  if (font.language !== undefined) buffer.setLanguage(font.language);
  hb.shape(font.font, buffer);
  const infos = buffer.getGlyphInfos();
  const positions = buffer.getGlyphPositions();
  const out: { id: number; xAdvance: number; xOffset: number; yOffset: number }[] = [];
  for (let i = 0; i < infos.length; i++) {
    const p = positions[i]!;
    out.push({
      id: infos[i]!.codepoint,
      xAdvance: p.xAdvance,
      xOffset: p.xOffset,
      yOffset: p.yOffset,
    });
  }
  return out;
}

/** The printer's text of a run; right to left (in a right-to-left line), reversed and mirrored. */
function cellBytes(text: string, rtl: boolean, printer: PrinterText): string {
  if (!rtl) return printer.encode(text);
  const parts: string[] = [];
  for (const g of graphemes.segment(text)) {
    const mirrored = bidi.getMirroredCharacter(g.segment) ?? g.segment;
    parts.push(printer.encode(mirrored));
  }
  return parts.reverse().join('');
}

/** Where each line goes on the row, and the style all of them are drawn in. */
export interface Placement {
  line: LaidLine;
  /** The left edge of the line, in dots from the left of the row. */
  x: number;
}

/**
 * Draws lines side by side into one row `width` dots wide, as tall as the printer's line (its
 * line spacing, `minHeight`) or as the ink needs.
 */
export function drawRow(
  placements: readonly Placement[],
  width: number,
  printer: PrinterText,
  style: LineStyle,
  minHeight: number,
): Bitmap {
  const s = style.size;
  const nominalAscent = printer.baseline * s;
  let ascent = nominalAscent;
  let descent = Math.max(minHeight, printer.cellHeight * s) - nominalAscent;
  for (const { line } of placements) {
    ascent = Math.max(ascent, line.ascent + 1);
    descent = Math.max(descent, line.descent + 1);
  }
  const baseline = ascent;
  const bitmap = new Bitmap(width, ascent + descent);
  const cellTop = baseline - nominalAscent;
  for (const { line, x } of placements) {
    for (const item of line.items) {
      if (item.kind === 'native') continue; // sent as text, never drawn (see useNative)
      if (item.kind === 'glyphs') {
        for (const g of item.glyphs) {
          const d = item.font.dots(g.id, item.scale, x + item.x + g.x, baseline - g.y);
          bitmap.blit(d.runs, d.x, d.y);
        }
        continue;
      }
      for (let i = 0; i < item.bytes.length; i++) {
        const runs = printer.glyph(item.bytes.charCodeAt(i)).runs;
        const gx = x + item.x + i * printer.cellWidth * s;
        for (let r = 0; r < runs.length; r += 3) {
          bitmap.fill(
            gx + runs[r + 1]! * s,
            cellTop + runs[r]! * s,
            (runs[r + 2]! - runs[r + 1]!) * s,
            s,
          );
        }
      }
    }
  }
  if (style.bold) bitmap.embolden(s);
  for (const { line, x } of placements) {
    if (style.underline) bitmap.fill(x, cellTop + printer.cellHeight * s - 1, line.width, 1);
    if (style.invert) bitmap.invert(x, 0, line.width, bitmap.height);
  }
  return bitmap;
}
