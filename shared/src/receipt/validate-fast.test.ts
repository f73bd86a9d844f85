import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { seededRandom } from '../template/hostile.js';
import { receiptDocumentSchema, validateReceiptDocument } from './schema.js';
import { validatePlainDocument } from './validate-fast.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==',
  'base64',
).toString('base64');

/** One block of every type with every field written, and one with only the required ones. */
const FULL = {
  width: '58mm',
  codepage: 'cp-858',
  blocks: [
    {
      type: 'text',
      value: 'Café',
      align: 'right',
      bold: true,
      underline: true,
      size: 8,
      invert: true,
      font: 'b',
    },
    { type: 'text', value: '' },
    { type: 'line', style: 'double' },
    { type: 'line' },
    { type: 'pair', left: 'a', right: 'b', bold: true },
    { type: 'pair', left: '', right: '' },
    {
      type: 'table',
      columns: [{ width: 0.5, align: 'right' }, { width: 0.25 }, { width: 0.25 }],
      rows: [['a', 'b', 'c'], ['d'], []],
      bold: true,
    },
    { type: 'table', columns: [{ width: 1 }], rows: [] },
    { type: 'qr', value: 'https://example.com', size: 16, errorLevel: 'H', align: 'left' },
    { type: 'qr', value: 'x' },
    {
      type: 'barcode',
      format: 'EAN13',
      value: '400638133393',
      height: 255,
      width: 6,
      hri: 'both',
      align: 'right',
    },
    { type: 'barcode', format: 'CODE128', value: 'ABC-123' },
    { type: 'image', src: PNG, width: 576, align: 'left', dithering: 'threshold' },
    { type: 'image', src: 'https://example.com/logo.png' },
    { type: 'feed', lines: 255 },
    { type: 'feed' },
    { type: 'cut', mode: 'partial' },
    { type: 'cut' },
    { type: 'drawer', pin: 5 },
    { type: 'drawer' },
    { type: 'raw', data: 'G0A=' },
  ],
};

/**
 * Asserts that the fast check accepts what zod accepts (for data JSON can hold; other data it
 * may hand to zod), never accepts what zod refuses, and returns the same document.
 */
