/**
 * The print mechanism: a line buffer that fills with characters and bit images, prints on LF (or
 * when full) with the line's alignment, and feeds the paper; graphics (QR, barcodes, rasters) that
 * print at once; cuts and drawer pulses recorded where they happened.
 */
import { PageCanvas } from './canvas.js';
import { internationalChar } from './charsets.js';
import { getFont, type BitmapFont, type Glyph } from './fonts.js';
import { decodeKanji, kanjiGlyph, KANJI_SIZE } from './kanji.js';
import { initialState, type PrinterState } from './state.js';
import type { CutMark, DrawerPulse, Graphic, StatusRequest, TextRun, TextStyle } from './types.js';
import type { WarningLog } from './warnings.js';

interface CharItem {
  kind: 'char';
  x: number;
  /** Advance in dots (cell width plus spacing, times the width multiplier). */
  width: number;
  height: number;
  char: string;
  glyph: Glyph;
  font: BitmapFont;
  style: TextStyle;
  table: string;
}

interface ImageItem {
  kind: 'image';
  x: number;
  width: number;
  height: number;
  /** One byte per dot, row after row. */
  bits: Uint8Array;
}

type LineItem = CharItem | ImageItem;

/** Vertical band a cut mark takes in the preview, in dots; the cut is in its middle. */
export const CUT_BAND = 24;

export class Printer {
  state: PrinterState;
  readonly canvas: PageCanvas;
  /** Top of the current print line, in dots. */
  y = 0;
  /** Set when the page reached its maximum height: nothing more is printed. */
  stopped = false;
  readonly textRuns: TextRun[] = [];
  readonly graphics: Graphic[] = [];
  readonly cuts: CutMark[] = [];
  readonly drawerPulses: DrawerPulse[] = [];
  readonly statusRequests: StatusRequest[] = [];
  /** Graphics stored by GS ( L / GS 8 L function 112, printed by function 50. */
  storedGraphic: { width: number; height: number; bits: Uint8Array } | undefined;
  private line: LineItem[] = [];
  /** The bytes of a Kanji-mode character read so far. */
  private kanjiBytes: number[] = [];
  private cursorX = 0;
  private lineIndex = 0;

  constructor(
    readonly paperWidth: number,
    maxHeight: number,
    private readonly warnings: WarningLog,
    private readonly cutMarks = true,
  ) {
    this.state = initialState(paperWidth);
    this.canvas = new PageCanvas(paperWidth, maxHeight);
  }

  /** ESC @: settings back to their defaults; data in the line buffer is discarded. */
  reset(): void {
    this.state = initialState(this.paperWidth);
    this.line = [];
    this.cursorX = 0;
    this.storedGraphic = undefined;
  }

  get atLineStart(): boolean {
    return this.line.length === 0 && this.cursorX === 0;
  }

  /** The print area's left edge and width in dots (GS L, GS W), clamped to the paper. */
  printArea(): { left: number; width: number } {
    const left = Math.min(this.state.leftMargin, this.paperWidth - 1);
    const width = Math.max(1, Math.min(this.state.areaWidth, this.paperWidth - left));
    return { left, width };
  }

  private currentStyle(): TextStyle {
    const s = this.state;
    return {
      font: s.font,
      bold: s.emphasized || s.doubleStrike,
      underline: s.underline,
      invert: s.invert,
      width: s.widthMul,
      height: s.heightMul,
    };
  }

  /** A printable byte: decoded with the ESC t table (or, in Kanji mode, GB18030) and put in the line buffer. */
  printByte(byte: number): void {
    const s = this.state;
    if (s.kanji && (this.kanjiBytes.length > 0 || byte >= 0x81)) {
      this.kanjiBytes.push(byte);
      const char = decodeKanji(this.kanjiBytes);
      if (char === undefined) return; // more bytes to come
      this.kanjiBytes = [];
      return this.printKanji(char);
    }
    const char = internationalChar(s.international, byte) ?? s.table.chars[byte] ?? '';
    this.printChar(char, s.table.name);
  }

