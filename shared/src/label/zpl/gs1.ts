/**
 * ^BR's 2D part (GS1 composite components and DataBar Expanded Stacked) and ^BT (TLC39), each
 * built from bwip-js's own symbologies: no bar tables here.
 */
import bwipjs from 'bwip-js';
import { Bitmap, fillPolygons } from '../bitmap.js';
import { BarcodeDataError, drawLinear, drawMatrixSymbol } from '../barcodes.js';
import { gs1CheckDigit, upcaToUpce } from '../interpretation.js';

/** What these symbols take of ^BY's defaults (barcodes.ts's BarcodeDefaults, which imports this). */
interface BarcodeDefaults {
  dpmm: number;
}

/** A symbol drawn upright and the row below its bars (barcodes.ts's DrawnBarcode). */
interface DrawnBarcode {
  bitmap: Bitmap;
  barsBottom: number;
}

const num = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v === undefined || v.trim() === '' || !Number.isFinite(n) ? fallback : n;
};

/**
 * A symbol bwip-js draws in parts (a composite's linear and 2D components, Expanded Stacked's rows
 * and separators): its raw module matrix holds only part of it, so the symbol is drawn through
 * bwip-js's drawing interface, each module `module` dots, its polygons filled here.
 */
export function drawComposed(
  bcid: string,
  text: string,
  options: Record<string, unknown>,
  module: number,
): Bitmap {
  let bitmap = new Bitmap(1, 1);
  let rings: number[][] = [];
  const drawing = {
    setopts() {},
    scale() {},
    measure: () => ({ width: 0, ascent: 0, descent: 0 }),
    init(width: number, height: number) {
      bitmap = new Bitmap(Math.max(1, Math.ceil(width)), Math.max(1, Math.ceil(height)));
    },
    line(x0: number, y0: number, x1: number, y1: number, lw: number) {
      const w = Math.max(1, Math.round(lw));
      if (x0 === x1) bitmap.fill(Math.round(x0 - w / 2), Math.min(y0, y1), w, Math.abs(y1 - y0));
      else bitmap.fill(Math.min(x0, x1), Math.round(y0 - w / 2), Math.abs(x1 - x0), w);
    },
    polygon(pts: number[][]) {
      rings.push(pts.flat());
    },
    hexagon(pts: number[][]) {
      rings.push(pts.flat());
    },
    ellipse() {},
    fill() {
      fillPolygons(bitmap, rings);
      rings = [];
    },
    clip() {},
    unclip() {},
    text() {},
    end() {},
  };
  try {
    bwipjs.render(
      { bcid, text, scale: Math.max(1, Math.round(module)), ...options } as Parameters<
        typeof bwipjs.render
      >[0],
      drawing as unknown as Parameters<typeof bwipjs.render>[1],
    );
  } catch (error) {
    throw new BarcodeDataError(String((error as Error).message ?? error).split('\n')[0]);
  }
  return bitmap;
}

/** ^BR's types and the bwip-js symbology of each with a 2D (composite) component. */
const COMPOSITES: Record<number, string> = {
  1: 'databaromnicomposite',
  2: 'databartruncatedcomposite',
  3: 'databarstackedcomposite',
  4: 'databarstackedomnicomposite',
  5: 'databarlimitedcomposite',
  6: 'databarexpandedstackedcomposite',
  7: 'upcacomposite',
  8: 'upcecomposite',
  9: 'ean13composite',
  10: 'ean8composite',
  11: 'gs1-128composite',
  12: 'gs1-128composite',
};

/** The linear part's data as bwip-js takes it for each type (digits get their check digit). */
function linearText(type: number, linear: string): string {
  const digits = linear.replace(/\D/g, '');
  const withCheck = (n: number) => {
    const d = digits.padStart(n, '0').slice(0, n);
    return d + gs1CheckDigit(d);
  };
  if (type >= 1 && type <= 5) return `(01)${withCheck(13)}`;
  if (type === 7) return withCheck(11);
  if (type === 8) {
    // As ^B9: the UPC-A form (number system 0, 10 digits), zero-suppressed.
    const upca = ('0' + digits).slice(-11).padStart(11, '0');
    const upce = upcaToUpce(upca);
    if (!upce)
      throw new BarcodeDataError(`^BR type 8: ${linear} cannot be zero-suppressed to UPC-E`);
    return upce + gs1CheckDigit(upca);
  }
  if (type === 9) return withCheck(12);
  if (type === 10) return withCheck(7);
  return linear.replace(/\s/g, ''); // 6, 11, 12: GS1 element strings, AIs in brackets
}

