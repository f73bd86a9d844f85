/**
 * Round trip: a receipt encoded in StarPRNT or ePOS-Print XML and drawn by that language's
 * interpreter prints what the ESC/POS preview of the same receipt prints. Measured three ways:
 * the text runs (characters, column, style) are the same for every receipt of the corpus; the
 * page's text as tesseract reads it is the same; zbar decodes the same QR codes and barcodes.
 * Where they may differ: a Star barcode is followed by a line feed (ESC b's "with LF"), so what
 * follows it sits 30 dots lower, and Star and ePOS draw CODE128 in code sets of their choosing.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interpretEposXml } from '../epos/interpreter.js';
import { interpretEscpos } from '../escpos/interpreter.js';
import type { PrintedPage } from '../escpos/types.js';
import { interpretStarprnt } from '../starprnt/interpreter.js';
import { readWithTesseract, requireTool, skipWithout } from '../testing/escpos.js';
import { encodeReceiptWithReport } from './encoder.js';
import { renderPrinterBytesToPng } from './languages/preview.js';
import type { PrinterLanguage } from './printer-commands.js';

const dir = new URL('../../../test/fixtures/receipts/', import.meta.url);
const corpus = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, doc: JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as object }));

const INTERPRETERS = {
  starprnt: interpretStarprnt,
  'epos-xml': interpretEposXml,
} as const;

function paperOf(file: string): '58mm' | '80mm' {
  return file.includes('58mm') ? '58mm' : '80mm';
}

function page(
  doc: object,
  file: string,
  language: PrinterLanguage,
): { page: PrintedPage; warnings: string[]; codepage: string } {
  const paper = paperOf(file);
  const report = encodeReceiptWithReport(doc, `generic-${paper}`, { language });
  const interpret =
    language === 'escpos' ? interpretEscpos : INTERPRETERS[language as keyof typeof INTERPRETERS];
  return {
    page: interpret(report.bytes, { paper }),
    warnings: report.warnings,
    codepage: report.codepage,
  };
}

/** The text a page shows, line by line, without its height on the page. */
function textRuns(p: PrintedPage): string[] {
  return p.textRuns.map((r) => `${r.text}@${r.x} ${JSON.stringify(r.style)}`);
}

/** Warnings of a language that change what is printed (the rest, like a missing image, do not). */
const CHANGES_TEXT = /StarPRNT prints text at most|raw ESC\/POS bytes are not sent/;

describe('printer languages round trip: the corpus prints the same text', () => {
  for (const { file, doc } of corpus) {
    for (const language of ['starprnt', 'epos-xml'] as const) {
      test(`${file} in ${language}: the same text runs, QR codes, cuts and drawer pulses as ESC/POS`, () => {
        const escpos = page(doc, file, 'escpos');
        const other = page(doc, file, language);
        const { warnings } = other;
        assert.deepEqual(
          other.page.warnings,
          [],
          'the interpreter reads everything the encoder wrote',
        );
        const changed = warnings.some((w) => CHANGES_TEXT.test(w));
        if (!changed && other.codepage === escpos.codepage) {
          assert.deepEqual(textRuns(other.page), textRuns(escpos.page));
        } else if (!changed) {
          // Another code page (Star has no CP850 or ISO-8859-15) may print a character the
          // ESC/POS code page transliterated: the same lines in the same styles.
          const styles = (p: PrintedPage) => p.textRuns.map((r) => JSON.stringify(r.style));
          assert.deepEqual(styles(other.page), styles(escpos.page));
        }
        const qr = (p: PrintedPage) => p.graphics.filter((g) => g.kind === 'qr').map((g) => g.data);
        assert.deepEqual(qr(other.page), qr(escpos.page));
        const symbologies = (p: PrintedPage) =>
          p.graphics.filter((g) => g.kind === 'barcode').map((g) => g.symbology);
        assert.deepEqual(symbologies(other.page), symbologies(escpos.page));
        assert.equal(other.page.cuts.length, escpos.page.cuts.length);
        assert.deepEqual(
          other.page.drawerPulses.map((d) => d.pin),
          escpos.page.drawerPulses.map((d) => d.pin),
        );
      });
    }
  }
});

/** A receipt with text in both fonts and every style, symbols and a picture. */
const RECEIPT = {
  blocks: [
    { type: 'text', value: 'CORNER BAKERY', align: 'center', bold: true, size: 2 },
    { type: 'text', value: 'Twelve Baker Street', align: 'center' },
    { type: 'line' },
    { type: 'pair', left: 'Espresso coffee', right: '2.50' },
    { type: 'pair', left: 'Croissant with butter', right: '3.10', bold: true },
    {
      type: 'table',
      columns: [{ width: 0.6 }, { width: 0.4, align: 'right' }],
      rows: [
        ['Subtotal', '5.60'],
        ['Tax', '0.56'],
      ],
    },
    { type: 'text', value: 'Thank you for your visit', underline: true },
    { type: 'text', value: 'Members get a free coffee', invert: true },
    { type: 'text', value: 'Printed on recycled paper', font: 'b' },
    { type: 'qr', value: 'https://printwire.example/r/8812', align: 'center' },
    { type: 'feed', lines: 1 },
    { type: 'barcode', format: 'EAN13', value: '4006381333931', align: 'center', height: 60 },
    { type: 'barcode', format: 'CODE128', value: 'ORDER-20261127', align: 'center', height: 60 },
    { type: 'barcode', format: 'CODE39', value: 'PW39', align: 'center', height: 60 },
    { type: 'cut', mode: 'partial' },
  ],
};

const tmp = mkdtempSync(join(tmpdir(), 'printwire-languages-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function preview(language: PrinterLanguage): Promise<Buffer> {
  const { bytes } = encodeReceiptWithReport(RECEIPT, 'generic-80mm', { language });
  return renderPrinterBytesToPng(bytes, { language, paper: '80mm' });
}

describe(
  'printer languages round trip: tesseract reads the same text',
  { skip: skipWithout('tesseract') },
  () => {
    async function ocr(png: Buffer): Promise<string> {
      return (await readWithTesseract(png)).replace(/\s+/g, ' ').trim();
    }

    /** The words read, in order of reading within a line; lines close together may swap. */
    function words(text: string): string[] {
      return text.split(' ').sort();
    }

    test('the StarPRNT, ePOS and raster previews read word for word as the ESC/POS preview', async () => {
      const escpos = await ocr(await preview('escpos'));
      assert.match(escpos, /CORNER BAKERY.*Espresso coffee.*Thank you for your visit/);
      for (const language of ['starprnt', 'epos-xml', 'raster'] as const) {
        assert.deepEqual(words(await ocr(await preview(language))), words(escpos), language);
      }
    });
  },
);

describe(
  'printer languages round trip: zbar decodes the same symbols',
  { skip: skipWithout('zbarimg') },
  () => {
    function scan(png: Buffer, name: string): string[] {
      requireTool('zbarimg');
      const file = join(tmp, `${name}.png`);
      writeFileSync(file, png);
      const out = execFileSync('zbarimg', ['-q', file], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return out.trim().split('\n').sort();
    }

    test('the QR code and the EAN13, CODE128 and CODE39 barcodes decode to their values in every language', async () => {
      const expected = [
        'CODE-128:ORDER-20261127',
        'CODE-39:PW39',
        'EAN-13:4006381333931',
        'QR-Code:https://printwire.example/r/8812',
      ];
      for (const language of ['escpos', 'starprnt', 'epos-xml', 'raster'] as const) {
        assert.deepEqual(scan(await preview(language), language), expected, language);
      }
    });
  },
);
