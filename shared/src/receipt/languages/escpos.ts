/** ESC/POS: each command as the bytes of commands.ts (the encoder's output before languages). */
import iconv from 'iconv-lite';
import * as cmd from '../commands.js';
import { GS_K_FORMAT } from '../barcode.js';
import type { PrinterCommand } from '../printer-commands.js';
import { ByteWriter } from '../writer.js';
import type { LanguageJob, PrinterLanguageEncoder } from './language.js';

/** FS & / FS .: Kanji mode on and off (GB18030 on the Chinese models). */
const FS = 0x1c;

function write(out: ByteWriter, c: PrinterCommand, job: LanguageJob): void {
  switch (c.op) {
    case 'initialize':
      out.push(...cmd.initialize(), ...cmd.selectCodepage(job.profile.codepages[c.codepage]!));
      return;
    case 'align':
      out.push(...cmd.justify(c.align));
      return;
    case 'font':
      out.push(...cmd.font(c.font));
      return;
    case 'bold':
      out.push(...cmd.bold(c.on));
      return;
    case 'underline':
      out.push(...cmd.underline(c.on));
      return;
    case 'invert':
      out.push(...cmd.invert(c.on));
      return;
    case 'size':
      out.push(...cmd.charSize(c.width, c.height));
      return;
    case 'text':
      out.text(c.cells);
      return;
    case 'newline':
      out.push(cmd.LF);
      return;
    case 'native':
      out.push(FS, 0x26).bytes(iconv.encode(c.text, 'gb18030')).push(FS, 0x2e);
      return;
    case 'feed':
      out.push(...cmd.feedLines(c.lines));
      return;
    case 'cut':
      out.push(...cmd.cut(c.mode));
      return;
    case 'drawer':
      out.push(...cmd.drawerPulse(c.pin));
      return;
    case 'qr':
      out.push(...cmd.qrModel2(), ...cmd.qrModuleSize(c.size), ...cmd.qrErrorLevel(c.errorLevel));
      out.push(...cmd.qrStoreHeader(c.data.length)).bytes(c.data);
      out.push(...cmd.qrPrint());
      return;
    case 'barcode':
      out.push(...cmd.hriPosition(c.hri), ...cmd.barcodeHeight(c.height));
      out.push(...cmd.barcodeWidth(c.width));
      out.push(...cmd.barcodeHeader(GS_K_FORMAT[c.format], c.data.length)).text(c.data);
      return;
    case 'raster':
      out.push(...cmd.rasterHeader(c.bitmap.rowBytes, c.bitmap.height)).bytes(c.bitmap.data);
      return;
    case 'raw':
      out.bytes(c.bytes);
      return;
  }
}

export const escposLanguage: PrinterLanguageEncoder = {
  encode(commands, job) {
    const out = new ByteWriter(8192);
    for (const c of commands) write(out, c, job);
    return out.toUint8Array();
  },
};