  /**
   * A character in the current font (a printer language that sends Unicode, like ePOS-Print
   * XML, prints through this); '' is a blank cell. `table` names where it came from.
   */
  printChar(char: string, table: string): void {
    const s = this.state;
    const font = getFont(s.font);
    const glyph = char === '' ? undefined : font.glyphs.get(char.codePointAt(0)!);
    const width = (font.width + s.charSpacing) * s.widthMul;
    if (this.cursorX + font.width * s.widthMul > this.printArea().width && !this.atLineStart) {
      this.printLine(); // automatic wrap: the line is full
    }
    this.line.push({
      kind: 'char',
      x: this.cursorX,
      width,
      height: font.height * s.heightMul,
      char: char === '' ? ' ' : char,
      glyph: char === '' ? { runs: new Int16Array(0) } : (glyph ?? font.missing),
      font,
      style: this.currentStyle(),
      table,
    });
    this.cursorX += width;
  }

  /** A Kanji-mode character: a 24 × 24 cell (two columns of font A), drawn from Noto Sans SC. */
  private printKanji(char: string): void {
    const s = this.state;
    const font = getFont('A');
    const width = (KANJI_SIZE + s.charSpacing) * s.widthMul;
    if (this.cursorX + KANJI_SIZE * s.widthMul > this.printArea().width && !this.atLineStart) {
      this.printLine();
    }
    this.line.push({
      kind: 'char',
      x: this.cursorX,
      width,
      height: KANJI_SIZE * s.heightMul,
      char,
      glyph: kanjiGlyph(char),
      font,
      style: this.currentStyle(),
      table: 'GB18030',
    });
    this.cursorX += width;
  }

  /** HT: to the next tab stop; ignored when there is none further on the line. */
  tab(): void {
    const next = this.state.tabStops.find((stop) => stop > this.cursorX);
    if (next !== undefined && next <= this.printArea().width) this.cursorX = next;
  }

  /** ESC $ (absolute) or ESC \ (relative) horizontal position, ignored outside the print area. */
  moveTo(x: number): void {
    if (x >= 0 && x <= this.printArea().width) this.cursorX = x;
  }

  /** Dots of paper left before the page's maximum height. */
  get roomLeft(): number {
    return Math.max(0, this.canvas.maxHeight - this.y);
  }

  get position(): number {
    return this.cursorX;
  }

  /** ESC * bit image: part of the line, like a tall character. */
  addImage(width: number, height: number, bits: Uint8Array): void {
    const room = this.printArea().width - this.cursorX;
    if (width > room) {
      this.warnings.add('bit image wider than the rest of the line: cut at the right edge');
      const clipped = new Uint8Array(room * height);
      for (let r = 0; r < height; r++)
        clipped.set(bits.subarray(r * width, r * width + room), r * room);
      bits = clipped;
      width = room;
    }
    if (width <= 0) return;
    this.line.push({ kind: 'image', x: this.cursorX, width, height, bits });
    this.graphics.push({ kind: 'bit-image', x: this.cursorX, y: this.y, width, height });
    this.cursorX += width;
  }

  /**
   * Prints the line buffer and feeds: `feed` undefined is one line (LF: the line spacing, or the
   * line's height when taller); a number feeds that many dots from the top of the line (at least
   * the line's height when it holds something).
   */
  printLine(feed?: number): void {
    if (this.stopped) return;
    let height = 0;
    for (const item of this.line) height = Math.max(height, item.height);
    if (this.line.length > 0 && this.reserve(this.y + height)) {
      const runs = this.textRuns.length;
      this.drawLine(height);
      if (this.state.upsideDown) this.turnLine(height, runs);
    }
    this.line = [];
    this.cursorX = 0;
    this.feed(Math.max(height, feed ?? this.state.lineSpacing));
  }

  /** Moves the paper `dots` forward. */
  feed(dots: number): void {
    if (this.stopped) return;
    if (this.reserve(this.y + dots)) this.y += dots;
  }

