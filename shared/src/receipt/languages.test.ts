/**
 * Printer languages: every block type of the receipt schema comes out as each language's own
 * command, what a language lacks is brought to what it has with a warning, and the interpreters
 * of StarPRNT and ePOS-Print XML read everything the encoder writes without a warning.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { PNG } from 'pngjs';
import { interpretEposXml } from '../epos/interpreter.js';
import { parseXml } from '../epos/xml.js';
import { PrintwireError } from '../errors/index.js';
import { interpretStarprnt } from '../starprnt/interpreter.js';
import { missingTool } from '../testing/escpos.js';
import { encodeReceipt, encodeReceiptWithReport, type EncodeOptions } from './encoder.js';
import { renderPrinterBytesToPng } from './languages/preview.js';
import { mediaTypeOf, RECEIPT_LANGUAGES, type PrinterLanguage } from './printer-commands.js';
import { BLOCK_TYPES } from './schema.js';

const ESC = 0x1b;
const GS = 0x1d;

/** A 16 × 8 PNG, left half black. */
function smallPng(): string {
  const png = new PNG({ width: 16, height: 8 });
  for (let i = 0; i < 16 * 8; i++) {
    const v = i % 16 < 8 ? 0 : 255;
    png.data.set([v, v, v, 255], i * 4);
  }
  return PNG.sync.write(png).toString('base64');
}

/** One document per block type (the schema's own list), each alone on a receipt. */
const BLOCKS: Record<string, object> = {
  text: {
    type: 'text',
    value: 'Hello',
    bold: true,
    underline: true,
    invert: true,
    size: 2,
    align: 'center',
    font: 'b',
  },
  line: { type: 'line', style: 'double' },
  pair: { type: 'pair', left: 'Tea', right: '2.50' },
  table: {
    type: 'table',
    columns: [{ width: 0.5 }, { width: 0.5, align: 'right' }],
    rows: [['Bun', '1.20']],
  },
  qr: {
    type: 'qr',
    value: 'https://printwire.example/q',
    size: 5,
    errorLevel: 'Q',
    align: 'center',
  },
  barcode: {
    type: 'barcode',
    format: 'EAN13',
    value: '4006381333931',
    height: 50,
    width: 3,
    hri: 'below',
  },
  image: { type: 'image', src: smallPng(), align: 'left' },
  feed: { type: 'feed', lines: 3 },
  cut: { type: 'cut', mode: 'full' },
  drawer: { type: 'drawer', pin: 5 },
  raw: { type: 'raw', data: Buffer.from([ESC, 0x40]).toString('base64') },
};

function encode(block: object, language: PrinterLanguage, options: EncodeOptions = {}) {
  // A text block after the cut keeps it in the body (a final cut is the job's own cut).
  const blocks = [block, { type: 'text', value: 'end' }];
  return encodeReceiptWithReport({ blocks }, 'generic-80mm', { ...options, language });
}

function has(bytes: Uint8Array, seq: readonly number[]): boolean {
  const hay = Buffer.from(bytes);
  return hay.indexOf(Buffer.from(seq)) !== -1;
}

function xml(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('utf8');
}

/** What each block type must become in StarPRNT. */
const STARPRNT: Record<string, (b: Uint8Array) => boolean> = {
  text: (b) =>
    has(b, [ESC, GS, 0x61, 1]) && // ESC GS a 1: center
    has(b, [ESC, 0x1e, 0x46, 1]) && // ESC RS F 1: font B
    has(b, [ESC, 0x45]) && // ESC E: bold
    has(b, [ESC, 0x2d, 1]) && // ESC - 1: underline
    has(b, [ESC, 0x34]) && // ESC 4: white/black reverse
    has(b, [ESC, 0x69, 1, 1]) && // ESC i 1 1: double height and width
    has(b, [...Buffer.from('Hello'), 0x0a]),
  line: (b) => has(b, new Array(48).fill(0xcd)), // CP437 ═ across 48 columns
  pair: (b) => has(b, [...Buffer.from('Tea' + ' '.repeat(41) + '2.50'), 0x0a]),
  table: (b) => has(b, [...Buffer.from('Bun' + ' '.repeat(41) + '1.20'), 0x0a]),
  qr: (b) =>
    has(b, [ESC, GS, 0x79, 0x53, 0x30, 2]) &&
    has(b, [ESC, GS, 0x79, 0x53, 0x31, 2]) &&
    has(b, [ESC, GS, 0x79, 0x53, 0x32, 5]) &&
    has(b, [ESC, GS, 0x79, 0x44, 0x31, 0, 27, 0, ...Buffer.from('https://printwire.example/q')]) &&
    has(b, [ESC, GS, 0x79, 0x50]),
  barcode: (b) => has(b, [ESC, 0x62, 3, 2, 2, 50, ...Buffer.from('400638133393'), 0x1e]),
  image: (b) => has(b, [ESC, GS, 0x53, 1, 2, 0, 8, 0, 0, 0xff, 0]),
  feed: (b) => has(b, [ESC, 0x61, 3]),
  cut: (b) => has(b, [ESC, 0x64, 2]),
  drawer: (b) => has(b, [ESC, 0x07, 5, 50, 0x1a]),
  raw: (b) => !has(b, [0x40, ...Buffer.from('end')]),
};

