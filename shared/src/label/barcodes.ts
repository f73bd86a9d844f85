/**
 * Barcodes for both label languages. The symbols come from bwip-js (the barcode writer in pure
 * PostScript, ported: every symbology's encoding rules and check digits); this module only turns
 * its bar widths and module matrices into dots the way a label printer does: whole dots per module
 * (ZPL ^BY, EPL narrow/wide), wide elements at the printer's ratio, 2D modules as squares.
 */
import bwipjs from 'bwip-js';
import QRCode from 'qrcode';
import { Bitmap } from './bitmap.js';

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

/** How a ZPL ^BQ field's data is put in the symbol: automatic, or one manual mode. */
export type ZplQrMode = 'auto' | 'A' | 'N' | 'B' | 'K';

type QrSegment = { mode: 'numeric' | 'alphanumeric' | 'byte'; data: string | Buffer };
type QrModules = { size: number; data: Uint8Array; get(row: number, col: number): number };

const QR_ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]$/;
const qrCache = new Map<string, QrModules>();

/**
 * A QR code as a Zebra printer (and Labelary, which draws as they do) makes it from a ^BQ field:
 * - the level asked for chooses the version; the symbol then has the highest level the version
 *   holds the data at (`MM,A…` data that fits version 3 at Q is drawn at Q);
 * - manual mode A keeps only the characters alphanumeric mode can hold (`MM,A12|AB` holds
 *   "12AB"), N only the digits; B's data (after its 4-digit count) is cut into modes as the
 *   automatic mode does (`HM,B0020` and 20 digits is one numeric run), K is left to the encoder;
 * - the data is cut into numeric, alphanumeric and byte runs by the run lengths (a short run of
 *   one mode between runs of another joins them; see `zplQrSegments`), not by the fewest bits;
 * - of the eight masks, the one of least penalty where a 1:1:3:1:1 finder-like run counts when
 *   four light modules are on either side of it, outside the symbol counting as light (so the
 *   finder patterns count too, for each mask alike), and the dark share counts in whole 5 %
 *   steps of whole percents (50-54 % costs nothing).
 * Checked module for module against Labelary's renders (docs/labels.md).
 */
export function drawZplQr(text: string, ecc: string, module: number, mode: ZplQrMode): Bitmap {
  const level = (['L', 'M', 'Q', 'H'].includes(ecc) ? ecc : 'Q') as 'L' | 'M' | 'Q' | 'H';
  const key = `${level}\u0000${mode}\u0000${text}`;
  let modules = qrCache.get(key);
  if (!modules) {
    try {
      modules = zplQrModules(text, level, mode);
    } catch (error) {
      throw new BarcodeDataError(`qrcode: ${(error as Error).message}`);
    }
    if (qrCache.size >= SYMBOL_CACHE_SIZE) qrCache.delete(qrCache.keys().next().value!);
    qrCache.set(key, modules);
  }
  return drawMatrix(
    { pixs: Array.from(modules.data), pixx: modules.size, pixy: modules.size },
    module,
    module,
  );
}

function zplQrModules(text: string, level: 'L' | 'M' | 'Q' | 'H', mode: ZplQrMode): QrModules {
  const create = (
    segments: QrSegment[] | string,
    maskPattern: number,
    errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H',
    version?: number,
  ) =>
    QRCode.create(segments as Parameters<typeof QRCode.create>[0], {
      errorCorrectionLevel,
      maskPattern: maskPattern as QRCode.QRCodeMaskPattern,
      ...(version === undefined ? {} : { version }),
    });
  let segments: QrSegment[] | string;
  if (mode === 'K') segments = text;
  else if (mode === 'N') segments = [{ mode: 'numeric', data: text.replace(/[^0-9]/g, '') }];
  else {
    const kept = mode === 'A' ? [...text].filter((c) => QR_ALPHANUMERIC.test(c)).join('') : text;
    // The run lengths that decide depend on the version's class (1-9, 10-26, 27-40).
    segments = zplQrSegments(kept, 0);
    const first = create(segments, 0, level).version;
    if (first >= 10) segments = zplQrSegments(kept, first >= 27 ? 2 : 1);
  }
  // The smallest version at the level asked for; then the highest level that still fits it.
  const version = create(segments, 0, level).version;
  let chosen = level;
  for (const higher of ['M', 'Q', 'H'] as const) {
    if ('LMQH'.indexOf(higher) <= 'LMQH'.indexOf(level)) continue;
    try {
      create(segments, 0, higher, version);
      chosen = higher;
    } catch {
      break;
    }
  }
  let best: QrModules | undefined;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    const candidate = create(segments, mask, chosen, version).modules as unknown as QrModules;
    const penalty = qrPenalty(candidate);
    if (penalty < bestPenalty) {
      best = candidate;
      bestPenalty = penalty;
    }
  }
  return best!;
}

