/**
 * StarPRNT (Star mC-Print, TSP100IV, TSP650II…, CloudPRNT's application/vnd.star.starprnt):
 * each command as Star's own. What Star lacks is brought to what it has, with a warning: text
 * up to 6 times (not 8), QR modules up to 8 dots, barcode modules of 2-4 dots, the
 * human-readable text of a barcode below it only.
 */
import type { PrinterCommand } from '../printer-commands.js';
import { ByteWriter } from '../writer.js';
import type { LanguageJob, PrinterLanguageEncoder } from './language.js';
import * as star from './starprnt-commands.js';

const MAX_EXPANSION = 6;
const MAX_QR_CELL = 8;

function write(out: ByteWriter, c: PrinterCommand, job: LanguageJob): void {
  switch (c.op) {
    case 'initialize':
      out.push(...star.initialize(), ...star.codepage(star.STAR_CODEPAGES[c.codepage] ?? 1));
      return;
    case 'align':
      out.push(...star.align(c.align));
      return;
    case 'font':
      out.push(...star.font(c.font));
      return;
    case 'bold':
      out.push(...star.bold(c.on));
      return;
    case 'underline':
      out.push(...star.underline(c.on));
      return;
    case 'invert':
      out.push(...star.invert(c.on));
      return;
    case 'size': {
      const w = Math.min(MAX_EXPANSION, c.width);
      const h = Math.min(MAX_EXPANSION, c.height);
      if (w !== c.width || h !== c.height) {
        job.warn(
          `size: StarPRNT prints text at most ${MAX_EXPANSION} times its size; printed at ${MAX_EXPANSION}`,
        );
      }
      out.push(...star.size(w, h));
      return;
    }
    case 'text':
      out.text(c.cells);
      return;
    case 'newline':
      out.push(star.LF);
      return;
    case 'native':
      // Not emitted for StarPRNT (CJK goes as raster); kept readable if it ever is.
      out.text(c.text.replace(/[^\x20-\x7e]/g, '?'));
      return;
    case 'feed':
      out.push(...star.feedLines(c.lines));
      return;
    case 'cut':
      out.push(...star.cut(c.mode));
      return;
    case 'drawer':
      out.push(...star.drawerPulseWidth(50, 500), star.drawerKick(c.pin));
      return;
    case 'qr': {
      const cell = Math.min(MAX_QR_CELL, c.size);
      if (cell !== c.size) {
        job.warn(
          `qr size: StarPRNT draws QR modules of at most ${MAX_QR_CELL} dots; printed at ${MAX_QR_CELL}`,
        );
      }
      out.push(...star.qrModel2(), ...star.qrErrorLevel(c.errorLevel), ...star.qrCellSize(cell));
      out.push(...star.qrStoreHeader(c.data.length)).bytes(c.data);
      out.push(...star.qrPrint());
      return;
    }
    case 'barcode': {
      const mode = Math.max(1, Math.min(3, c.width - 1));
      if (mode + 1 !== c.width) {
        job.warn(
          `barcode width: StarPRNT draws bar modules of 2-4 dots; ${c.width} printed as ${mode + 1}`,
        );
      }
      if (c.hri === 'above' || c.hri === 'both') {
        job.warn(`barcode hri: StarPRNT prints the text of a barcode below it only`);
      }
      // Star chooses CODE128's code sets itself: it gets the value, not Epson's {B/{C data.
      const data = c.format === 'CODE128' ? c.value : c.data;
      out.push(...star.barcodeHeader(c.format, c.hri !== 'none', mode, c.height));
      out.text(data).push(star.RS);
      return;
    }
    case 'raster':
      out.push(...star.rasterHeader(c.bitmap.rowBytes, c.bitmap.height)).bytes(c.bitmap.data);
      return;
    case 'raw':
      return;
  }
}

export const starprntLanguage: PrinterLanguageEncoder = {
  encode(commands, job) {
    const out = new ByteWriter(8192);
    for (const c of commands) write(out, c, job);
    return out.toUint8Array();
  },
};
