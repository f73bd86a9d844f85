/** Human-readable lines under (or above) linear barcodes, shared by ZPL and EPL. */
import { Bitmap } from './bitmap.js';
import { drawMonoCells, drawText } from './fonts.js';

/** Gap in dots between the bars and the text. */
const GAP = 2;

/** Height of the interpretation line's characters for a module width (about 10 dots a module, as printed). */
export function interpretationHeight(module: number): number {
  return Math.max(10, Math.round(module * 9 + 4));
}

/**
 * The bars with their interpretation line centred under them (or above when `above`). Returns the
 * combined bitmap and the row just below the bars (the ^FT anchor of a barcode).
 */
export function withInterpretation(
  bars: Bitmap,
  text: string,
  module: number,
  above: boolean,
): { bitmap: Bitmap; barsBottom: number } {
  const h = interpretationHeight(module);
  const line = drawText(text, { name: '0', height: h, width: h }).bitmap;
  const width = Math.max(bars.width, line.width);
  const out = new Bitmap(width, bars.height + h + GAP);
  const barsX = Math.round((width - bars.width) / 2);
  const textX = Math.round((width - line.width) / 2);
  if (above) {
    out.draw(line, textX, 0);
    out.draw(bars, barsX, h + GAP);
    return { bitmap: out, barsBottom: out.height };
  }
  out.draw(bars, barsX, 0);
  out.draw(line, textX, bars.height + GAP);
  return { bitmap: out, barsBottom: bars.height };
}

/**
 * ZPL's interpretation line as Labelary draws it: a monospaced regular face (the bitmap fonts'), characters 6 modules
 * apart (each 0.6 of a module left of its cell's middle, as the bitmap fonts' letters) and about 7.3 modules high (14 dots at ^BY2, 36 at ^BY5), centred under the bars with its
 * ink starting 7 dots below them; above the bars (^BC's f = Y), its ink ends 13 dots above them
 * and the bars stay at the field origin: `barsTop` is how far down the bitmap they start.
 */
export function zplInterpretation(
  bars: Bitmap,
  text: string,
  module: number,
  above: boolean,
): { bitmap: Bitmap; barsBottom: number; barsTop: number } {
  const m = Math.max(1, Math.round(module));
  const h = Math.round(8.9 * m);
  const line = drawMonoCells(
    text,
    { h, w: 5 * m, gap: m, baseline: Math.round(7.6 * m) },
    1,
    1,
  ).bitmap;
  let inkTop = line.height;
  let inkBottom = -1;
  for (let y = 0; y < line.height; y++) {
    if (line.data.subarray(y * line.width, (y + 1) * line.width).includes(1)) {
      inkTop = Math.min(inkTop, y);
      inkBottom = y;
    }
  }
  if (inkBottom < 0) return { bitmap: bars, barsBottom: bars.height, barsTop: 0 };
  const inkHeight = inkBottom - inkTop + 1;
  const width = Math.max(bars.width, line.width);
  const barsX = Math.round((width - bars.width) / 2);
  const textX = Math.round((width - line.width) / 2);
  if (above) {
    const barsTop = inkHeight + 13;
    const out = new Bitmap(width, barsTop + bars.height);
    out.draw(line, textX, -inkTop);
    out.draw(bars, barsX, barsTop);
    return { bitmap: out, barsBottom: out.height, barsTop };
  }
  const out = new Bitmap(width, bars.height + 6 + inkHeight);
  out.draw(bars, barsX, 0);
  out.draw(line, textX, bars.height + 6 - inkTop);
  return { bitmap: out, barsBottom: bars.height, barsTop: 0 };
}

/** The EAN and UPC symbols, whose interpretation lines sit in groups beside their guard bars. */
export type UpcEan = 'ean13' | 'ean8' | 'upca' | 'upce';

type DigitGroup = {
  from: number;
  to: number;
  align: 'right' | 'justify' | 'left';
  box: [number, number];
};

/**
 * Where the printer (and Labelary) puts each group of digits, in modules from the symbol's left
 * edge: the first digit of EAN-13, UPC-A and UPC-E right-aligned before the bars, the groups
 * spread across the halves between the guard bars, UPC's check digit after the bars. `top` is
 * how wide the line above the bars is centred over; `guard` tells the bars that reach down
 * (by the module a bar starts at).
 */
const UPC_EAN: Record<
  UpcEan,
  { top: number; guard: (x: number) => boolean; groups: DigitGroup[] }
> = {
  ean13: {
    top: 94,
    guard: (x) => x < 3 || x > 91 || (x > 45 && x < 49),
    groups: [
      { from: 0, to: 1, align: 'right', box: [-9, -5] },
      { from: 1, to: 7, align: 'justify', box: [5, 44] },
      { from: 7, to: 13, align: 'justify', box: [51, 90] },
    ],
  },
  ean8: {
    top: 66,
    guard: (x) => x < 3 || x > 62 || (x > 30 && x < 35),
    groups: [
      { from: 0, to: 4, align: 'justify', box: [5, 30] },
      { from: 4, to: 8, align: 'justify', box: [37, 62] },
    ],
  },
  upca: {
    top: 94,
    guard: (x) => x < 10 || x > 84 || (x > 45 && x < 49),
    groups: [
      { from: 0, to: 1, align: 'right', box: [-9, -5] },
      { from: 1, to: 6, align: 'justify', box: [12, 44] },
      { from: 6, to: 11, align: 'justify', box: [51, 83] },
      { from: 11, to: 12, align: 'left', box: [97, 101] },
    ],
  },
  upce: {
    top: 50,
    guard: (x) => x < 4 || x > 45,
    groups: [
      { from: 0, to: 1, align: 'right', box: [-9, -5] },
      { from: 1, to: 7, align: 'justify', box: [5, 44] },
      { from: 7, to: 8, align: 'left', box: [53, 57] },
    ],
  },
};

