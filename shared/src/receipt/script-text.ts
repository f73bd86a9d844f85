/**
 * Text the code page cannot carry (CONTRACT "Every script on paper"): each printed line holding
 * such a run is drawn (shaped, in bidi order, with the printer's own font for the rest of the
 * line) and sent as a `GS v 0` raster image as wide as the line of text; everything else stays
 * text. Pairs and table columns keep their places in dots, at 12 dots a column of font A.
 */
import {
  codepageMap,
  stripAccents,
  transliteration,
  type CodepageName,
} from '../codepage/index.js';
import { getFont } from '../escpos/fonts.js';
import {
  Paragraph,
  drawRow,
  nativeColumns,
  type FontKey,
  needsRaster,
  type LaidLine,
  type LineStyle,
  type PrinterText,
  type Placement,
} from '../text/index.js';
import type { Bitmap } from '../text/index.js';
import type { EncodeContext } from './context.js';
import type { Align } from './layout.js';

/** The line spacing of the printer after ESC @ (ESC 2), in dots: a drawn line is at least this tall. */
const LINE_SPACING = 30;
/** Dots between the two sides of a pair. */
const PAIR_GAP_CELLS = 1;

const printerTexts = new Map<string, Omit<PrinterText, 'encode'>>();

/** The printer's own text in this context: its code page, and font A or B. */
export function printerText(ctx: EncodeContext, font: 'a' | 'b'): PrinterText {
  const codepage: CodepageName = ctx.text.codepage;
  const id = `${codepage}/${font}`;
  let base = printerTexts.get(id);
  if (base === undefined) {
    const map = codepageMap(codepage);
    const byteToChar = new Map<number, number>();
    for (const [cp, byte] of map) if (!byteToChar.has(byte)) byteToChar.set(byte, cp);
    const bitmapFont = getFont(font === 'b' ? 'B' : 'A');
    base = {
      carries: (cp) => (cp >= 0x20 && cp <= 0x7e) || map.has(cp),
      replaces: (char) => transliteration(char) !== undefined || stripAccents(char) !== undefined,
      glyph: (byte) => {
        const cp = byte < 0x80 ? byte : byteToChar.get(byte);
        return (cp !== undefined ? bitmapFont.glyphs.get(cp) : undefined) ?? bitmapFont.missing;
      },
      cellWidth: bitmapFont.width,
      cellHeight: bitmapFont.height,
      baseline: font === 'b' ? 13 : 19,
    };
    printerTexts.set(id, base);
  }
  return { ...base, encode: (text) => ctx.text.encode(text) };
}

/** Whether a string has a run the context's code page cannot carry. */
export function isScriptText(ctx: EncodeContext, text: string): boolean {
  return needsRaster(text, printerText(ctx, 'a'));
}

/** Width in dots of a line of the page in font A or B (what its columns of text cover). */
function lineDots(ctx: EncodeContext, font: 'a' | 'b'): number {
  return font === 'b' ? ctx.page.charsB * 9 : ctx.page.charsA * 12;
}

const NATIVE_FONT: Record<'chinese' | 'japanese' | 'korean', FontKey> = {
  chinese: 'sc',
  japanese: 'jp',
  korean: 'kr',
};

/** The scripts the printer prints with a font of its own (its profile's `nativeText`). */
function nativeKeys(ctx: EncodeContext): ReadonlySet<FontKey> {
  return new Set((ctx.profile.nativeText?.scripts ?? []).map((s) => NATIVE_FONT[s]));
}

/** Uses the printer's own font for all of these paragraphs, or for none of them. */
function useNative(ctx: EncodeContext, paragraphs: readonly Paragraph[]): boolean {
  if (!ctx.nativeCjk) return false;
  const keys = nativeKeys(ctx);
  if (!paragraphs.every((p) => p.useNative(keys, false))) return false;
  for (const p of paragraphs) p.useNative(keys);
  return true;
}

/**
 * Rows whose every part the printer prints itself (its code page, and its own CJK font in Kanji
 * mode: FS & … FS .), as text: each part at its column, in the row's style.
 */
function emitTextRows(
  ctx: EncodeContext,
  rows: readonly Placement[][],
  printer: PrinterText,
  style: ScriptTextStyle,
): void {
  const { out } = ctx;
  const column = printer.cellWidth * style.size;
  if (style.font === 'b') out.font('b');
  if (style.bold) out.bold(true);
  if (style.underline) out.underline(true);
  if (style.invert) out.invert(true);
  if (style.size > 1) out.size(style.size, style.size);
  for (const row of rows) {
    const parts = row
      .flatMap(({ line, x }) =>
        line.items.map((item) => ({ item, at: Math.round((x + item.x) / column) })),
      )
      .sort((a, b) => a.at - b.at);
    let cursor = 0;
    for (const { item, at } of parts) {
      if (at > cursor) out.text(' '.repeat(at - cursor));
      cursor = Math.max(cursor, at);
      if (item.kind === 'cells') {
        out.text(item.bytes);
        cursor += item.bytes.length;
      } else if (item.kind === 'native') {
        out.push({ op: 'native', text: item.text });
        cursor += nativeColumns(item.text);
      }
    }
    out.newline();
  }
  if (style.size > 1) out.size(1, 1);
  if (style.invert) out.invert(false);
  if (style.underline) out.underline(false);
  if (style.bold) out.bold(false);
  if (style.font === 'b') out.font('a');
}

