/**
 * StarPRNT commands as a Star mC-Print or TSP printer applies them (Star's StarPRNT Command
 * Specifications), drawn on the virtual printer's print mechanism. Each handler reads its
 * parameters from the reader (the prefix and command byte are consumed).
 */
import { characterTable } from '../escpos/charsets.js';
import { printBarcode } from '../escpos/barcode/draw.js';
import type { Symbology } from '../escpos/barcode/symbologies.js';
import type { Printer } from '../escpos/printer.js';
import { printQr } from '../escpos/qr.js';
import type { ByteReader } from '../escpos/reader.js';

/** What StarPRNT sets beyond the print mechanism's state: the drawer pulse of BEL and SUB. */
export interface StarSettings {
  pulseOnMs: number;
  pulseOffMs: number;
}

/** Star's default drawer pulse: 200 ms on, 200 ms off. */
export const starDefaults = (): StarSettings => ({ pulseOnMs: 200, pulseOffMs: 200 });

export type Handler = (r: ByteReader, p: Printer, star: StarSettings) => void;

const GS = 0x1d;
const RS = 0x1e;

/** Star's code page numbers (ESC GS t n) → the virtual printer's tables (by Epson's ESC t number). */
const STAR_TO_TABLE: Record<number, number> = {
  0: 0, // normal (CP437)
  1: 0, // CP437
  2: 1, // Katakana
  3: 0, // CP437 (international variant)
  4: 19, // CP858
  5: 18, // CP852
  6: 3, // CP860
  7: 35, // CP861
  8: 4, // CP863
  9: 5, // CP865
  10: 17, // CP866
  11: 34, // CP855
  12: 13, // CP857
  13: 36, // CP862
  15: 14, // CP737
  17: 38, // CP869
  32: 16, // CP1252
};

/** ESC b n1: Star's symbologies. */
const SYMBOLOGIES: Record<number, Symbology> = {
  0: 'UPC-E',
  1: 'UPC-A',
  2: 'EAN8',
  3: 'EAN13',
  4: 'CODE39',
  5: 'ITF',
  6: 'CODE128',
  7: 'CODE93',
  8: 'CODABAR',
};

/** Line spacing of ESC z n (3 mm or 4 mm) and ESC 0 (1/8 inch), in dots at 203 dpi. */
const LINE_SPACINGS = { z0: 24, z1: 32, eighth: 25 };

/** Longest barcode data before RS, as on the printer. */
const MAX_BARCODE_DATA = 255;

const ALIGNMENTS = ['left', 'center', 'right'] as const;

/** The state of the QR code being set up (ESC GS y …); kept on the printer's QR state. */
function qrSetting(r: ByteReader, p: Printer): void {
  const head = r.take(2);
  if (!head) return;
  const [which, n] = head as unknown as [number, number];
  const qr = p.state.qr;
  if (which === 0x30) {
    if (n !== 1 && n !== 2) r.warn(`ESC GS y S 0 ${n} is not QR model 1 or 2: model 2 used`);
  } else if (which === 0x31) {
    const level = (['L', 'M', 'Q', 'H'] as const)[n];
    if (level) qr.errorLevel = level;
    else r.warn(`ESC GS y S 1 ${n} is not an error correction level of 0-3: ignored`);
  } else if (which === 0x32) {
    if (n >= 1 && n <= 8) qr.moduleSize = n;
    else r.warn(`ESC GS y S 2 ${n} is not a cell size of 1-8: ignored`);
  } else {
    r.warn(`ESC GS y S ${which} is unknown: skipped`);
  }
}

/** ESC GS y …: QR code setting (S), data (D 1 m nL nH d…) and print (P). */
function qrCode(r: ByteReader, p: Printer): void {
  const sub = r.byte();
  if (sub === undefined) return;
  if (sub === 0x53) return qrSetting(r, p);
  if (sub === 0x44) {
    const head = r.take(4);
    if (!head) return;
    const [mode, , nL, nH] = head as unknown as [number, number, number, number];
    if (mode !== 0x31) r.warn(`ESC GS y D ${mode} is not data storage (1): read as it`);
    p.state.qr.data = Uint8Array.from(r.data(nL + nH * 256));
    return;
  }
  if (sub === 0x50) return printQr(p, r.warnings);
  r.warn(`ESC GS y ${String.fromCharCode(sub)} is unknown: skipped`);
}

/** ESC GS S m xL xH yL yH n d…: a 1-bit raster image, x bytes a row, y rows. */
function rasterImage(r: ByteReader, p: Printer): void {
  const head = r.take(6);
  if (!head) return;
  const [m, xL, xH, yL, yH, n] = head as unknown as number[];
  if (m !== 1 || n !== 0) r.warn(`ESC GS S ${m} … ${n}: only m 1 and n 0 (1 bit) are drawn`);
  const stride = xL! + xH! * 256;
  const rows = yL! + yH! * 256;
  const data = r.data(stride * rows);
  const width = Math.min(stride * 8, p.printArea().width);
  if (stride * 8 > width)
    r.warn(`ESC GS S image of ${stride * 8} dots is wider than the paper: cut`);
  const height = stride === 0 ? 0 : Math.min(rows, Math.floor(data.length / stride));
  if (width === 0 || height === 0) return;
  const bits = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((data[y * stride + (x >> 3)]! << (x & 7)) & 0x80) bits[y * width + x] = 1;
    }
  }
  p.printRaster(width, height, bits);
}

