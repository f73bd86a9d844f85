/**
 * The label corpus (fixtures/): shipping labels in the layouts of the common carriers, product and
 * shelf labels, and labels that use every command the renderer promises. Each label is checked
 * against facts that do not come from the renderer itself: zbar decodes every barcode to its exact
 * data, tesseract reads the text, stored and downloaded graphics come back dot for dot.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { renderLabel } from './index.js';
import { parseEpl } from './epl/render.js';
import { parseZpl } from './zpl/parse.js';
import { skipWithout } from '../testing/escpos.js';
import { cropPng, ocr, readPng, zbarTyped, type Dots } from './testing.js';

const dir = new URL('./fixtures/', import.meta.url);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, dir)));

interface Expected {
  labels: number;
  size: [number, number];
  /** zbar's readings of label 0 (sorted): symbologies zbar cannot read are checked elsewhere. */
  barcodes: string[];
  /** Words tesseract must read on label 0. */
  words: string[];
}

const EXPECTED: Record<string, Expected> = {
  'ups-ground.zpl': {
    labels: 1,
    size: [812, 1218],
    barcodes: ['CODE-128:1Z9999990398765432', 'CODE-128:42094103'],
    words: [
      'MARIA ALVAREZ',
      'SAN FRANCISCO CA 94103',
      'UPS GROUND',
      'TRACKING',
      'PORTLAND ME 04101',
    ],
  },
  'fedex-express.zpl': {
    labels: 1,
    size: [812, 1218],
    barcodes: ['CODE-128:796912345678901234'],
    words: [
      'ORIGIN ID: PWMA',
      'ALVAREZ CARPENTRY LLC',
      '1550 MISSION ST UNIT 4B',
      '7969 1234 5678 9012 34',
    ],
  },
  'usps-priority.zpl': {
    labels: 1,
    size: [812, 1218],
    barcodes: ['CODE-128:42094103\x1d9205590164917312345671'],
    words: ['USPS PRIORITY MAIL', 'SHIP TO', '1550 MISSION ST', '9205 5901 6491 7312 3456 71'],
  },
  'dhl-express.zpl': {
    labels: 1,
    size: [812, 1218],
    barcodes: ['CODE-128:1234567890', 'CODE-128:JJD014600006101234567'],
    words: ['FROM: HARBOR HARDWARE', 'US-SFO-HUB', 'WAYBILL 12 3456 7890', 'LICENCE PLATE'],
  },
  'product.zpl': {
    labels: 1,
    size: [609, 406],
    barcodes: ['EAN-13:0036000291452', 'EAN-13:5901234123457', 'EAN-8:96385074'],
    // The EAN and UPC digits stand in groups between guard bars, as printed: not one phrase.
    // Roboto's $ (font 0) is read as 8 or 9, its bar being short: the price without it.
    words: ['Café moulu', 'Prince été', '12.49', 'LOT 2026-11'],
  },
  'shelf.zpl': {
    labels: 3,
    size: [812, 300],
    barcodes: ['EAN-13:0012345000065'],
    words: ['BREAKFAST BLEND', 'AISLE 12 BAY 4'],
  },
  'features.zpl': {
    labels: 4,
    size: [812, 1218],
    barcodes: [
      // CODABLOCK F (^BB) is stacked Code 128 rows: zbar reads two of them, each after its row
      // indicator (the first row holds "CODABLOCK ", the second "1234" and the check characters).
      'CODE-128:4312346953',
      'CODE-128:`CODABLOCK ',
      'CODE-39:PW39',
      'CODE-93:CODE93',
      'Codabar:A4455B',
      'DataBar:0109501101530003',
      'I2/5:00123456',
      'QR-Code:PRINTWIRE 1',
    ],
    words: ['RECALLED FORMAT', 'BASELINE', 'STACKED CODES BELOW', 'PW 49 TEST'],
  },
  'fonts.zpl': {
    labels: 1,
    size: [812, 1218],
    barcodes: [],
    words: [
      'FONT C HELLO',
      'FONT D HELLO',
      'FONT E HELLO',
      'FONT F HELLO',
      'FONT G',
      'FONT H HELLO',
      'FONT ZERO HELLO',
      'NARROW ZERO HELLO',
    ],
  },
  'ups-ground.epl': {
    labels: 1,
    size: [812, 1218],
    barcodes: [
      'CODE-128:1Z9999990398765432',
      'EAN-13:5901234123457',
      'QR-Code:https://printwire.dev/t/1Z9999990398765432',
    ],
    words: ['HARBOR HARDWARE', 'SHIP TO', 'MARIA ALVAREZ', 'SAN FRANCISCO CA', 'Café © 2026'],
  },
};

const ZPL_PROMISED =
  '^XA ^XZ ^FO ^FT ^FD ^FS ^FH ^FV ^FN ^FW ^FR ^FB ^FX ^A ^A@ ^CF ^CI ^GB ^GC ^GD ^GE ^GF ^GS ~DG ^XG ^IL ^PW ^LL ^LH ^LS ^LT ^LR ^PO ^PQ ^SN ^BY ^BC ^BE ^B8 ^BU ^B9 ^B3 ^BA ^B2 ^BK ^BQ ^BX ^B7 ^BO ^BD ^BR ^BF ^DF ^XF ^MU ^B4 ^BB'.split(
    ' ',
  );