  /** Makes room down to `rows`; past the maximum height the printer stops. */
  private reserve(rows: number): boolean {
    if (this.canvas.ensure(rows)) return true;
    this.warnings.add(
      `the page reached its maximum height of ${this.canvas.maxHeight} dots: the rest is not printed`,
    );
    this.stopped = true;
    return false;
  }

  private lineOffset(contentWidth: number): number {
    const { left, width } = this.printArea();
    const free = Math.max(0, width - contentWidth);
    if (this.state.align === 'center') return left + Math.floor(free / 2);
    if (this.state.align === 'right') return left + free;
    return left;
  }

  private drawLine(height: number): void {
    let contentWidth = this.cursorX;
    for (const item of this.line) contentWidth = Math.max(contentWidth, item.x + item.width);
    const x0 = this.lineOffset(contentWidth);
    let run: TextRun | undefined;
    for (const item of this.line) {
      const x = x0 + item.x;
      const top = this.y + height - item.height;
      if (item.kind === 'image') {
        this.drawBits(x, top, item.width, item.height, item.bits);
        run = undefined;
        continue;
      }
      this.drawChar(item, x, top);
      if (
        run &&
        run.x + run.width === x &&
        run.codepage === item.table &&
        run.height === item.height &&
        sameStyle(run.style, item.style)
      ) {
        run.text += item.char;
        run.width += item.width;
      } else {
        run = {
          text: item.char,
          x,
          y: top,
          width: item.width,
          height: item.height,
          line: this.lineIndex,
          style: item.style,
          codepage: item.table,
          alignment: this.state.align,
        };
        this.textRuns.push(run);
      }
    }
    this.lineIndex++;
  }

  /** Upside-down mode: the line just drawn is turned 180° within the print area. */
  private turnLine(height: number, firstRun: number): void {
    const { left, width } = this.printArea();
    const px = this.canvas.pixels;
    const w = this.canvas.width;
    const rowIndex = (r: number) => (this.y + r) * w + left;
    for (let r = 0; r < Math.ceil(height / 2); r++) {
      const a = rowIndex(r);
      const b = rowIndex(height - 1 - r);
      for (let c = 0; c < (a === b ? width >> 1 : width); c++) {
        const t = px[a + c]!;
        px[a + c] = px[b + width - 1 - c]!;
        px[b + width - 1 - c] = t;
      }
    }
    for (const run of this.textRuns.slice(firstRun)) {
      run.x = left + width - (run.x - left) - run.width;
      run.y = this.y + height - (run.y - this.y) - run.height;
      run.upsideDown = true;
    }
  }

  private drawChar(item: CharItem, x: number, top: number): void {
    const { style, glyph } = item;
    const c = this.canvas;
    const ink = style.invert ? 0 : 1;
    if (style.invert) c.fill(x, top, item.width, item.height, 1);
    const runs = glyph.runs;
    const w = style.width;
    const h = style.height;
    for (let i = 0; i < runs.length; i += 3) {
      const rowTop = top + runs[i]! * h;
      const left = x + runs[i + 1]! * w;
      const span = (runs[i + 2]! - runs[i + 1]!) * w;
      c.fill(left, rowTop, span, h, ink);
      // Double strike: the second pass lands one dot to the right.
      if (style.bold) c.fill(left + 1, rowTop, span, h, ink);
    }
    if (style.underline > 0) {
      c.fill(x, top + item.height - style.underline, item.width, style.underline, ink);
    }
  }

  private drawBits(x: number, y: number, w: number, h: number, bits: Uint8Array): void {
    const c = this.canvas;
    for (let r = 0; r < h; r++) {
      const row = r * w;
      let col = 0;
      while (col < w) {
        if (!bits[row + col]) {
          col++;
          continue;
        }
        const start = col;
        while (col < w && bits[row + col]) col++;
        c.fill(x + start, y + r, col - start, 1, 1);
      }
    }
  }

