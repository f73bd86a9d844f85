/**
 * The ESC/POS commands the encoder emits, as byte arrays. Each one is listed in docs/receipts.md.
 */
export const ESC = 0x1b;
export const GS = 0x1d;
export const LF = 0x0a;

export const ALIGN_CODE = { left: 0, center: 1, right: 2 } as const;

/** ESC @: initialize the printer (clears styles, codepage, barcode settings). */
export const initialize = (): number[] => [ESC, 0x40];
/** ESC t n: select the character code table. */
export const selectCodepage = (n: number): number[] => [ESC, 0x74, n];
/** ESC a n: justification, 0 left, 1 center, 2 right. */
export const justify = (align: keyof typeof ALIGN_CODE): number[] => [ESC, 0x61, ALIGN_CODE[align]];
/** ESC E n: emphasized (bold) on or off. */
export const bold = (on: boolean): number[] => [ESC, 0x45, on ? 1 : 0];
/** ESC - n: underline on (1 dot) or off. */
export const underline = (on: boolean): number[] => [ESC, 0x2d, on ? 1 : 0];
/** ESC M n: font A (12×24) or B (9×17). */
export const font = (f: 'a' | 'b'): number[] => [ESC, 0x4d, f === 'b' ? 1 : 0];
/** GS B n: white on black on or off. */
export const invert = (on: boolean): number[] => [GS, 0x42, on ? 1 : 0];
/** GS ! n: character size, width and height multipliers 1-8 (high nibble width, low height). */
export const charSize = (width: number, height: number): number[] => [
  GS,
  0x21,
  ((width - 1) << 4) | (height - 1),
];
/** ESC d n: print and feed n lines. */
export const feedLines = (n: number): number[] => [ESC, 0x64, n];
/** GS V m n (function B): feed to the cutter plus n dots, then cut fully (65) or partially (66). */
export const cut = (mode: 'full' | 'partial'): number[] => [GS, 0x56, mode === 'full' ? 65 : 66, 0];
/** ESC p m t1 t2: pulse the drawer kick-out connector (m 0 pin 2, 1 pin 5) for 50 ms on, 500 ms off. */
export const drawerPulse = (pin: 2 | 5): number[] => [ESC, 0x70, pin === 2 ? 0 : 1, 25, 250];

/** GS ( k with cn 49 (QR code): `fn` and its parameters. */
function qrFunction(fn: number, params: readonly number[]): number[] {
  const len = params.length + 2;
  return [GS, 0x28, 0x6b, len & 0xff, len >> 8, 49, fn, ...params];
}
/** Function 165: select model 2. */
export const qrModel2 = (): number[] => qrFunction(65, [50, 0]);
/** Function 167: module size in dots. */
export const qrModuleSize = (dots: number): number[] => qrFunction(67, [dots]);
/** Function 169: error correction level L, M, Q or H (48-51). */
export const qrErrorLevel = (level: 'L' | 'M' | 'Q' | 'H'): number[] =>
  qrFunction(69, [{ L: 48, M: 49, Q: 50, H: 51 }[level]]);
/** Function 180 header: store `length` bytes of data (the data follows). */
export const qrStoreHeader = (length: number): number[] => {
  const len = length + 3;
  return [GS, 0x28, 0x6b, len & 0xff, len >> 8, 49, 80, 48];
};
/** Function 181: print the stored symbol. */
export const qrPrint = (): number[] => qrFunction(81, [48]);

/** GS H n: HRI position, 0 none, 1 above, 2 below, 3 both. */
export const hriPosition = (hri: 'none' | 'above' | 'below' | 'both'): number[] => [
  GS,
  0x48,
  { none: 0, above: 1, below: 2, both: 3 }[hri],
];
/** GS h n: barcode height in dots. */
export const barcodeHeight = (dots: number): number[] => [GS, 0x68, dots];
/** GS w n: barcode module width in dots. */
export const barcodeWidth = (dots: number): number[] => [GS, 0x77, dots];
/** GS k m n (function B) header; the n data bytes follow. */
export const barcodeHeader = (m: number, length: number): number[] => [GS, 0x6b, m, length];

/** GS v 0 header: raster bit image, normal density, `rowBytes` × `rows`; the data follows. */
export const rasterHeader = (rowBytes: number, rows: number): number[] => [
  GS,
  0x76,
  0x30,
  0,
  rowBytes & 0xff,
  rowBytes >> 8,
  rows & 0xff,
  rows >> 8,
];
