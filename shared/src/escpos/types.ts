/** What the virtual printer reports besides the picture: what was printed where. */

export type Paper = '58mm' | '80mm';

/** Dots per line of each paper width (203 dpi heads: 48 mm and 72 mm printable). */
export const PAPER_DOTS: Record<Paper, number> = { '58mm': 384, '80mm': 576 };

export interface InterpretOptions {
  paper: Paper;
  /** Longest page in dots; a feed past it stops the interpretation with a warning. Default 20000. */
  maxHeight?: number;
  /** Distinct warnings kept (each with its count); later kinds are summed up in one. Default 50. */
  maxWarnings?: number;
  /**
   * Draws a dashed line with scissors where the paper is cut (default true). False leaves the
   * cut's band blank: the picture is then what a printer may print (the raster language).
   */
  cutMarks?: boolean;
}

export const DEFAULT_MAX_HEIGHT = 20_000;
export const DEFAULT_MAX_WARNINGS = 50;

export type FontName = 'A' | 'B';
export type Alignment = 'left' | 'center' | 'right';

export interface TextStyle {
  font: FontName;
  /** ESC E (emphasized) or ESC G (double strike): both print as double strike. */
  bold: boolean;
  /** Underline thickness in dots (ESC -): 0, 1 or 2. */
  underline: 0 | 1 | 2;
  /** GS B: white on black. */
  invert: boolean;
  /** GS ! / ESC ! width multiplier, 1-8. */
  width: number;
  /** GS ! / ESC ! height multiplier, 1-8. */
  height: number;
}

/** Characters of one style printed side by side on one line. */
export interface TextRun {
  text: string;
  /** Left edge in dots from the paper's left edge. */
  x: number;
  /** Top edge of the run's characters in dots from the top of the page. */
  y: number;
  width: number;
  height: number;
  /** Index of the printed line (0-based) the run belongs to. */
  line: number;
  style: TextStyle;
  /** The character table (ESC t) the bytes were decoded with, e.g. `CP437`. */
  codepage: string;
  alignment: Alignment;
  /** Printed turned 180° (ESC {); x and y are then those of the turned run. */
  upsideDown?: boolean;
}

export interface CutMark {
  /** Where the paper is cut, in dots from the top of the page. */
  y: number;
  mode: 'full' | 'partial';
}

export interface DrawerPulse {
  /** Connector pin: 2 or 5. */
  pin: 2 | 5;
  onMs: number;
  offMs: number;
  y: number;
}

/** A real-time or status command (DLE EOT, DLE ENQ, DLE DC4, GS r, GS I…): a printer answers it. */
export interface StatusRequest {
  command: string;
  /** Offset of the command in the input bytes. */
  offset: number;
}

export interface Graphic {
  kind: 'qr' | 'barcode' | 'raster' | 'bit-image';
  x: number;
  y: number;
  width: number;
  height: number;
  /** The barcode symbology (`CODE128`…) or `QR`. */
  symbology?: string;
  /** The encoded value of a QR code or barcode (bytes read as latin1). */
  data?: string;
}

/** The printed page: a 1-bit bitmap that grew downward, and what was printed where. */
export interface PrintedPage {
  /** 384 (58 mm) or 576 (80 mm). */
  width: number;
  /** The length of paper used, in dots (at least 1). */
  height: number;
  /** One byte per dot, row after row: 1 is black, 0 is white. */
  pixels: Uint8Array;
  textRuns: TextRun[];
  graphics: Graphic[];
  cuts: CutMark[];
  drawerPulses: DrawerPulse[];
  statusRequests: StatusRequest[];
  /** Deduplicated: `… (×3)` when a warning repeated. */
  warnings: string[];
}