/** Sends rows as text (native) or drawn, one `GS v 0` image a row. */
function emitRows(
  ctx: EncodeContext,
  rows: readonly Placement[][],
  printer: PrinterText,
  style: ScriptTextStyle,
  native: boolean,
): void {
  if (native) return emitTextRows(ctx, rows, printer, style);
  for (const row of rows) {
    emitRow(ctx, drawRow(row, rowWidth(ctx, style.font), printer, style, LINE_SPACING));
  }
}

/** Sends a drawn row as a picture, as wide as the page's line of text (never wider than the paper). */
function emitRow(ctx: EncodeContext, bitmap: Bitmap): void {
  const { rowBytes, data } = bitmap.packRows();
  ctx.out.raster({ width: bitmap.width, height: bitmap.height, rowBytes, data });
}

function rowWidth(ctx: EncodeContext, font: 'a' | 'b'): number {
  return Math.min(ctx.page.dots, Math.ceil(lineDots(ctx, font) / 8) * 8);
}

function place(line: LaidLine, room: number, align: Align, x0 = 0): Placement {
  const space = Math.max(0, room - line.width);
  const x = align === 'right' ? space : align === 'center' ? Math.floor(space / 2) : 0;
  return { line, x: x0 + x };
}

export interface ScriptTextStyle extends LineStyle {
  font: 'a' | 'b';
  align: Align;
}

/** One paragraph of a text block, drawn line by line. */
export function drawParagraph(ctx: EncodeContext, value: string, style: ScriptTextStyle): void {
  const printer = printerText(ctx, style.font);
  const width = lineDots(ctx, style.font);
  const paragraph = new Paragraph(value, printer, style.size);
  const native = useNative(ctx, [paragraph]);
  const rows = paragraph.lines(width).map((line) => [place(line, width, style.align)]);
  emitRows(ctx, rows, printer, style, native);
}

/** A pair: the left side flush left, the right side flush right, each in its own direction. */
export function drawPair(ctx: EncodeContext, left: string, right: string, bold: boolean): void {
  const printer = printerText(ctx, 'a');
  const width = lineDots(ctx, 'a');
  const style: LineStyle = { size: 1, bold, underline: false, invert: false };
  const gap = PAIR_GAP_CELLS * printer.cellWidth;
  const rightPara = new Paragraph(right, printer, 1);
  const leftPara = new Paragraph(left, printer, 1);
  const native = useNative(ctx, [leftPara, rightPara]);
  const rightLines = rightPara.lines(width);
  const rows: Placement[][] = [];
  const r0 = rightLines[0]!;
  const room = width - r0.width - gap;
  if (rightLines.length === 1 && room >= width / 3) {
    // The left side wraps in the room the right side leaves; the right side is on its first line.
    const leftLines = left.length === 0 ? [] : leftPara.lines(room);
    rows.push([
      ...(leftLines[0] ? [place(leftLines[0], room, 'left')] : []),
      place(r0, width, 'right'),
    ]);
    for (const l of leftLines.slice(1)) rows.push([place(l, room, 'left')]);
  } else {
    for (const l of left.length === 0 ? [] : leftPara.lines(width))
      rows.push([place(l, width, 'left')]);
    for (const r of rightLines) rows.push([place(r, width, 'right')]);
  }
  emitRows(ctx, rows, printer, { ...style, font: 'a', align: 'left' }, native);
}

/**
 * A table row with a cell the code page cannot carry: each cell wraps within its column (one
 * column of space before the next), aligned as its column says; the row is as tall as its
 * tallest cell.
 */
export function drawTableRow(
  ctx: EncodeContext,
  cells: readonly string[],
  widths: readonly number[],
  aligns: readonly Align[],
  bold: boolean,
): void {
  const printer = printerText(ctx, 'a');
  const cell = printer.cellWidth;
  const style: LineStyle = { size: 1, bold, underline: false, invert: false };
  const last = widths.length - 1;
  let x0 = 0;
  const paragraphs = widths.map((_, c) => new Paragraph(cells[c] ?? '', printer, 1));
  const native = useNative(ctx, paragraphs);
  const columns = widths.map((w, c) => {
    const room = (c < last && w > 1 ? w - 1 : w) * cell;
    const text = cells[c] ?? '';
    const lines = text.length === 0 ? [] : paragraphs[c]!.lines(room);
    const column = { x0, room, lines, align: aligns[c] ?? 'left' };
    x0 += w * cell;
    return column;
  });
  const height = Math.max(1, ...columns.map((c) => c.lines.length));
  const rows: Placement[][] = [];
  for (let r = 0; r < height; r++) {
    const row: Placement[] = [];
    for (const col of columns) {
      const line = col.lines[r];
      if (line !== undefined) row.push(place(line, col.room, col.align, col.x0));
    }
    rows.push(row);
  }
  emitRows(ctx, rows, printer, { ...style, font: 'a', align: 'left' }, native);
}
