/**
 * The StarPRNT commands Printwire sends (Star's StarPRNT Command Specifications), as byte
 * arrays. Each one is listed in docs/receipts.md, "Printer languages".
 */
import type { CodepageName } from '../../codepage/index.js';
import type { BarcodeFormat } from '../../printers/index.js';

export const ESC = 0x1b;
export const GS = 0x1d;
export const RS = 0x1e;
export const LF = 0x0a;
export const BEL = 0x07;
export const SUB = 0x1a;

/**
 * Star's own code page numbers (ESC GS t n) for the code pages Printwire lays text out in.
 * Star has no CP850 or ISO-8859-15: text for a Star printer is laid out in CP858 (CP850 with
 * the euro sign) and CP1252 instead (see layoutCodepage).
 */
export const STAR_CODEPAGES: Partial<Record<CodepageName, number>> = {
  CP437: 1,
  CP858: 4,
  CP866: 10,
  CP1252: 32,
};

/** ESC b n1: the symbologies of Star's barcode command. */
export const STAR_BARCODE: Record<BarcodeFormat, number> = {
  'UPC-A': 1,
  EAN8: 2,
  EAN13: 3,
  CODE39: 4,
  ITF: 5,
  CODE128: 6,
};

/** ESC @: initialize. */
export const initialize = (): number[] => [ESC, 0x40];
/** ESC GS t n: code page (Star's numbers). */
export const codepage = (n: number): number[] => [ESC, GS, 0x74, n];
/** ESC GS a n: alignment, 0 left, 1 center, 2 right. */
export const align = (a: 'left' | 'center' | 'right'): number[] => [
  ESC,
  GS,
  0x61,
  { left: 0, center: 1, right: 2 }[a],
];
/** ESC RS F n: font A (12 × 24) or B (9 × 24). */
export const font = (f: 'a' | 'b'): number[] => [ESC, RS, 0x46, f === 'b' ? 1 : 0];
/** ESC E / ESC F: emphasized on / off. */
export const bold = (on: boolean): number[] => [ESC, on ? 0x45 : 0x46];
/** ESC - n: underline on (1) or off (0). */
export const underline = (on: boolean): number[] => [ESC, 0x2d, on ? 1 : 0];
/** ESC 4 / ESC 5: white/black reverse on / off. */
export const invert = (on: boolean): number[] => [ESC, on ? 0x34 : 0x35];
/** ESC i n1 n2: character expansion, height then width, 0-5 (1 to 6 times). */
export const size = (width: number, height: number): number[] => [ESC, 0x69, height - 1, width - 1];
/** ESC a n: feed n lines. */
export const feedLines = (n: number): number[] => [ESC, 0x61, n];
/** ESC d n: feed to the cutter, then cut fully (2) or partially (3). */
export const cut = (mode: 'full' | 'partial'): number[] => [ESC, 0x64, mode === 'full' ? 2 : 3];
/** ESC BEL n1 n2: drawer pulse on and off time in 10 ms units (then BEL or SUB fires it). */
export const drawerPulseWidth = (onMs: number, offMs: number): number[] => [
  ESC,
  BEL,
  Math.round(onMs / 10),
  Math.round(offMs / 10),
];
/** BEL opens drawer 1 (pin 2), SUB drawer 2 (pin 5). */
export const drawerKick = (pin: 2 | 5): number => (pin === 2 ? BEL : SUB);

/** ESC GS y S 0 n: QR model (2). */
export const qrModel2 = (): number[] => [ESC, GS, 0x79, 0x53, 0x30, 2];
/** ESC GS y S 1 n: error correction 0 L, 1 M, 2 Q, 3 H. */
export const qrErrorLevel = (level: 'L' | 'M' | 'Q' | 'H'): number[] => [
  ESC,
  GS,
  0x79,
  0x53,
  0x31,
  { L: 0, M: 1, Q: 2, H: 3 }[level],
];
/** ESC GS y S 2 n: module (cell) size in dots, 1-8. */
export const qrCellSize = (dots: number): number[] => [ESC, GS, 0x79, 0x53, 0x32, dots];
/** ESC GS y D 1 0 nL nH: store data, automatic mode (the data follows). */
export const qrStoreHeader = (length: number): number[] => [
  ESC,
  GS,
  0x79,
  0x44,
  0x31,
  0,
  length & 0xff,
  length >> 8,
];
/** ESC GS y P: print the stored QR code. */
export const qrPrint = (): number[] => [ESC, GS, 0x79, 0x50];

/**
 * ESC b n1 n2 n3 n4 d… RS: barcode. n2 1 no human-readable text, 2 text below; n3 the module
 * width mode 1-3 (2, 3 or 4 dots); n4 the height in dots.
 */
export const barcodeHeader = (
  format: BarcodeFormat,
  hri: boolean,
  mode: number,
  height: number,
): number[] => [ESC, 0x62, STAR_BARCODE[format], hri ? 2 : 1, mode, height];

/** ESC GS S 1 xL xH yL yH 0: a 1-bit raster image, x bytes a row, y rows (the data follows). */
export const rasterHeader = (rowBytes: number, rows: number): number[] => [
  ESC,
  GS,
  0x53,
  1,
  rowBytes & 0xff,
  rowBytes >> 8,
  rows & 0xff,
  rows >> 8,
  0,
];
