/**
 * ePOS-Print XML (Epson TM printers, Server Direct Print): one `<epos-print>` element, UTF-8.
 * Styles are attribute-only `<text …/>` elements that hold for the text after them (as in
 * Epson's own samples); text is the laid-out line turned back into Unicode (the printer picks
 * its code page itself); QR codes, barcodes, pictures, feeds, cuts and the drawer are their own
 * elements. Only elements and attributes of Epson's ePOS-Print XML reference are written.
 */
import { codepageMap, type CodepageName } from '../../codepage/index.js';
import { EPOS_PRINT_NAMESPACE } from '../../epos/interpreter.js';
import { barcodeModules } from '../barcode.js';
import type { PrinterCommand } from '../printer-commands.js';
import type { LanguageJob, PrinterLanguageEncoder } from './language.js';

/** ePOS `<barcode type>` of each format. */
export const EPOS_BARCODE_TYPES = {
  'UPC-A': 'upc_a',
  EAN13: 'ean13',
  EAN8: 'ean8',
  CODE39: 'code39',
  ITF: 'itf',
  CODE128: 'code128',
} as const;

const LF_REF = '&#10;';

/** Escapes text for XML character data and attribute values; drops what XML 1.0 cannot carry. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const decoders = new Map<CodepageName, string[]>();

/** Byte → character of a code page (what the printer would have printed for each cell). */
function decoder(codepage: CodepageName): string[] {
  let table = decoders.get(codepage);
  if (table === undefined) {
    table = [];
    for (let b = 0; b < 0x80; b++) table[b] = String.fromCharCode(b);
    for (const [cp, byte] of codepageMap(codepage)) {
      if (byte >= 0x80 && table[byte] === undefined) table[byte] = String.fromCodePoint(cp);
    }
    decoders.set(codepage, table);
  }
  return table;
}

/** CODE128 for ePOS: code set B throughout (`{` doubled), so the data stays printable text. */
function code128SetB(value: string): string {
  return '{B' + value.replace(/\{/g, '{{');
}

class EposWriter {
  private readonly parts: string[] = [];
  /** Character data of the `<text>` being gathered. */
  private pending = '';
  private table: string[] = decoder('CP437');

  constructor(private readonly job: LanguageJob) {}

  private flush(): void {
    if (this.pending === '') return;
    this.parts.push(`<text>${this.pending}</text>`);
    this.pending = '';
  }

  private element(xml: string): void {
    this.flush();
    this.parts.push(xml);
  }

  write(c: PrinterCommand): void {
    switch (c.op) {
      case 'initialize':
        this.table = decoder(c.codepage);
        return this.element('<text lang="en"/>');
      case 'align':
        return this.element(`<text align="${c.align}"/>`);
      case 'font':
        return this.element(`<text font="font_${c.font}"/>`);
      case 'bold':
        return this.element(`<text em="${c.on}"/>`);
      case 'underline':
        return this.element(`<text ul="${c.on}"/>`);
      case 'invert':
        return this.element(`<text reverse="${c.on}"/>`);
      case 'size':
        return this.element(`<text width="${c.width}" height="${c.height}"/>`);
      case 'text': {
        let s = '';
        for (let i = 0; i < c.cells.length; i++) s += this.table[c.cells.charCodeAt(i)] ?? '?';
        this.pending += escapeXml(s);
        return;
      }
      case 'newline':
        this.pending += LF_REF;
        return;
      case 'native':
        this.pending += escapeXml(c.text);
        return;
      case 'feed':
        return this.element(`<feed line="${c.lines}"/>`);
      case 'cut':
        // type "feed" (feed to the cutter, then cut) is what every TM model has; the full-cut
        // variants exist on some models only.
        return this.element('<cut type="feed"/>');
      case 'drawer':
        return this.element(
          `<pulse drawer="${c.pin === 2 ? 'drawer_1' : 'drawer_2'}" time="pulse_100"/>`,
        );
      case 'qr': {
        const data = escapeXml(Buffer.from(c.data).toString('utf8'));
        const level = `level_${c.errorLevel.toLowerCase()}`;
        return this.element(
          `<symbol type="qrcode_model_2" level="${level}" width="${c.size}" height="0" size="0">${data}</symbol>`,
        );
      }
      case 'barcode':
        return this.barcode(c);
      case 'raster': {
        const { width, height, data } = c.bitmap;
        const rowBytes = Math.ceil(width / 8);
        let packed = data;
        if (c.bitmap.rowBytes !== rowBytes) {
          packed = new Uint8Array(rowBytes * height);
          for (let y = 0; y < height; y++) {
            packed.set(
              data.subarray(y * c.bitmap.rowBytes, y * c.bitmap.rowBytes + rowBytes),
              y * rowBytes,
            );
          }
        }
        const base64 = Buffer.from(packed).toString('base64');
        return this.element(
          `<image width="${width}" height="${height}" color="color_1" mode="mono">${base64}</image>`,
        );
      }
      case 'raw':
        return;
    }
  }

  private barcode(c: Extract<PrinterCommand, { op: 'barcode' }>): void {
    let data = c.data;
    let width = c.width;
    if (c.format === 'CODE128') {
      data = code128SetB(c.value);
      const modules = barcodeModules('CODE128', data);
      const dots = this.job.page.dots;
      if (modules * width > dots) {
        width = Math.max(1, Math.floor(dots / modules));
        this.job.warn(
          `barcode width: the CODE128 barcode in code set B is wider than ${dots} dots; printed at width ${width}`,
        );
      }
    }
    if (width < 2) {
      this.job.warn('barcode width: ePOS-Print draws bar modules of at least 2 dots; printed at 2');
      width = 2;
    }
    const type = EPOS_BARCODE_TYPES[c.format];
    this.element(
      `<barcode type="${type}" hri="${c.hri}" font="font_a" width="${width}" height="${c.height}">${escapeXml(data)}</barcode>`,
    );
  }

  finish(): string {
    this.flush();
    return `<epos-print xmlns="${EPOS_PRINT_NAMESPACE}">${this.parts.join('')}</epos-print>`;
  }
}

export const eposXmlLanguage: PrinterLanguageEncoder = {
  encode(commands, job) {
    const writer = new EposWriter(job);
    for (const c of commands) writer.write(c);
    return new Uint8Array(Buffer.from(writer.finish(), 'utf8'));
  },
};
