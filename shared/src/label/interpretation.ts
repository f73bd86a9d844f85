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