/**
 * The data cut into runs of one mode, left to right, looking ahead from each character:
 * - from byte mode, a run of 4 digits or more (5, 6 from versions 10, 27) goes numeric, else a
 *   run of 7 alphanumeric characters or more (8, 9) alphanumeric;
 * - from alphanumeric, a run of 6 digits or more (8, 10) goes numeric, and the mode goes back
 *   to bytes when fewer than 4 alphanumeric characters are left before a byte;
 * - from numeric, the first other character chooses as from byte mode.
 * (Labelary's: `{"id":"7f9753ad-a865-4769-94e9"}` is bytes, 4 digits, bytes, "865-4769" in
 * alphanumeric, bytes.)
 */
export function zplQrSegments(text: string, versionClass: 0 | 1 | 2): QrSegment[] {
  const digitsFromByte = [4, 5, 6][versionClass]!;
  const alphaRun = [7, 8, 9][versionClass]!;
  const digitsFromAlpha = [6, 8, 10][versionClass]!;
  const chars = [...text];
  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
  const isAlpha = (c: string | undefined) => c !== undefined && QR_ALPHANUMERIC.test(c);
  const runFrom = (i: number, test: (c: string | undefined) => boolean) => {
    let n = 0;
    while (test(chars[i + n])) n++;
    return n;
  };
  const fromByte = (i: number): 'N' | 'A' | 'B' => {
    if (runFrom(i, isDigit) >= digitsFromByte) return 'N';
    return runFrom(i, isAlpha) >= alphaRun ? 'A' : 'B';
  };
  const modes: ('N' | 'A' | 'B')[] = [];
  let mode: 'N' | 'A' | 'B' | undefined;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (mode === undefined || (mode === 'N' && !isDigit(c))) mode = fromByte(i);
    else if (mode === 'B') {
      if (isAlpha(c)) mode = fromByte(i);
    } else if (mode === 'A') {
      const alpha = runFrom(i, isAlpha);
      if (alpha === 0) mode = 'B';
      else if (runFrom(i, isDigit) >= digitsFromAlpha) mode = 'N';
      else if (alpha < 4 && i + alpha < chars.length) mode = 'B';
    }
    modes.push(mode);
  }
  const segments: QrSegment[] = [];
  const name = { N: 'numeric', A: 'alphanumeric', B: 'byte' } as const;
  let from = 0;
  for (let i = 1; i <= chars.length; i++) {
    if (i < chars.length && modes[i] === modes[from]) continue;
    const data = chars.slice(from, i).join('');
    const m = name[modes[from]!];
    segments.push({ mode: m, data: m === 'byte' ? Buffer.from(data, 'utf8') : data });
    from = i;
  }
  return segments;
}

/** A mask's penalty (the four rules of ISO 18004, the third as described at drawZplQr). */
function qrPenalty(m: QrModules): number {
  const size = m.size;
  const d = m.data;
  let points = 0;
  // Rows, then columns: module k of line i.
  for (let pass = 0; pass < 2; pass++) {
    const at =
      pass === 0 ? (i: number, k: number) => i * size + k : (i: number, k: number) => k * size + i;
    for (let i = 0; i < size; i++) {
      // 1: runs of five or more of a colour, 3 + 1 a module beyond five.
      let run = 1;
      for (let k = 1; k <= size; k++) {
        if (k < size && d[at(i, k)] === d[at(i, k - 1)]) run++;
        else {
          if (run >= 5) points += run - 2;
          run = 1;
        }
      }
      // 3: 40 for each dark-light-dark×3-light-dark run with four light modules before or
      // after it, outside the symbol counting as light.
      for (let k = 0; k + 7 <= size; k++) {
        if (
          !d[at(i, k)] ||
          d[at(i, k + 1)] ||
          !d[at(i, k + 2)] ||
          !d[at(i, k + 3)] ||
          !d[at(i, k + 4)] ||
          d[at(i, k + 5)] ||
          !d[at(i, k + 6)]
        )
          continue;
        let before = true;
        let after = true;
        for (let j = 1; j <= 4; j++) {
          if (k - j >= 0 && d[at(i, k - j)]) before = false;
          if (k + 6 + j < size && d[at(i, k + 6 + j)]) after = false;
        }
        if (before || after) points += 40;
      }
    }
  }
  // 2: 3 for each 2 × 2 block of one colour.
  for (let r = 0; r + 1 < size; r++) {
    for (let c = 0; c + 1 < size; c++) {
      const i = r * size + c;
      const sum = d[i]! + d[i + 1]! + d[i + size]! + d[i + size + 1]!;
      if (sum === 0 || sum === 4) points += 3;
    }
  }
  // 4: 10 for each whole 5 % the dark modules (whole percents) are away from half.
  let dark = 0;
  for (let i = 0; i < d.length; i++) dark += d[i]!;
  points += Math.floor(Math.abs(Math.floor((dark * 100) / d.length) - 50) / 5) * 10;
  return points;
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
 * MaxiCode's layout as Labelary draws it (read back from its renders of the UPS labels, where
 * every hexagon and ring falls on this grid): in units of 0.34 mm (2.72 dots at 8 dots/mm),
 * hexagon centres 2.46 apart across and 2.135 down, odd rows half a pitch right; each hexagon
 * pointed at the top, 1.25 from centre to point and 1.075 to a flat side, its corners cut to
 * whole dots; the bullseye's six circles around (35.76, 35.60). The symbol is 74 × 72 units,
 * about 25.2 × 24.5 mm (ISO/IEC 16023's nominal symbol is 28.14 × 26.91 mm; Labelary's is
 * smaller).
 */