const EPL_PROMISED = 'N q Q A B b LO LE LW X GW P I'.split(' ');

describe('the label corpus', () => {
  const files = readdirSync(dir).filter((f) => /\.(zpl|epl)$/.test(f));

  it('has an expectation for every fixture, and uses every promised command at least once', () => {
    assert.deepEqual(files.sort(), Object.keys(EXPECTED).sort());
    const zpl = new Set<string>();
    const epl = new Set<string>();
    for (const f of files) {
      const text = Buffer.from(fixture(f)).toString('latin1');
      if (f.endsWith('.zpl')) {
        for (const c of parseZpl(text))
          zpl.add(c.name.startsWith('^A') ? (c.name === '^A@' ? '^A@' : '^A') : c.name);
      } else for (const c of parseEpl(text)) epl.add(c.name);
    }
    assert.deepEqual(
      ZPL_PROMISED.filter((c) => !zpl.has(c)),
      [],
    );
    assert.deepEqual(
      EPL_PROMISED.filter((c) => !epl.has(c)),
      [],
    );
    assert.ok(files.some((f) => Buffer.from(fixture(f)).toString('latin1').includes('^CI28')));
  });

  for (const file of files) {
    const expected = EXPECTED[file]!;
    describe(file, () => {
      it(`prints ${expected.labels} label(s) of ${expected.size.join(' x ')} dots, every command drawn, no warning`, () => {
        const content = fixture(file);
        for (let index = 0; index < expected.labels; index++) {
          const r = renderLabel(content, { index });
          assert.equal(r.labelCount, expected.labels);
          assert.deepEqual(
            [r.width, r.height],
            index === 0 || !file.startsWith('features') ? expected.size : [r.width, r.height],
          );
          assert.deepEqual(r.skipped, [], `label ${index} skipped`);
          assert.deepEqual(r.warnings, [], `label ${index} warnings`);
        }
      });

      it(
        'zbar reads every barcode it knows to its exact data',
        { skip: skipWithout('zbarimg') },
        () => {
          assert.deepEqual(zbarTyped(renderLabel(fixture(file)).png), expected.barcodes);
        },
      );

      it('tesseract reads its text', { skip: skipWithout('tesseract') }, () => {
        // Read as one block (mode 6) and as lines of any size (mode 4): on the FedEx-style label,
        // as one block, the logo and the two columns of header lines beside it merge into one
        // line that tesseract misreads.
        const png = renderLabel(fixture(file)).png;
        // Font 0's hyphen is the printer's long dash: tesseract reads it as one.
        const read = `${ocr(png, 6)}\n${ocr(png, 4)}`
          .replace(/ ?[—–] ?/g, '-')
          .replace(/[ \t]+/g, ' ');
        for (const words of expected.words)
          assert.ok(read.includes(words), `"${words}" in:\n${read}`);
      });
    });
  }
});

/** The 48 x 24 logo of the fixtures (a frame with a diagonal band), as generated for them. */
function logoDot(x: number, y: number): number {
  return y < 2 || y >= 22 || x < 2 || x >= 46 || Math.abs(Math.floor(x / 2) - y) < 2 ? 1 : 0;
}

function assertLogo(d: Dots, x0: number, y0: number, scale: number): void {
  for (let y = 0; y < 24 * scale; y++) {
    for (let x = 0; x < 48 * scale; x++) {
      const want = logoDot(Math.floor(x / scale), Math.floor(y / scale));
      assert.equal(d.data[(y0 + y) * d.width + x0 + x], want, `dot ${x},${y}`);
    }
  }
}

describe('serial numbers in the corpus', () => {
  it(
    '^SN counts 0001, 0002, 0003 over the ^PQ batch (shelf), read back by tesseract',
    { skip: skipWithout('tesseract') },
    () => {
      for (const index of [0, 1, 2]) {
        const read = ocr(
          cropPng(renderLabel(fixture('shelf.zpl'), { index }).png, 280, 220, 260, 60),
        );
        assert.match(read, new RegExp(`000${index + 1}`), read);
      }
    },
  );
});

describe('graphics in the corpus come back dot for dot', () => {
  it('~DG then ^XG magnified 2x (fedex-express)', () => {
    assertLogo(readPng(renderLabel(fixture('fedex-express.zpl')).png), 30, 30, 2);
  });
  it('^GF in Z64 with its CRC (features, label 0)', () => {
    assertLogo(readPng(renderLabel(fixture('features.zpl')).png), 400, 700, 1);
  });
  it('^IL lays the stored image at the label origin (features, label 3)', () => {
    assertLogo(readPng(renderLabel(fixture('features.zpl'), { index: 3 }).png), 0, 0, 1);
  });
  it('EPL GW, a 0 bit black (ups-ground.epl)', () => {
    const d = readPng(renderLabel(fixture('ups-ground.epl')).png);
    for (let y = 0; y < 32; y++) {
      for (let x = 0; x < 32; x++) {
        const want = x < 2 || x >= 30 || y < 2 || y >= 30 || x === y ? 1 : 0;
        assert.equal(d.data[(40 + y) * d.width + 700 + x], want, `dot ${x},${y}`);
      }
    }
  });
});