  /**
   * Graphics that print at once (raster images, QR codes, barcodes): a pending line is printed
   * first. Returns the top-left corner to draw at, or undefined when the page is full.
   */
  beginBlock(width: number, height: number, what: string): { x: number; y: number } | undefined {
    if (!this.atLineStart) {
      this.warnings.add(
        `${what} sent with characters pending on the line: the line was printed first`,
      );
      this.printLine();
    }
    if (this.stopped || !this.reserve(this.y + height)) return undefined;
    const x = this.lineOffset(width);
    return { x, y: this.y };
  }

  /** Ends a block started with beginBlock: the paper moves past it. */
  endBlock(height: number): void {
    this.y += height;
  }

  /** Draws a 1-bit raster block (GS v 0) with the current alignment. */
  printRaster(width: number, height: number, bits: Uint8Array): void {
    const at = this.beginBlock(width, height, 'raster image (GS v 0)');
    if (!at) return;
    this.drawBits(at.x, at.y, width, height, bits);
    this.graphics.push({ kind: 'raster', x: at.x, y: at.y, width, height });
    this.endBlock(height);
  }

  /** A cut: recorded and marked with a dashed line in a band of CUT_BAND dots. */
  cut(mode: 'full' | 'partial'): void {
    if (!this.atLineStart) this.printLine();
    const last = this.cuts.at(-1);
    if (last && last.y + CUT_BAND / 2 === this.y) {
      // No paper moved since the last cut: the cutter cuts the same place again.
      this.cuts.push({ y: last.y, mode });
      return;
    }
    if (this.stopped || !this.reserve(this.y + CUT_BAND)) return;
    const y = this.y + CUT_BAND / 2;
    if (this.cutMarks) drawCutMark(this.canvas, y, mode);
    this.cuts.push({ y, mode });
    this.y += CUT_BAND;
  }

  pulseDrawer(pin: 2 | 5, onMs: number, offMs: number): void {
    this.drawerPulses.push({ pin, onMs, offMs, y: this.y });
  }

  /** Data left in the line buffer at the end: printed so that the preview shows it. */
  finish(): void {
    if (!this.atLineStart && !this.stopped) {
      this.warnings.add('the data ends without LF: the last line was printed as if LF followed');
      this.printLine();
    }
  }
}

function sameStyle(a: TextStyle, b: TextStyle): boolean {
  return (
    a.font === b.font &&
    a.bold === b.bold &&
    a.underline === b.underline &&
    a.invert === b.invert &&
    a.width === b.width &&
    a.height === b.height
  );
}

/**
 * Full cut: long dashes, 2 dots thick, across the paper. Partial cut: short dashes, 1 dot thick,
 * with the uncut bridge in the middle left blank. Both carry a small scissors mark at the left.
 */
function drawCutMark(c: PageCanvas, y: number, mode: 'full' | 'partial'): void {
  const dash = mode === 'full' ? 12 : 4;
  const gap = mode === 'full' ? 6 : 4;
  const thick = mode === 'full' ? 2 : 1;
  const bridge = mode === 'partial' ? [c.width / 2 - 24, c.width / 2 + 24] : [0, 0];
  for (let x = 28; x < c.width; x += dash + gap) {
    if (x + dash > bridge[0]! && x < bridge[1]!) continue;
    c.fill(x, y - (thick >> 1), Math.min(dash, c.width - x), thick, 1);
  }
  // Scissors: two rings (the handles) and two blades crossing towards the line.
  const ring = (cx: number, cy: number) => {
    for (let a = 0; a < 24; a++) {
      const t = (a / 24) * 2 * Math.PI;
      c.fill(Math.round(cx + 3 * Math.cos(t)), Math.round(cy + 3 * Math.sin(t)), 1, 1, 1);
    }
  };
  ring(5, y - 6);
  ring(5, y + 6);
  for (let i = 0; i <= 14; i++) {
    c.fill(8 + i, y - 4 + Math.round((i * 6) / 14), 1, 1, 1);
    c.fill(8 + i, y + 4 - Math.round((i * 6) / 14), 1, 1, 1);
  }
}
