/**
 * The printer-neutral commands the layout produces: what to print, in which style, where. A
 * printer language (languages/) turns a list of them into what one kind of printer receives
 * (ESC/POS bytes, StarPRNT bytes, ePOS-Print XML, a PNG), as ReceiptPrinterEncoder's language
 * classes do. Text is already laid out: each `text` is one line's cells in the code page the
 * layout chose (one char code 0-255 per cell, see codepage/encode.ts).
 */
import type { CodepageName } from '../codepage/index.js';
import type { BarcodeFormat } from '../printers/index.js';
import type { Bitmap } from './image.js';
import type { Align } from './layout.js';

/**
 * The languages a receipt can be encoded in (EncodeOptions.language). Not the protocol's
 * PRINTER_LANGUAGES (escpos, zpl, epl: what an agent's printer speaks).
 */
export const RECEIPT_LANGUAGES = ['escpos', 'starprnt', 'epos-xml', 'raster'] as const;
export type PrinterLanguage = (typeof RECEIPT_LANGUAGES)[number];

const MEDIA_TYPES: Record<PrinterLanguage, string> = {
  escpos: 'application/octet-stream',
  starprnt: 'application/vnd.star.starprnt',
  'epos-xml': 'text/xml',
  raster: 'image/png',
};

/** The media type of a language's output (what CloudPRNT's GET and SDP answer with). */
export function mediaTypeOf(language: PrinterLanguage): string {
  return MEDIA_TYPES[language];
}

export type PrinterCommand =
  /** Settings back to the power-on defaults; text from here on is in `codepage`. */
  | { op: 'initialize'; codepage: CodepageName }
  | { op: 'align'; align: Align }
  | { op: 'font'; font: 'a' | 'b' }
  | { op: 'bold'; on: boolean }
  | { op: 'underline'; on: boolean }
  | { op: 'invert'; on: boolean }
  /** Character width and height multipliers, 1-8. */
  | { op: 'size'; width: number; height: number }
  /** Cells of the current line (code page char codes 0-255). */
  | { op: 'text'; cells: string }
  /** Prints the current line and moves to the next one. */
  | { op: 'newline' }
  /** CJK text printed in the printer's own font (ESC/POS Kanji mode, GB18030). */
  | { op: 'native'; text: string }
  | { op: 'feed'; lines: number }
  | { op: 'cut'; mode: 'full' | 'partial' }
  | { op: 'drawer'; pin: 2 | 5 }
  /** A QR code, model 2, `size` dots a module, aligned by the current alignment. */
  | { op: 'qr'; data: Uint8Array; size: number; errorLevel: 'L' | 'M' | 'Q' | 'H' }
  /**
   * A barcode, aligned by the current alignment. `data` is the value as Epson's GS k takes it
   * (check digit dropped for UPC-A/EAN, CODE128 with its `{B`/`{C` code sets); `value` as given.
   */
  | {
      op: 'barcode';
      format: BarcodeFormat;
      value: string;
      data: string;
      height: number;
      width: number;
      hri: 'none' | 'above' | 'below' | 'both';
    }
  /** A 1-bit picture printed from the left edge (alignment is in its left padding). */
  | { op: 'raster'; bitmap: Bitmap }
  /** Bytes of a `raw` block, for ESC/POS printers only. */
  | { op: 'raw'; bytes: Uint8Array };

/** What the block encoders write to: a list of commands, with one method per command. */
export class CommandList {
  readonly commands: PrinterCommand[] = [];

  push(command: PrinterCommand): this {
    this.commands.push(command);
    return this;
  }
  align(align: Align): this {
    return this.push({ op: 'align', align });
  }
  font(font: 'a' | 'b'): this {
    return this.push({ op: 'font', font });
  }
  bold(on: boolean): this {
    return this.push({ op: 'bold', on });
  }
  underline(on: boolean): this {
    return this.push({ op: 'underline', on });
  }
  invert(on: boolean): this {
    return this.push({ op: 'invert', on });
  }
  size(width: number, height: number): this {
    return this.push({ op: 'size', width, height });
  }
  /** One line of cells, then a new line. */
  line(cells: string): this {
    return this.push({ op: 'text', cells }).push({ op: 'newline' });
  }
  text(cells: string): this {
    return this.push({ op: 'text', cells });
  }
  newline(): this {
    return this.push({ op: 'newline' });
  }
  feed(lines: number): this {
    return this.push({ op: 'feed', lines });
  }
  raster(bitmap: Bitmap): this {
    return this.push({ op: 'raster', bitmap });
  }
}