const MAXI_UNIT_MM = 0.34;
const MAXI_HEX_X = [0, 0.86, 0.86, 0, -0.86, -0.86].map((x) => x * 1.25);
const MAXI_HEX_Y = [1, 0.5, -0.5, -1, -0.5, 0.5].map((y) => y * 1.25);
const MAXI_RINGS = [10.85, 8.97, 7.1, 5.22, 3.31, 1.43];

/**
 * A convex hexagon filled as fillPolygons fills it (dots whose centres are inside; a crossing
 * rounded to the nearest dot edge), without its general bookkeeping: a MaxiCode has hundreds.
 */
function fillConvexHexagon(bitmap: Bitmap, xs: number[], ys: number[]): void {
  const top = Math.min(...ys);
  const bottom = Math.max(...ys);
  for (let y = top; y < bottom; y++) {
    const sy = y + 0.5;
    let from = Infinity;
    let to = -Infinity;
    for (let k = 0; k < 6; k++) {
      const j = k === 5 ? 0 : k + 1;
      const ay = ys[k]!;
      const by = ys[j]!;
      if (ay === by || sy < Math.min(ay, by) || sy >= Math.max(ay, by)) continue;
      const x = xs[k]! + ((sy - ay) * (xs[j]! - xs[k]!)) / (by - ay);
      from = Math.min(from, x);
      to = Math.max(to, x);
    }
    if (to > from) bitmap.fill(Math.round(from), y, Math.round(to) - Math.round(from), 1);
  }
}

/**
 * MaxiCode: 33 rows of 30 hexagons around a bullseye (bwip-js gives the indexes of the dark
 * hexagons), drawn at the size and on the grid of Labelary's renders (see MAXI_UNIT_MM).
 */
export function drawMaxicode(
  text: string,
  bwipOptions: Record<string, unknown>,
  dpmm: number,
): Bitmap {
  const symbol = raw('maxicode', text, bwipOptions)[0] as { pixs: number[] };
  const unit = MAXI_UNIT_MM * dpmm;
  const bitmap = new Bitmap(Math.ceil(74 * unit), Math.ceil(72 * unit));
  const xs = [0, 0, 0, 0, 0, 0];
  const ys = [0, 0, 0, 0, 0, 0];
  for (const index of symbol.pixs) {
    const row = Math.floor(index / 30);
    const col = index % 30;
    const cx = 2.46 * col + 1.23 + (row % 2 === 1 ? 1.23 : 0);
    const cy = 2.135 * row + 1.43;
    for (let k = 0; k < 6; k++) {
      xs[k] = Math.trunc((cx + MAXI_HEX_X[k]!) * unit);
      ys[k] = Math.trunc((cy + MAXI_HEX_Y[k]!) * unit);
    }
    fillConvexHexagon(bitmap, xs, ys);
  }
  // The bullseye: dark between circles 1 and 2, 3 and 4, 5 and 6 (dot centres inside).
  const cx = 35.76 * unit;
  const cy = 35.6 * unit;
  const radii = MAXI_RINGS.map((r) => r * unit);
  const reach = Math.ceil(radii[0]!) + 1;
  for (let y = Math.floor(cy) - reach; y <= Math.ceil(cy) + reach; y++) {
    for (let x = Math.floor(cx) - reach; x <= Math.ceil(cx) + reach; x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      for (let band = 0; band < radii.length; band += 2) {
        if (d < radii[band]! && d >= radii[band + 1]!) bitmap.set(x, y, 1);
      }
    }
  }
  return bitmap;
}