/**
 * An EAN or UPC symbol as Labelary draws it (read from its renders): the guard bars reach 6.5
 * modules below the others, with or without a line; the digits below are in the symbology's
 * groups (UPC_EAN), in the interpretation lines' face (6 modules a character, 8.9 high, the
 * baseline 8.9 modules below the bars); above the bars the whole number is one line centred
 * over the symbol, its ink ending 12 blank rows above the bars. `box` is the bars' own
 * rectangle in the bitmap (the digits before the bars and the line above reach outside it):
 * ^FO puts it at the field origin in every orientation.
 */
export function upcEanInterpretation(
  bars: Bitmap,
  kind: UpcEan,
  digits: string,
  module: number,
  line: 'below' | 'above' | 'none',
): { bitmap: Bitmap; barsBottom: number; box: { x: number; y: number; w: number; h: number } } {
  const m = Math.max(1, Math.round(module));
  const layout = UPC_EAN[kind];
  const h = Math.round(8.9 * m);
  const spec = { h, w: 5 * m, gap: m, baseline: Math.round(7.6 * m) };
  const pitch = 6 * m;
  const extension = Math.round(6.5 * m);
  // The bars, the guard bars reaching down.
  const guarded = new Bitmap(bars.width, bars.height + extension);
  guarded.draw(bars, 0, 0);
  const bottom = bars.height - 1;
  for (let x = 0; x < bars.width;) {
    if (!bars.get(x, bottom)) {
      x++;
      continue;
    }
    let end = x;
    while (end < bars.width && bars.get(end, bottom)) end++;
    if (layout.guard(Math.floor(x / m))) guarded.fill(x, bars.height, end - x, extension);
    x = end;
  }
  // Each character's cell: its left edge from the bars' and its top from the bitmap's.
  const cells: { c: string; x: number; y: number }[] = [];
  let barsTop = 0;
  if (line === 'below') {
    const top = bars.height + h - spec.baseline;
    for (const g of layout.groups) {
      const chars = [...digits.slice(g.from, g.to)];
      const [from, to] = [g.box[0] * m, g.box[1] * m];
      const spread =
        g.align === 'justify' && chars.length > 1
          ? (to - from - chars.length * pitch) / (chars.length - 1)
          : 0;
      const start =
        g.align === 'right'
          ? to - chars.length * pitch
          : g.align === 'left' || chars.length > 1
            ? from
            : Math.round((from + to - pitch) / 2);
      chars.forEach((c, i) =>
        cells.push({ c, x: Math.round(start + i * (pitch + spread)), y: top }),
      );
    }
  } else if (line === 'above') {
    const chars = [...digits];
    const start = Math.round((layout.top * m - chars.length * pitch) / 2);
    const probe = drawMonoCells(digits, spec, 1, 1).bitmap;
    let inkTop = probe.height;
    let inkBottom = -1;
    for (let y = 0; y < probe.height; y++) {
      if (probe.data.subarray(y * probe.width, (y + 1) * probe.width).includes(1)) {
        inkTop = Math.min(inkTop, y);
        inkBottom = y;
      }
    }
    if (inkBottom >= 0) {
      barsTop = inkBottom - inkTop + 1 + 12;
      chars.forEach((c, i) => cells.push({ c, x: start + i * pitch, y: -inkTop }));
    }
  }
  const left = Math.max(0, ...cells.map((cell) => -cell.x));
  const right = Math.max(guarded.width, ...cells.map((cell) => cell.x + pitch));
  const height = Math.max(barsTop + guarded.height, ...cells.map((cell) => cell.y + h));
  const out = new Bitmap(left + right, height);
  out.draw(guarded, left, barsTop);
  for (const cell of cells)
    out.draw(drawMonoCells(cell.c, spec, 1, 1).bitmap, left + cell.x, cell.y);
  return {
    bitmap: out,
    barsBottom: barsTop + bars.height,
    box: { x: left, y: barsTop, w: bars.width, h: bars.height },
  };
}

/** The GS1 mod-10 check digit of a string of digits (EAN, UPC, GTIN, SSCC). */
export function gs1CheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** UPC-A digits (number system 0 or 1, 10 data digits) zero-suppressed to UPC-E, or undefined. */
export function upcaToUpce(upca: string): string | undefined {
  const ns = upca[0]!;
  const m = upca.slice(1, 6);
  const p = upca.slice(6, 11);
  if (ns !== '0' && ns !== '1') return undefined;
  if (/^[0-2]$/.test(m[2]!) && m.slice(3) === '00' && p.startsWith('00')) {
    return ns + m.slice(0, 2) + p.slice(2) + m[2];
  }
  if (m.slice(3) === '00' && p.startsWith('000')) return ns + m.slice(0, 3) + p.slice(3) + '3';
  if (m[4] === '0' && p.startsWith('0000')) return ns + m.slice(0, 4) + p[4] + '4';
  if (p.startsWith('0000') && /[5-9]/.test(p[4]!)) return ns + m + p[4];
  return undefined;
}