/**
 * ESC b n1 n2 n3 n4 d… RS: a barcode. Star picks CODE128's code sets itself; the virtual printer
 * draws it in code set B, which reads the same.
 */
function barcode(r: ByteReader, p: Printer): void {
  const head = r.take(4);
  if (!head) return;
  const [type, hri, mode, height] = head as unknown as [number, number, number, number];
  const end = r.bytes.indexOf(RS, r.pos);
  if (end === -1 || end - r.pos > MAX_BARCODE_DATA) {
    r.warn('ESC b data has no closing RS: barcode not printed');
    r.pos = r.bytes.length;
    return;
  }
  const data = r.bytes.subarray(r.pos, end);
  r.pos = end + 1;
  const symbology = SYMBOLOGIES[type];
  if (!symbology) return r.warn(`ESC b symbology ${type} is unknown: skipped`);
  if (mode < 1 || mode > 3) r.warn(`ESC b mode ${mode} is not 1-3: 1 used`);
  p.state.barcode = {
    height: Math.max(1, height),
    moduleWidth: mode >= 1 && mode <= 3 ? mode + 1 : 2,
    hri: hri === 2 || hri === 4 ? 'below' : 'none',
    hriFont: 'A',
  };
  const bytes =
    symbology === 'CODE128'
      ? Buffer.from('{B' + Buffer.from(data).toString('latin1').replace(/\{/g, '{{'), 'latin1')
      : data;
  printBarcode(p, r.warnings, symbology, bytes);
  if (hri === 1 || hri === 2) p.feed(p.state.lineSpacing);
}

/** ESC GS …: code page, alignment, QR codes, raster images. */
function escGs(r: ByteReader, p: Printer): void {
  const code = r.byte();
  if (code === undefined) return;
  switch (code) {
    case 0x74: {
      const n = r.byte();
      if (n === undefined) return;
      const table = STAR_TO_TABLE[n] === undefined ? undefined : characterTable(STAR_TO_TABLE[n]!);
      if (table) p.state.table = table;
      else r.warn(`ESC GS t ${n}: code page not drawn; the previous one is kept`);
      return;
    }
    case 0x61: {
      const n = r.byte();
      if (n === undefined) return;
      const align = ALIGNMENTS[n >= 48 ? n - 48 : n];
      if (align) p.state.align = align;
      else r.warn(`ESC GS a ${n} is not an alignment of 0-2: ignored`);
      return;
    }
    case 0x79:
      return qrCode(r, p);
    case 0x53:
      return rasterImage(r, p);
    default:
      r.warn(`unknown command ESC GS 0x${code.toString(16)}: skipped 3 bytes`);
  }
}

function expansion(r: ByteReader, n: number | undefined, what: string): number | undefined {
  if (n === undefined) return undefined;
  if (n <= 5) return n + 1;
  r.warn(`${what} ${n} is not an expansion of 0-5: ignored`);
  return undefined;
}

export const ESC_HANDLERS: Record<number, Handler> = {
  0x40: (_r, p, star) => {
    p.reset();
    Object.assign(star, starDefaults());
  },
  [GS]: escGs,
  // ESC RS F n: font A (0) or B (1)
  [RS]: (r, p) => {
    const head = r.take(2);
    if (!head) return;
    if (head[0] !== 0x46) return r.warn(`ESC RS 0x${head[0]!.toString(16)} is unknown: skipped`);
    p.state.font = head[1] === 1 ? 'B' : 'A';
  },
  0x45: (_r, p) => void (p.state.emphasized = true),
  0x46: (_r, p) => void (p.state.emphasized = false),
  0x2d: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.state.underline = n === 1 || n === 0x31 ? 1 : 0;
  },
  0x34: (_r, p) => void (p.state.invert = true),
  0x35: (_r, p) => void (p.state.invert = false),
  // ESC i n1 n2: height and width expansion
  0x69: (r, p) => {
    const head = r.take(2);
    if (!head) return;
    const h = expansion(r, head[0], 'ESC i height');
    const w = expansion(r, head[1], 'ESC i width');
    if (h !== undefined) p.state.heightMul = h;
    if (w !== undefined) p.state.widthMul = w;
  },
  0x57: (r, p) => {
    const w = expansion(r, r.byte(), 'ESC W');
    if (w !== undefined) p.state.widthMul = w;
  },
  0x68: (r, p) => {
    const h = expansion(r, r.byte(), 'ESC h');
    if (h !== undefined) p.state.heightMul = h;
  },
  // ESC a n: print the line and feed n lines
  0x61: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.printLine(n * p.state.lineSpacing);
  },
  // ESC d n: cut (0, 2 full; 1, 3 partial; 2 and 3 after feeding to the cutter)
  0x64: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    const m = n >= 48 ? n - 48 : n;
    if (m > 3) return r.warn(`ESC d ${n} is not a cut of 0-3: ignored`);
    p.cut(m % 2 === 0 ? 'full' : 'partial');
  },
  // ESC BEL n1 n2: drawer pulse on and off time (10 ms units) for BEL and SUB
  0x07: (r, _p, star) => {
    const head = r.take(2);
    if (!head) return;
    star.pulseOnMs = head[0]! * 10;
    star.pulseOffMs = head[1]! * 10;
  },
  0x62: barcode,
  0x7a: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.state.lineSpacing = n === 0 ? LINE_SPACINGS.z0 : LINE_SPACINGS.z1;
  },
  0x30: (_r, p) => void (p.state.lineSpacing = LINE_SPACINGS.eighth),
};