function agree(input: unknown, label: string, json = true): boolean {
  const zod = receiptDocumentSchema.safeParse(input);
  const fast = validatePlainDocument(input);
  if (zod.success && (json || fast !== undefined)) {
    assert.notEqual(fast, undefined, `${label}: zod accepts what the fast check refuses`);
    assert.deepEqual(fast, zod.data, label);
    // Same keys in the same order: what JSON.stringify writes of them is identical.
    assert.equal(JSON.stringify(fast), JSON.stringify(zod.data), label);
  } else {
    assert.equal(fast, undefined, `${label}: the fast check accepts what zod refuses`);
  }
  return zod.success;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('the fast receipt check agrees with the zod schema', () => {
  test('on a document using every block type and field, and the defaults', () => {
    assert.equal(agree(FULL, 'full'), true);
    assert.equal(agree({ blocks: [] }, 'empty'), true);
  });

  test('on every receipt of the test corpus', () => {
    const dir = new URL('../../../test/fixtures/receipts/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    assert.ok(files.length > 0);
    for (const file of files) {
      agree(JSON.parse(readFileSync(new URL(file, dir), 'utf8')), file);
    }
  });

  test('at the edge of every limit', () => {
    const edges: Array<[object, boolean]> = [
      [{ type: 'text', value: 'x'.repeat(4096) }, true],
      [{ type: 'text', value: 'x'.repeat(4097) }, false],
      [{ type: 'text', value: 'x', size: 0 }, false],
      [{ type: 'text', value: 'x', size: 9 }, false],
      [{ type: 'text', value: 'x', size: 1.5 }, false],
      [{ type: 'pair', left: 'x'.repeat(512), right: '' }, true],
      [{ type: 'pair', left: 'x'.repeat(513), right: '' }, false],
      [{ type: 'table', columns: [], rows: [] }, false],
      [{ type: 'table', columns: Array(16).fill({ width: 0.0625 }), rows: [] }, true],
      [{ type: 'table', columns: Array(17).fill({ width: 0.05 }), rows: [] }, false],
      [{ type: 'table', columns: [{ width: 0.7 }, { width: 0.3000000001 }], rows: [] }, true],
      [{ type: 'table', columns: [{ width: 0.7 }, { width: 0.31 }], rows: [] }, false],
      [{ type: 'table', columns: [{ width: 0 }], rows: [] }, false],
      [{ type: 'table', columns: [{ width: 1 }], rows: Array(500).fill(['x']) }, true],
      [{ type: 'table', columns: [{ width: 1 }], rows: Array(501).fill(['x']) }, false],
      [{ type: 'table', columns: [{ width: 1 }], rows: [['x'.repeat(1024)]] }, true],
      [{ type: 'table', columns: [{ width: 1 }], rows: [['x'.repeat(1025)]] }, false],
      [{ type: 'table', columns: [{ width: 1 }], rows: [['a', 'b']] }, false],
      [{ type: 'qr', value: '' }, false],
      [{ type: 'qr', value: 'x'.repeat(2331) }, true],
      [{ type: 'qr', value: 'x'.repeat(2332) }, false],
      [{ type: 'qr', value: 'é'.repeat(1166), errorLevel: 'M' }, false],
      [{ type: 'qr', value: 'x', size: 17 }, false],
      [{ type: 'barcode', format: 'EAN13', value: '4006381333931' }, true],
      [{ type: 'barcode', format: 'EAN13', value: '4006381333932' }, false],
      [{ type: 'barcode', format: 'EAN14', value: '1' }, false],
      [{ type: 'barcode', format: 'CODE39', value: 'abc' }, false],
      [{ type: 'barcode', format: 'CODE128', value: 'x', height: 0 }, false],
      [{ type: 'barcode', format: 'CODE128', value: 'x', width: 7 }, false],
      [{ type: 'image', src: PNG, width: 577 }, false],
      [{ type: 'image', src: PNG, width: 0 }, false],
      [{ type: 'image', src: '' }, false],
      [{ type: 'image', src: 'not an image' }, false],
      [{ type: 'image', src: `https://example.com/${'x'.repeat(2028)}` }, true],
      [{ type: 'image', src: `https://example.com/${'x'.repeat(2029)}` }, false],
      [{ type: 'feed', lines: 0 }, false],
      [{ type: 'feed', lines: 256 }, false],
      [{ type: 'drawer', pin: 3 }, false],
      [{ type: 'drawer', pin: '2' }, false],
      [{ type: 'raw', data: '' }, false],
      [{ type: 'raw', data: 'G0A' }, false],
      [{ type: 'raw', data: Buffer.alloc(1024 * 1024).toString('base64') }, true],
      [{ type: 'raw', data: Buffer.alloc(1024 * 1024 + 1).toString('base64') }, false],
      [{ type: 'cut', mode: 'half' }, false],
      [{ type: 'text', value: 'x', colour: 'red' }, false],
      [{ type: 'poem' }, false],
      [{ value: 'x' }, false],
    ];
    for (const [b, ok] of edges) {
      const label = JSON.stringify(b).slice(0, 80);
      assert.equal(agree({ blocks: [b] }, label), ok, label);
    }
    assert.equal(agree({ blocks: Array(2000).fill({ type: 'cut' }) }, '2000 blocks'), true);
    assert.equal(agree({ blocks: Array(2001).fill({ type: 'cut' }) }, '2001 blocks'), false);
    assert.equal(agree({ codepage: 'klingon', blocks: [] }, 'codepage'), false);
    assert.equal(agree({ width: '57mm', blocks: [] }, 'width'), false);
    assert.equal(agree({ blocks: [], extra: 1 }, 'extra key'), false);
  });

  test('on what JSON cannot hold: holes, undefined, class instances, an own __proto__', () => {
    // eslint-disable-next-line no-sparse-arrays -- a hole is what this case is about
    agree({ blocks: [, { type: 'cut' }] }, 'hole', false);
    agree({ blocks: [{ type: 'cut', mode: undefined }] }, 'undefined', false);
    agree({ width: undefined, blocks: [] }, 'undefined width', false);
    agree({ blocks: [new Date()] }, 'date', false);
    agree(JSON.parse('{"blocks": [], "__proto__": {"x": 1}}'), 'own __proto__', false);
    agree(JSON.parse('{"blocks": [{"type": "cut", "__proto__": null}]}'), 'block __proto__', false);
    agree(Object.assign(Object.create(null), { blocks: [] }), 'null prototype', false);
    agree(null, 'null', false);
    agree([], 'array', false);
    agree('{"blocks": []}', 'text');
  });

  test('on thousands of random changes to a valid document', () => {
    const random = seededRandom(22);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const VALUES: unknown[] = [
      0,
      1,
      -1,
      2,
      5,
      6,
      8,
      9,
      16,
      17,
      80,
      255,
      256,
      576,
      577,
      0.5,
      1.5,
      1e-10,
      -0,
      '',
      'x',
      '1',
      'left',
      'center',
      'bogus',
      'M',
      'b',
      'dashed',
      'partial',
      'threshold',
      'both',
      'EAN8',
      '1234567',
      '12345670',
      'cp437',
      '80mm',
      true,
      false,
      null,
      [],
      ['x'],
      [['x']],
      {},
      { width: 1 },
      { type: 'cut' },
    ];
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const doc = clone(FULL) as { blocks: Record<string, unknown>[] } & Record<string, unknown>;
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
        const r = random();
        const target: unknown = r < 0.1 || !Array.isArray(doc.blocks) ? doc : pick(doc.blocks);
        if (typeof target !== 'object' || target === null) continue;
        const keys = Object.keys(target);
        if (keys.length === 0) continue;
        const key = random() < 0.15 ? pick(['size', 'width', 'extra', 'type', 'rows']) : pick(keys);
        const object = target as Record<string, unknown>;
        if (random() < 0.2) delete object[key];
        else object[key] = clone(pick(VALUES));
      }
      if (agree(doc, `case ${i}: ${JSON.stringify(doc).slice(0, 200)}`)) accepted++;
    }
    // Both sides of the line are well covered.
    assert.ok(accepted > 100 && accepted < 2900, `${accepted} of 3000 were valid`);
  });

  test('validateReceiptDocument still words every issue through zod', () => {
    const r = validateReceiptDocument({ blocks: [{ type: 'text', value: 'x', size: 9 }] });
    assert.deepEqual(r, {
      ok: false,
      issues: [{ path: 'blocks[0].size', message: 'blocks[0].size: must be 1-8' }],
    });
  });
});
