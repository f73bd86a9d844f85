/**
 * A raster picture (CloudPRNT's image/png, and any printer that prints a picture): the receipt
 * as ESC/POS, drawn by the virtual printer without its cut marks, as a 1-bit PNG the paper's
 * full width (576 dots for 80 mm, 384 for 58 mm). A picture cannot open a drawer; the printer
 * cuts after it as its settings say.
 */
import { interpretEscpos } from '../../escpos/interpreter.js';
import { encodePng1Bit } from '../../escpos/png.js';
import { escposLanguage } from './escpos.js';
import type { PrinterLanguageEncoder } from './language.js';

export const rasterLanguage: PrinterLanguageEncoder = {
  encode(commands, job) {
    if (commands.some((c) => c.op === 'drawer')) {
      job.warn('drawer: a raster picture cannot open the cash drawer; not opened');
    }
    const escpos = escposLanguage.encode(
      commands.filter((c) => c.op !== 'drawer'),
      job,
    );
    const page = interpretEscpos(escpos, { paper: job.page.paper, cutMarks: false });
    return new Uint8Array(encodePng1Bit(page.pixels, page.width, page.height));
  },
};
