/**
 * Barcodes for both label languages. The symbols come from bwip-js (the barcode writer in pure
 * PostScript, ported: every symbology's encoding rules and check digits); this module only turns
 * its bar widths and module matrices into dots the way a label printer does: whole dots per module
 * (ZPL ^BY, EPL narrow/wide), wide elements at the printer's ratio, 2D modules as squares.
 */
import bwipjs from 'bwip-js';
import QRCode from 'qrcode';
import { Bitmap, fillPolygons } from './bitmap.js';

/** Symbologies whose elements are narrow or wide (the ratio applies), rather than 1-4 modules. */
const RATIO_SYMBOLOGIES = new Set([
  'code39',
  'code39ext',
  'interleaved2of5',
  'rationalizedCodabar',
  'code11',
  'msi',
  'plessey',
  'code2of5',
  'industrial2of5',
  'matrix2of5',
]);

export interface LinearOptions {
  /** Narrow bar width in dots. */
  module: number;
  /** Wide to narrow ratio (2.0-3.0), for the symbologies that have one. */
  ratio: number;
  /** Bar height in dots. */
  height: number;
}

export interface LinearSymbol {
  bitmap: Bitmap;
}

type RawLinear = { sbs: number[]; bhs: number[]; bbs: number[] };
type RawMatrix = { pixs: number[]; pixx: number; pixy: number };

/** Why bwip-js refused the data, as one line (its messages start with the symbology's name). */
export class BarcodeDataError extends Error {}

/**
 * Encoded symbols by symbology, data and options: a ^PQ batch, a zoomed preview or a template's
 * labels encode the same data again (bwip-js's PostScript emulation takes milliseconds for the 2D
 * symbologies). Bounded; the oldest entry goes first.
 */
const symbolCache = new Map<string, unknown[]>();
const SYMBOL_CACHE_SIZE = 256;

function raw(bcid: string, text: string, options: Record<string, unknown>): unknown[] {
  const key = `${bcid}\u0000${text}\u0000${JSON.stringify(options)}`;
  const cached = symbolCache.get(key);
  if (cached) return cached;
  let symbol: unknown[];
  try {
    symbol = bwipjs.raw({ bcid, text, ...options } as Parameters<typeof bwipjs.raw>[0]);
  } catch (error) {
    throw new BarcodeDataError(String((error as Error).message ?? error).split('\n')[0]);
  }
  if (symbolCache.size >= SYMBOL_CACHE_SIZE) symbolCache.delete(symbolCache.keys().next().value!);
  symbolCache.set(key, symbol);
  return symbol;
}

/**
 * A QR code from the `qrcode` package (the one the receipt printer uses; far faster than bwip-js's
 * for this symbology), modules `module` dots square, no quiet zone (the paper around is the quiet
 * zone, as printed). `byteMode` forces byte mode (ZPL's manual B mode), else segments are chosen
 * automatically (numeric, alphanumeric, byte) as the printer's automatic mode does.
 */
export function drawQr(text: string, ecc: string, module: number, byteMode = false): Bitmap {
  let modules: { size: number; data: Uint8Array };
  try {
    const level = (['L', 'M', 'Q', 'H'].includes(ecc) ? ecc : 'Q') as 'L' | 'M' | 'Q' | 'H';
    const input = byteMode ? [{ data: Buffer.from(text, 'utf8'), mode: 'byte' as const }] : text;
    modules = QRCode.create(input, { errorCorrectionLevel: level }).modules;
  } catch (error) {
    throw new BarcodeDataError(`qrcode: ${(error as Error).message}`);
  }
  return drawMatrix(
    { pixs: Array.from(modules.data), pixx: modules.size, pixy: modules.size },
    module,
    module,
  );
}

/** Draws a linear symbol upright: bars `height` dots tall (stacked rows share it by their heights). */
export function drawLinear(
  bcid: string,
  text: string,
  bwipOptions: Record<string, unknown>,
  opts: LinearOptions,
): Bitmap {
  const symbol = raw(bcid, text, bwipOptions)[0] as RawLinear | RawMatrix;
  if ('pixs' in symbol) {
    return drawMatrix(symbol, opts.module, Math.max(1, Math.round(opts.height / symbol.pixy)));
  }
  const module = Math.max(1, Math.round(opts.module));
  const wide = Math.max(module + 1, Math.round(module * opts.ratio));
  const ratio = RATIO_SYMBOLOGIES.has(bcid);
  const widths = symbol.sbs.map((w) => (ratio ? (w > 1 ? wide : module) : Math.round(w * module)));
  const total = widths.reduce((a, b) => a + b, 0);
  let top = 0;
  for (let i = 0; i < symbol.bhs.length; i++) {
    top = Math.max(top, (symbol.bhs[i] ?? 0) + (symbol.bbs[i] ?? 0));
  }
  const height = Math.max(1, Math.round(opts.height));
  const bitmap = new Bitmap(total, height);
  let x = 0;
  for (let i = 0; i < widths.length; i++) {
    if (i % 2 === 0) {
      const bar = i / 2;
      const h = symbol.bhs[bar] ?? top;
      const b = symbol.bbs[bar] ?? 0;
      const y0 = top > 0 ? Math.round(((top - h - b) / top) * height) : 0;
      const y1 = top > 0 ? Math.round(((top - b) / top) * height) : height;
      bitmap.fill(x, y0, widths[i]!, y1 - y0);
    }
    x += widths[i]!;
  }
  return bitmap;
}