/** What each block type must become in ePOS-Print XML. */
const EPOS: Record<string, (x: string) => boolean> = {
  text: (x) =>
    [
      '<text align="center"/>',
      '<text font="font_b"/>',
      '<text em="true"/>',
      '<text ul="true"/>',
      '<text reverse="true"/>',
      '<text width="2" height="2"/>',
      '<text>Hello&#10;</text>',
    ].every((s) => x.includes(s)),
  line: (x) => x.includes(`<text>${'═'.repeat(48)}&#10;`),
  pair: (x) => x.includes(`Tea${' '.repeat(41)}2.50&#10;`),
  table: (x) => x.includes(`Bun${' '.repeat(41)}1.20&#10;`),
  qr: (x) =>
    x.includes(
      '<text align="center"/><symbol type="qrcode_model_2" level="level_q" width="5" height="0" size="0">https://printwire.example/q</symbol>',
    ),
  barcode: (x) =>
    x.includes(
      '<barcode type="ean13" hri="below" font="font_a" width="3" height="50">400638133393</barcode>',
    ),
  image: (x) =>
    x.includes(
      '<image width="16" height="8" color="color_1" mode="mono">/wD/AP8A/wD/AP8A/wD/AA==</image>',
    ),
  feed: (x) => x.includes('<feed line="3"/>'),
  cut: (x) => x.includes('<cut type="feed"/>'),
  drawer: (x) => x.includes('<pulse drawer="drawer_2" time="pulse_100"/>'),
  raw: (x) => !x.includes('@'),
};

describe('printer languages: every block type', () => {
  test('the tables cover every block type of the schema', () => {
    assert.deepEqual(Object.keys(BLOCKS).sort(), [...BLOCK_TYPES].sort());
    assert.deepEqual(Object.keys(STARPRNT).sort(), [...BLOCK_TYPES].sort());
    assert.deepEqual(Object.keys(EPOS).sort(), [...BLOCK_TYPES].sort());
  });

  for (const type of Object.keys(BLOCKS)) {
    test(`${type}: ESC/POS is what encodeReceipt gave before languages (the default)`, () => {
      const blocks = [BLOCKS[type]!, { type: 'text', value: 'end' }];
      const before = encodeReceipt({ blocks }, 'generic-80mm');
      assert.deepEqual(encode(BLOCKS[type]!, 'escpos').bytes, before);
    });

    test(`${type}: StarPRNT has Star's own commands, and the StarPRNT interpreter reads them without a warning`, () => {
      const report = encode(BLOCKS[type]!, 'starprnt');
      assert.ok(STARPRNT[type]!(report.bytes), Buffer.from(report.bytes).toString('hex'));
      assert.deepEqual(interpretStarprnt(report.bytes, { paper: '80mm' }).warnings, []);
    });

    test(`${type}: ePOS-Print XML has its elements, well-formed, only documented elements and attributes`, () => {
      const report = encode(BLOCKS[type]!, 'epos-xml');
      const text = xml(report.bytes);
      assert.ok(EPOS[type]!(text), text);
      assert.equal(parseXml(text).name, 'epos-print');
      assert.deepEqual(interpretEposXml(report.bytes, { paper: '80mm' }).warnings, []);
    });

    test(`${type}: raster is a 1-bit PNG 576 dots wide`, () => {
      const png = encode(BLOCKS[type]!, 'raster').bytes;
      const decoded = PNG.sync.read(Buffer.from(png));
      assert.equal(decoded.width, 576);
      assert.equal(png[24], 1, 'bit depth 1');
      assert.equal(png[25], 0, 'grayscale');
    });
  }

  test('a raw block is only for ESC/POS: other languages leave it out and say so', () => {
    for (const language of ['starprnt', 'epos-xml'] as const) {
      const { warnings } = encode(BLOCKS.raw!, language);
      assert.deepEqual(warnings, [
        `blocks[0]: raw ESC/POS bytes are not sent to a printer that takes ${language}`,
      ]);
    }
  });

  test('ePOS-Print XML is one <epos-print> element in Epson namespace, which xmllint finds well-formed', (t) => {
    const blocks = Object.values(BLOCKS).filter((b) => (b as { type: string }).type !== 'raw');
    const bytes = encodeReceipt({ blocks }, 'generic-80mm', { language: 'epos-xml' });
    const text = xml(bytes);
    assert.match(
      text,
      /^<epos-print xmlns="http:\/\/www\.epson-pos\.com\/schemas\/2011\/03\/epos-print">.*<\/epos-print>$/s,
    );
    assert.doesNotMatch(text, /xmlns=""/);
    if (missingTool('xmllint') !== undefined)
      return t.skip('xmllint is not installed (Debian libxml2-utils)');
    execFileSync('xmllint', ['--noout', '-'], { input: bytes, stdio: ['pipe', 'pipe', 'pipe'] });
  });
});