/**
 * ^BRa,b,c,d,e,f with a 2D component (`linear|2D` field data: the 2D part is GS1 element strings,
 * AIs in brackets) or of type 6 (Expanded, stacked in rows of f segments, 2-22 even, default 22:
 * one row until the data has more segments). Modules are c dots square (the magnification); a
 * composite's linear part keeps bwip-js's height in modules (e, the bar height, applies to the
 * linear part of types 11 and 12 only). d (separator height) is bwip-js's one module.
 */
export function drawDataBar(p: string[], data: string, d: BarcodeDefaults): DrawnBarcode {
  const type = num(p[1], 1);
  const module = Math.max(1, num(p[2], d.dpmm >= 24 ? 6 : d.dpmm >= 12 ? 3 : 2));
  const height = num(p[4], 25);
  const bar = data.indexOf('|');
  const linear = bar < 0 ? data : data.slice(0, bar);
  const twoD = bar < 0 ? '' : data.slice(bar + 1).replace(/\s/g, '');
  const segments = Math.min(22, Math.max(2, 2 * Math.round(num(p[5], 22) / 2)));
  const options: Record<string, unknown> = {};
  if (type === 6) options.segments = segments;
  if (type === 12) options.ccversion = 'c';
  if (!twoD) {
    // Type 6 without a 2D component: DataBar Expanded, stacked when its segments are more than
    // f (rows 34 modules tall, as bwip-js draws them); one row is drawn e dots tall, as before.
    const text = linearText(6, linear);
    const symbol = drawComposed('databarexpandedstacked', text, options, module);
    if (symbol.height > 34 * module) return { bitmap: symbol, barsBottom: symbol.height };
    const bars = drawLinear('databarexpanded', text, {}, { module, ratio: 3, height });
    return { bitmap: bars, barsBottom: bars.height };
  }
  const bcid = COMPOSITES[type];
  if (!bcid) throw new BarcodeDataError(`^BR type ${type}: must be 1-12`);
  if (!twoD.startsWith('(')) {
    throw new BarcodeDataError(
      `^BR 2D component: must be GS1 element strings with their AIs in brackets, as (10)ABC (got ${twoD.slice(0, 20)})`,
    );
  }
  // The GS1-128 part's bars are e dots tall (bwip-js takes heights in mm at 72 points an inch).
  if (type === 11 || type === 12) options.height = (height / module) * (25.4 / 72);
  const bitmap = drawComposed(bcid, `${linearText(type, linear)}|${twoD}`, options, module);
  return { bitmap, barsBottom: bitmap.height };
}

/**
 * ^BTo,w1,r1,h1,w2,h2 (TLC39, the TCIF CLEI tag): field data `ECI[,serial[,more…]]`. The ECI
 * number (exactly 6 digits) is a Code 39 w1 dots narrow, r1 wide-to-narrow, h1 tall; when a comma
 * follows it, the rest (serial number and additional fields, commas kept) is a MicroPDF417 of four
 * columns, modules w2 dots wide and rows h2 dots tall. The manual gives no offset between the two:
 * the MicroPDF417 stands to the right of the Code 39 with a ten-module quiet zone between, tops
 * aligned. No interpretation line.
 */
export function drawTlc39(p: string[], data: string, d: BarcodeDefaults): DrawnBarcode {
  const hi = d.dpmm >= 24;
  const w1 = Math.max(1, num(p[1], hi ? 4 : 2));
  const r1 = Math.min(3, Math.max(2, num(p[2], 2)));
  const h1 = Math.max(1, num(p[3], hi ? 120 : d.dpmm >= 12 ? 60 : 40));
  const w2 = Math.max(1, num(p[4], hi ? 4 : 2));
  const h2 = Math.max(1, num(p[5], hi ? 8 : 4));
  const comma = data.indexOf(',');
  const eci = data.slice(0, 6);
  if (!/^\d{6}$/.test(eci)) {
    throw new BarcodeDataError(`^BT ECI number: must be 6 digits (got ${eci})`);
  }
  const code39 = drawLinear('code39', eci, {}, { module: w1, ratio: r1, height: h1 });
  if (comma !== 6) return { bitmap: code39, barsBottom: code39.height };
  const rest = data.slice(7);
  if (rest.split(',').some((field) => field.length > 25 || !/^[A-Za-z0-9]*$/.test(field))) {
    throw new BarcodeDataError(
      '^BT serial number and additional data: fields of up to 25 letters and digits, separated by commas',
    );
  }
  const micro = drawMatrixSymbol('micropdf417', rest, { columns: 4, rowmult: 1 }, w2, h2);
  const gap = 10 * w1;
  const out = new Bitmap(code39.width + gap + micro.width, Math.max(code39.height, micro.height));
  out.draw(code39, 0, 0);
  out.draw(micro, code39.width + gap, 0);
  return { bitmap: out, barsBottom: code39.height };
}