function drawMatrix(symbol: RawMatrix, mx: number, my: number): Bitmap {
  mx = Math.max(1, Math.round(mx));
  my = Math.max(1, Math.round(my));
  const bitmap = new Bitmap(symbol.pixx * mx, symbol.pixy * my);
  for (let y = 0; y < symbol.pixy; y++) {
    for (let x = 0; x < symbol.pixx; x++) {
      if (symbol.pixs[y * symbol.pixx + x]) bitmap.fill(x * mx, y * my, mx, my);
    }
  }
  return bitmap;
}

/** Draws a 2D symbol (QR, Data Matrix, PDF417, Aztec, …) with modules `mx` × `my` dots. */
export function drawMatrixSymbol(
  bcid: string,
  text: string,
  bwipOptions: Record<string, unknown>,
  mx: number,
  my = mx,
): Bitmap {
  const symbol = raw(bcid, text, bwipOptions)[0] as RawMatrix;
  return drawMatrix(symbol, mx, my);
}

/**
 * A stacked symbol (Code 49, CODABLOCK F): bwip-js gives one line of modules a row, with a
 * separator line above, between and below the rows. Rows are drawn `rowDots` tall, separators
 * one module, every module `module` dots wide. Returns the bitmap and its row count.
 */
export function drawStacked(
  bcid: string,
  text: string,
  bwipOptions: Record<string, unknown>,
  module: number,
  rowDots: number,
): { bitmap: Bitmap; rows: number } {
  const symbol = raw(bcid, text, bwipOptions)[0] as RawMatrix;
  let lines = symbol.pixy;
  const dark = (y: number) => {
    for (let x = 0; x < symbol.pixx; x++) if (symbol.pixs[y * symbol.pixx + x]) return true;
    return false;
  };
  while (lines > 0 && !dark(lines - 1)) lines--;
  const rows = Math.max(0, (lines - 1) >> 1);
  module = Math.max(1, Math.round(module));
  rowDots = Math.max(1, Math.round(rowDots));
  const bitmap = new Bitmap(symbol.pixx * module, rows * rowDots + (rows + 1) * module);
  let top = 0;
  for (let y = 0; y < lines; y++) {
    const h = y % 2 === 0 ? module : rowDots;
    for (let x = 0; x < symbol.pixx; x++) {
      if (symbol.pixs[y * symbol.pixx + x]) bitmap.fill(x * module, top, module, h);
    }
    top += h;
  }
  return { bitmap, rows };
}

/**
 * MaxiCode: 33 rows of 30 hexagons around a bullseye, one inch square whatever the resolution
 * (as the printer draws it): bwip-js gives the indexes of the dark hexagons.
 */
export function drawMaxicode(
  text: string,
  bwipOptions: Record<string, unknown>,
  dpmm: number,
): Bitmap {
  const symbol = raw('maxicode', text, bwipOptions)[0] as { pixs: number[] };
  const size = Math.round(28.14 * dpmm); // ISO/IEC 16023: 28.14 mm wide, 26.91 mm tall
  const height = Math.round(26.91 * dpmm);
  const bitmap = new Bitmap(size, height);
  const w = size / 29.5; // hexagon pitch across
  const h = height / 33; // row pitch
  const r = w / 2;
  // One hexagon drawn once at each of the two sub-dot phases a row can start at, then stamped.
  const stamps = new Map<string, { bitmap: Bitmap; dx: number; dy: number }>();
  const stamp = (cx: number, cy: number) => {
    const fx = Math.round((cx - Math.floor(cx)) * 4) / 4;
    const fy = Math.round((cy - Math.floor(cy)) * 4) / 4;
    const key = `${fx},${fy}`;
    let s = stamps.get(key);
    if (!s) {
      const side = Math.ceil(2 * r * 1.05) + 2;
      const hex = new Bitmap(side, side);
      const ring: number[] = [];
      for (let k = 0; k < 6; k++) {
        const a = Math.PI / 6 + (k * Math.PI) / 3;
        ring.push(side / 2 + fx + Math.cos(a) * r * 1.05, side / 2 + fy + Math.sin(a) * r * 1.05);
      }
      fillPolygons(hex, [ring]);
      s = { bitmap: hex, dx: -Math.floor(side / 2), dy: -Math.floor(side / 2) };
      stamps.set(key, s);
    }
    bitmap.draw(s.bitmap, Math.floor(cx) + s.dx, Math.floor(cy) + s.dy);
  };
  for (const index of symbol.pixs) {
    const row = Math.floor(index / 30);
    const col = index % 30;
    stamp(col * w + r + (row % 2 === 1 ? r : 0), row * h + h / 2);
  }
  // The bullseye: three dark rings around the centre, in the square that holds them.
  const cx = 14 * w + r;
  const cy = 16 * h + h / 2;
  const unit = size / 28.14; // dots per millimetre
  const radii = [3.87, 3.09, 2.51, 1.73, 1.15, 0.39].map((mm) => mm * unit * 0.93);
  const reach = Math.ceil(radii[0]!) + 1;
  for (let y = Math.floor(cy) - reach; y <= Math.ceil(cy) + reach; y++) {
    for (let x = Math.floor(cx) - reach; x <= Math.ceil(cx) + reach; x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      if (d > radii[0]!) continue;
      let band = 0;
      while (band < radii.length - 1 && d <= radii[band + 1]!) band++;
      bitmap.set(x, y, band % 2 === 0 ? 1 : 0);
    }
  }
  return bitmap;
}