describe('printer languages: the report and the options', () => {
  test('the report names the language and its media type', () => {
    const expected: Record<PrinterLanguage, string> = {
      escpos: 'application/octet-stream',
      starprnt: 'application/vnd.star.starprnt',
      'epos-xml': 'text/xml',
      raster: 'image/png',
    };
    for (const language of RECEIPT_LANGUAGES) {
      const report = encode({ type: 'text', value: 'x' }, language);
      assert.equal(report.language, language);
      assert.equal(report.mediaType, expected[language]);
      assert.equal(mediaTypeOf(language), expected[language]);
    }
    assert.equal(encodeReceiptWithReport({ blocks: [] }, 'generic-80mm').language, 'escpos');
  });

  test('an unknown language is an INVALID_JOB naming options.language', () => {
    assert.throws(
      () => encodeReceipt({ blocks: [] }, 'generic-80mm', { language: 'pcl' as PrinterLanguage }),
      (e: unknown) =>
        e instanceof PrintwireError &&
        e.code === 'INVALID_JOB' &&
        /options\.language: must be one of escpos, starprnt, epos-xml, raster/.test(e.message),
    );
  });

  test('raster pictures are the paper full width: 384 dots on 58 mm', () => {
    const png = encodeReceipt(
      { width: '58mm', blocks: [{ type: 'text', value: 'x' }] },
      'generic-58mm',
      {
        language: 'raster',
      },
    );
    assert.equal(PNG.sync.read(Buffer.from(png)).width, 384);
  });

  test('a raster picture cannot open the drawer: the report says so', () => {
    const report = encodeReceiptWithReport({ blocks: [] }, 'generic-80mm', {
      language: 'raster',
      openDrawer: true,
    });
    assert.deepEqual(report.warnings, [
      'drawer: a raster picture cannot open the cash drawer; not opened',
    ]);
  });

  test('copies, the job cut and the drawer option go in every language', () => {
    const doc = { blocks: [{ type: 'text', value: 'Copy' }] };
    const options = { copies: 2, cut: 'partial', openDrawer: true } as const;
    const star = encodeReceipt(doc, 'generic-80mm', { ...options, language: 'starprnt' });
    assert.equal(Buffer.from(star).toString('latin1').split('Copy\n').length - 1, 2);
    assert.equal(Buffer.from(star).toString('latin1').split('\x1bd\x03').length - 1, 2);
    assert.ok(has(star, [ESC, 0x07, 5, 50, 0x07]));
    const epos = xml(encodeReceipt(doc, 'generic-80mm', { ...options, language: 'epos-xml' }));
    assert.equal(epos.split('<cut type="feed"/>').length - 1, 2);
    assert.equal(epos.split('Copy&#10;').length - 1, 2);
    assert.ok(epos.endsWith('<pulse drawer="drawer_1" time="pulse_100"/></epos-print>'));
  });

  test('renderPrinterBytesToPng gives a raster job back as it is and refuses an unknown language', async () => {
    const png = encodeReceipt({ blocks: [{ type: 'text', value: 'x' }] }, 'generic-80mm', {
      language: 'raster',
    });
    assert.deepEqual(
      new Uint8Array(await renderPrinterBytesToPng(png, { language: 'raster', paper: '80mm' })),
      png,
    );
    await assert.rejects(
      renderPrinterBytesToPng(png, { language: 'pdf' as PrinterLanguage, paper: '80mm' }),
      /language must be one of escpos, starprnt, epos-xml, raster, not pdf/,
    );
  });
});

