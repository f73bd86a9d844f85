/** The printer's settings that ESC @ resets, with the defaults of an Epson TM receipt printer. */
import { characterTable, type CharacterTable } from './charsets.js';
import type { Alignment, FontName } from './types.js';

export type HriPosition = 'none' | 'above' | 'below' | 'both';
export type QrErrorLevel = 'L' | 'M' | 'Q' | 'H';

/** Line spacing after ESC @ or ESC 2, in dots. */
export const DEFAULT_LINE_SPACING = 30;
/** Default tab stops: every 8 characters of font A. */
export const DEFAULT_TAB_INTERVAL = 8 * 12;

export interface PrinterState {
  font: FontName;
  emphasized: boolean;
  doubleStrike: boolean;
  underline: 0 | 1 | 2;
  invert: boolean;
  widthMul: number;
  heightMul: number;
  /** ESC SP: extra dots after each character (before multiplication). */
  charSpacing: number;
  align: Alignment;
  lineSpacing: number;
  leftMargin: number;
  /** GS W; clamped to the paper at use. */
  areaWidth: number;
  /** Tab stops in dots from the start of the print area, ascending. */
  tabStops: number[];
  table: CharacterTable;
  /** ESC R: international character set (0 U.S.A.). */
  international: number;
  /** ESC {: each line is printed turned 180° within the print area. */
  upsideDown: boolean;
  /** FS & (on) / FS . (off): bytes from 0x81 are two- or four-byte GB18030 characters. */
  kanji: boolean;
  barcode: { height: number; moduleWidth: number; hri: HriPosition; hriFont: FontName };
  qr: { moduleSize: number; errorLevel: QrErrorLevel; data: Uint8Array | undefined };
}

export function initialState(paperWidth: number): PrinterState {
  const tabStops: number[] = [];
  for (let x = DEFAULT_TAB_INTERVAL; x < paperWidth; x += DEFAULT_TAB_INTERVAL) tabStops.push(x);
  return {
    font: 'A',
    emphasized: false,
    doubleStrike: false,
    underline: 0,
    invert: false,
    widthMul: 1,
    heightMul: 1,
    charSpacing: 0,
    align: 'left',
    lineSpacing: DEFAULT_LINE_SPACING,
    leftMargin: 0,
    areaWidth: paperWidth,
    tabStops,
    table: characterTable(0)!,
    international: 0,
    upsideDown: false,
    kanji: false,
    barcode: { height: 162, moduleWidth: 3, hri: 'none', hriFont: 'A' },
    qr: { moduleSize: 3, errorLevel: 'L', data: undefined },
  };
}
