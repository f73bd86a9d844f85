/**
 * The preview of what a printer receives, drawn from those very bytes: ESC/POS by the virtual
 * printer, StarPRNT by the StarPRNT interpreter, ePOS-Print XML by the ePOS interpreter; a
 * raster job is its own picture.
 */
import { PrintwireError } from '../../errors/index.js';
import { renderEscposToPng } from '../../escpos/render.js';
import { encodePng1Bit } from '../../escpos/png.js';
import { interpretEposXml } from '../../epos/interpreter.js';
import { interpretStarprnt } from '../../starprnt/interpreter.js';
import { RECEIPT_LANGUAGES, type PrinterLanguage } from '../printer-commands.js';

export interface PrinterBytesPreviewOptions {
  language: PrinterLanguage;
  paper: '58mm' | '80mm';
}

/** A 1-bit PNG of what a printer of `language` prints from `bytes` on `paper`. */
export async function renderPrinterBytesToPng(
  bytes: Uint8Array,
  options: PrinterBytesPreviewOptions,
): Promise<Buffer> {
  const { language, paper } = options;
  switch (language) {
    case 'escpos':
      return renderEscposToPng(bytes, { paper });
    case 'raster':
      return Buffer.from(bytes);
    case 'starprnt': {
      const page = interpretStarprnt(bytes, { paper });
      return encodePng1Bit(page.pixels, page.width, page.height);
    }
    case 'epos-xml': {
      const page = interpretEposXml(bytes, { paper });
      return encodePng1Bit(page.pixels, page.width, page.height);
    }
    default:
      throw new PrintwireError(
        'VALIDATION_FAILED',
        `language must be one of ${RECEIPT_LANGUAGES.join(', ')}, not ${String(language)}`,
      );
  }
}
