/**
 * The virtual printer: ESC/POS bytes in, the printed page out (as a bitmap with what was printed
 * where, or as a PNG). Names are prefixed where the receipt engine has a similar one.
 */
export { EscposInterpreter, interpretEscpos } from './interpreter.js';
export { renderEscposPreview, renderEscposToPng, type EscposPreview } from './render.js';
export { ESC_T_TABLES } from './charsets.js';
export { CUT_BAND } from './printer.js';
export {
  DEFAULT_MAX_HEIGHT as ESCPOS_DEFAULT_MAX_HEIGHT,
  PAPER_DOTS,
  type CutMark,
  type DrawerPulse,
  type Graphic as PrintedGraphic,
  type InterpretOptions as InterpretEscposOptions,
  type PrintedPage,
  type StatusRequest,
  type TextRun as PrintedTextRun,
  type TextStyle as PrintedTextStyle,
} from './types.js';
