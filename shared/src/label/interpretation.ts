/** Human-readable lines under (or above) linear barcodes, shared by ZPL and EPL. */
import { Bitmap } from './bitmap.js';
import { drawText } from './fonts.js';

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