describe('printer languages: StarPRNT code pages and limits', () => {
  const codepages: Array<[string, string, number]> = [
    ['CP437', 'CP437', 1],
    ['CP850', 'CP858', 4],
    ['CP858', 'CP858', 4],
    ['CP866', 'CP866', 10],
    ['CP1252', 'CP1252', 32],
    ['ISO-8859-15', 'CP1252', 32],
  ];
  for (const [asked, used, number] of codepages) {
    test(`${asked} is laid out in ${used}, Star's code page ${number} (ESC GS t ${number})`, () => {
      const report = encodeReceiptWithReport(
        { codepage: asked, blocks: [{ type: 'text', value: 'Café €' }] },
        'generic-80mm',
        {
          language: 'starprnt',
        },
      );
      assert.equal(report.codepage, used);
      assert.ok(has(report.bytes, [ESC, 0x40, ESC, GS, 0x74, number]));
      const page = interpretStarprnt(report.bytes, { paper: '80mm' });
      assert.equal(page.textRuns[0]!.text.startsWith('Caf'), true);
      assert.deepEqual(page.warnings, []);
    });
  }

  test('text is expanded up to 6 times: size 6 as it is, size 7 at 6 with a warning', () => {
    assert.deepEqual(encode({ type: 'text', value: 'A', size: 6 }, 'starprnt').warnings, []);
    const report = encode({ type: 'text', value: 'A', size: 7 }, 'starprnt');
    assert.ok(has(report.bytes, [ESC, 0x69, 5, 5]));
    assert.deepEqual(report.warnings, [
      'size: StarPRNT prints text at most 6 times its size; printed at 6',
    ]);
  });

  test('QR modules of up to 8 dots: size 8 as it is, size 9 at 8 with a warning', () => {
    const qr = { type: 'qr', value: 'x' };
    assert.deepEqual(encode({ ...qr, size: 8 }, 'starprnt').warnings, []);
    const report = encode({ ...qr, size: 9 }, 'starprnt');
    assert.ok(has(report.bytes, [ESC, GS, 0x79, 0x53, 0x32, 8]));
    assert.deepEqual(report.warnings, [
      'qr size: StarPRNT draws QR modules of at most 8 dots; printed at 8',
    ]);
  });

  test('bar modules of 2-4 dots: widths 2 and 4 as they are, 1 and 5 brought to 2 and 4 with a warning', () => {
    const bar = { type: 'barcode', format: 'CODE39', value: 'AB12', height: 40 };
    for (const [width, mode] of [
      [2, 1],
      [4, 3],
    ] as const) {
      const report = encode({ ...bar, width }, 'starprnt');
      assert.deepEqual(report.warnings, []);
      assert.ok(has(report.bytes, [ESC, 0x62, 4, 2, mode, 40]));
    }
    assert.match(encode({ ...bar, width: 1 }, 'starprnt').warnings[0]!, /1 printed as 2/);
    assert.match(encode({ ...bar, width: 5 }, 'starprnt').warnings[0]!, /5 printed as 4/);
  });

  test('the text of a barcode goes below it: above and both are printed below with a warning', () => {
    const report = encode(
      { type: 'barcode', format: 'EAN8', value: '96385074', hri: 'above' },
      'starprnt',
    );
    assert.deepEqual(report.warnings, [
      'barcode hri: StarPRNT prints the text of a barcode below it only',
    ]);
    assert.ok(has(report.bytes, [ESC, 0x62, 2, 2]));
  });

  test('CODE128 gets the value itself: Star chooses the code sets', () => {
    const report = encode({ type: 'barcode', format: 'CODE128', value: 'AB{123456' }, 'starprnt');
    assert.ok(has(report.bytes, [ESC, 0x62, 6, 2, 2, 80, ...Buffer.from('AB{123456'), 0x1e]));
  });
});

describe('printer languages: ePOS-Print XML text and limits', () => {
  test('text is UTF-8 of what the code page printed: accents kept, XML characters escaped', () => {
    const report = encode({ type: 'text', value: 'Crème & <brûlée> "1"' }, 'epos-xml');
    const text = xml(report.bytes);
    assert.ok(text.includes('<text>Crème &amp; &lt;brûlée&gt; &quot;1&quot;&#10;'), text);
  });

  test('CODE128 is sent in code set B, { doubled', () => {
    const report = encode({ type: 'barcode', format: 'CODE128', value: 'A{1' }, 'epos-xml');
    assert.ok(xml(report.bytes).includes('>{BA{{1</barcode>'), xml(report.bytes));
  });

  test('bar modules of at least 2 dots: width 2 as it is, 1 at 2 with a warning', () => {
    const bar = { type: 'barcode', format: 'ITF', value: '0123456789' };
    assert.deepEqual(encode({ ...bar, width: 2 }, 'epos-xml').warnings, []);
    assert.deepEqual(encode({ ...bar, width: 1 }, 'epos-xml').warnings, [
      'barcode width: ePOS-Print draws bar modules of at least 2 dots; printed at 2',
    ]);
  });
});
