import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RECEIPT_LIMITS, validateReceiptDocument } from './schema.js';
import { pngOf } from '../testing/receipt.js';

/** The issue messages of a document with these blocks (empty when it is valid). */
function problems(blocks: unknown[], extra: Record<string, unknown> = {}): string[] {
  const r = validateReceiptDocument({ ...extra, blocks });
  return r.ok ? [] : r.issues.map((i) => i.message);
}

function valid(block: unknown): boolean {
  return problems([block]).length === 0;
}

describe('document limits', () => {
  test('a document holds at most 2000 blocks', () => {
    const feed = { type: 'feed' };
    assert.deepEqual(problems(Array(2000).fill(feed)), []);
    assert.deepEqual(problems(Array(2001).fill(feed)), ['blocks: must have at most 2000 blocks']);
    assert.equal(RECEIPT_LIMITS.maxBlocks, 2000);
  });

  test('width is 58mm or 80mm and the codepage one of the six, in any case', () => {
    assert.deepEqual(problems([], { width: '58mm', codepage: 'cp858' }), []);
    assert.deepEqual(problems([], { width: '112mm' }), ['width: must be one of 58mm, 80mm']);
    assert.deepEqual(problems([], { codepage: 'UTF-8' }), [
      'codepage: must be one of CP437, CP850, CP858, CP1252, CP866, ISO-8859-15',
    ]);
    const r = validateReceiptDocument({ codepage: 'iso8859-15', blocks: [] });
    assert.ok(r.ok && r.document.codepage === 'ISO-8859-15');
  });

  test('unknown block types and unknown fields name the block index', () => {
    assert.deepEqual(problems([{ type: 'text', value: 'a' }, { type: 'sparkles' }]), [
      'blocks[1].type: unknown block type "sparkles"; expected one of text, line, pair, table, qr, barcode, image, feed, cut, drawer, raw',
    ]);
    assert.deepEqual(problems([{ value: 'a' }]), [
      'blocks[0].type: is required: one of text, line, pair, table, qr, barcode, image, feed, cut, drawer, raw',
    ]);
    assert.deepEqual(problems([{ type: 'text', value: 'a', colour: 'red' }]), [
      'blocks[0].colour: unknown field "colour" of a text block',
    ]);
    assert.deepEqual(problems([], { paper: '80mm' }), [
      'paper: unknown field "paper" of a receipt document',
    ]);
    assert.deepEqual(problems(['text']), ['blocks[0]: must be an object']);
    assert.deepEqual(problems([{ type: 'text' }]), ['blocks[0].value: is required']);
    assert.deepEqual(problems([{ type: 'text', value: 1 }]), ['blocks[0].value: must be a string']);
  });

  test('defaults fill what a block leaves out (the align of a text block stays unset: it follows its direction)', () => {
    const r = validateReceiptDocument({
      blocks: [{ type: 'text', value: 'a' }, { type: 'drawer' }],
    });
    assert.ok(r.ok);
    assert.deepEqual(r.document.blocks, [
      {
        type: 'text',
        value: 'a',
        bold: false,
        underline: false,
        size: 1,
        invert: false,
        font: 'a',
      },
      { type: 'drawer', pin: 2 },
    ]);
  });
});

describe('block limits at their edges', () => {
  test('text size is 1-8 and its value at most 4096 characters', () => {
    assert.deepEqual(problems([{ type: 'text', value: 'a', size: 0 }]), [
      'blocks[0].size: must be 1-8',
    ]);
    assert.ok(valid({ type: 'text', value: 'a', size: 1 }));
    assert.ok(valid({ type: 'text', value: 'a', size: 8 }));
    assert.deepEqual(problems([{ type: 'text', value: 'a', size: 9 }]), [
      'blocks[0].size: must be 1-8',
    ]);
    assert.deepEqual(problems([{ type: 'text', value: 'a', size: 2.5 }]), [
      'blocks[0].size: must be 1-8',
    ]);
    assert.ok(valid({ type: 'text', value: 'x'.repeat(4096) }));
    assert.deepEqual(problems([{ type: 'text', value: 'x'.repeat(4097) }]), [
      'blocks[0].value: must be at most 4096 characters',
    ]);
    assert.deepEqual(problems([{ type: 'text', value: 'a', font: 'c' }]), [
      'blocks[0].font: must be one of a, b',
    ]);
  });

  test('qr size is 1-16 and the error level L, M, Q or H', () => {
    const qr = (size: number) => ({ type: 'qr', value: 'x', size });
    assert.deepEqual(problems([qr(0)]), ['blocks[0].size: must be 1-16']);
    assert.ok(valid(qr(1)));
    assert.ok(valid(qr(16)));
    assert.deepEqual(problems([qr(17)]), ['blocks[0].size: must be 1-16']);
    assert.deepEqual(problems([{ type: 'qr', value: 'x', errorLevel: 'X' }]), [
      'blocks[0].errorLevel: must be one of L, M, Q, H',
    ]);
    assert.deepEqual(problems([{ type: 'qr', value: '' }]), ['blocks[0].value: must not be empty']);
  });

  test('a QR value must fit in a version 40 code at its error level', () => {
    assert.ok(valid({ type: 'qr', value: 'x'.repeat(2953), errorLevel: 'L' }));
    assert.deepEqual(problems([{ type: 'qr', value: 'x'.repeat(2954), errorLevel: 'L' }]), [
      'blocks[0].value: is 2954 bytes; a QR code at level L holds at most 2953',
    ]);
    assert.ok(valid({ type: 'qr', value: 'x'.repeat(1273), errorLevel: 'H' }));
    assert.equal(problems([{ type: 'qr', value: 'x'.repeat(1274), errorLevel: 'H' }]).length, 1);
    // UTF-8 bytes count, not characters: é is two bytes.
    assert.equal(problems([{ type: 'qr', value: 'é'.repeat(1200), errorLevel: 'Q' }]).length, 1);
  });

  test('barcode width is 1-6 and height 1-255', () => {
    const bc = (extra: object) => ({ type: 'barcode', format: 'CODE128', value: 'A1', ...extra });
    assert.deepEqual(problems([bc({ width: 0 })]), ['blocks[0].width: must be 1-6']);
    assert.ok(valid(bc({ width: 1 })));
    assert.ok(valid(bc({ width: 6 })));
    assert.deepEqual(problems([bc({ width: 7 })]), ['blocks[0].width: must be 1-6']);
    assert.deepEqual(problems([bc({ height: 0 })]), ['blocks[0].height: must be 1-255']);
    assert.ok(valid(bc({ height: 255 })));
    assert.deepEqual(problems([bc({ height: 256 })]), ['blocks[0].height: must be 1-255']);
    assert.deepEqual(problems([bc({ hri: 'left' })]), [
      'blocks[0].hri: must be one of none, above, below, both',
    ]);
    assert.deepEqual(problems([bc({ format: 'PDF417' })]), [
      'blocks[0].format: must be one of CODE128, EAN13, EAN8, UPC-A, CODE39, ITF',
    ]);
  });

  test('EAN and UPC check digits are validated', () => {
    const bc = (format: string, value: string) => ({ type: 'barcode', format, value });
    assert.ok(valid(bc('EAN13', '4006381333931')));
    assert.ok(valid(bc('EAN13', '400638133393')));
    assert.deepEqual(problems([bc('EAN13', '4006381333932')]), [
      'blocks[0].value: check digit is wrong: expected 1, got 2',
    ]);
    assert.deepEqual(problems([bc('EAN13', '40063813339')]), [
      'blocks[0].value: must be 12 digits, or 13 with the check digit',
    ]);
    assert.ok(valid(bc('EAN8', '96385074')));
    assert.deepEqual(problems([bc('EAN8', '96385075')]), [
      'blocks[0].value: check digit is wrong: expected 4, got 5',
    ]);
    assert.ok(valid(bc('UPC-A', '036000291452')));
    assert.deepEqual(problems([bc('UPC-A', '036000291453')]), [
      'blocks[0].value: check digit is wrong: expected 2, got 3',
    ]);
    assert.deepEqual(problems([bc('UPC-A', '03600029145A')]), [
      'blocks[0].value: must be 11 digits, or 12 with the check digit',
    ]);
  });

  test('ITF takes an even number of digits, CODE39 its own characters, CODE128 printable ASCII', () => {
    const bc = (format: string, value: string) => ({ type: 'barcode', format, value });
    assert.ok(valid(bc('ITF', '1234')));
    assert.deepEqual(problems([bc('ITF', '123')]), [
      'blocks[0].value: ITF takes an even number of digits',
    ]);
    assert.ok(valid(bc('CODE39', 'ORDER-42 $/+%.')));
    assert.deepEqual(problems([bc('CODE39', 'order')]), [
      'blocks[0].value: CODE39 takes only 0-9, A-Z, space and - . $ / + %',
    ]);
    assert.deepEqual(problems([bc('CODE128', 'café')]), [
      'blocks[0].value: CODE128 takes printable ASCII characters only',
    ]);
    assert.ok(valid(bc('CODE128', 'x'.repeat(64))));
    assert.deepEqual(problems([bc('CODE128', 'x'.repeat(65))]), [
      'blocks[0].value: must be 1-64 characters',
    ]);
    assert.deepEqual(problems([bc('CODE128', '')]), ['blocks[0].value: must be 1-64 characters']);
  });

  test('drawer pin is 2 or 5 and feed lines 1-255', () => {
    assert.ok(valid({ type: 'drawer', pin: 5 }));
    assert.deepEqual(problems([{ type: 'drawer', pin: 3 }]), ['blocks[0].pin: must be 2 or 5']);
    assert.deepEqual(problems([{ type: 'feed', lines: 0 }]), ['blocks[0].lines: must be 1-255']);
    assert.ok(valid({ type: 'feed', lines: 255 }));
    assert.deepEqual(problems([{ type: 'feed', lines: 256 }]), ['blocks[0].lines: must be 1-255']);
    assert.deepEqual(problems([{ type: 'cut', mode: 'half' }]), [
      'blocks[0].mode: must be one of full, partial',
    ]);
  });

  test('table widths are fractions adding up to at most 1, rows no wider than the columns', () => {
    const table = (columns: unknown[], rows: unknown[][] = []) => ({
      type: 'table',
      columns,
      rows,
    });
    assert.ok(valid(table([{ width: 0.5 }, { width: 0.5 }], [['a', 'b']])));
    assert.deepEqual(problems([table([{ width: 0.6 }, { width: 0.5 }])]), [
      'blocks[0].columns: widths add up to 1.1; they must add up to at most 1',
    ]);
    assert.deepEqual(problems([table([{ width: 0 }])]), [
      'blocks[0].columns[0].width: must be a fraction of the line, more than 0 and at most 1',
    ]);
    assert.deepEqual(problems([table([{ width: 1 }], [['a', 'b']])]), [
      'blocks[0].rows[0]: has 2 cells but the table has 1 columns',
    ]);
    assert.deepEqual(problems([table([])]), ['blocks[0].columns: must have at least 1 item(s)']);
    assert.equal(problems([table(Array(17).fill({ width: 0.05 }))]).length, 1);
  });

  test('image src is an https URL, base64 PNG or JPEG, or a data: URL, and width 1-576 dots', () => {
    const png = pngOf(2, 2, () => true).toString('base64');
    const jpegHeader = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]).toString('base64');
    assert.ok(valid({ type: 'image', src: png }));
    assert.ok(valid({ type: 'image', src: `data:image/png;base64,${png}` }));
    assert.ok(valid({ type: 'image', src: jpegHeader }));
    assert.ok(valid({ type: 'image', src: 'https://cdn.example.com/logo.png', width: 576 }));
    assert.deepEqual(problems([{ type: 'image', src: png, width: 0 }]), [
      'blocks[0].width: must be 1-576',
    ]);
    assert.deepEqual(problems([{ type: 'image', src: png, width: 577 }]), [
      'blocks[0].width: must be 1-576',
    ]);
    assert.deepEqual(problems([{ type: 'image', src: 'not base64!' }]), [
      'blocks[0].src: must be an https URL, base64 PNG or JPEG, or a data:image/png or data:image/jpeg base64 URL',
    ]);
    assert.deepEqual(
      problems([{ type: 'image', src: Buffer.from('GIF89a..').toString('base64') }]),
      ['blocks[0].src: is not a PNG or JPEG image'],
    );
    assert.deepEqual(problems([{ type: 'image', src: png, dithering: 'atkinson' }]), [
      'blocks[0].dithering: must be one of floyd-steinberg, threshold',
    ]);
  });

  test('an inline image is at most 2 MB and a URL at most 2048 characters', () => {
    const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const atLimit = Buffer.concat([
      header,
      Buffer.alloc(RECEIPT_LIMITS.maxImageBytes - header.length),
    ]);
    assert.ok(valid({ type: 'image', src: atLimit.toString('base64') }));
    const over = Buffer.concat([atLimit, Buffer.alloc(1)]);
    assert.deepEqual(problems([{ type: 'image', src: over.toString('base64') }]), [
      'blocks[0].src: image must be at most 2097152 bytes',
    ]);
    const url = 'https://x.io/' + 'a'.repeat(2048 - 13);
    assert.ok(valid({ type: 'image', src: url }));
    assert.deepEqual(problems([{ type: 'image', src: url + 'a' }]), [
      'blocks[0].src: URL must be at most 2048 characters',
    ]);
  });

  test('raw data is base64 of at most 1 MiB', () => {
    assert.ok(valid({ type: 'raw', data: Buffer.from([0x1b, 0x40]).toString('base64') }));
    assert.deepEqual(problems([{ type: 'raw', data: 'G0A' }]), [
      'blocks[0].data: must be base64 printer bytes',
    ]);
    assert.deepEqual(problems([{ type: 'raw', data: '' }]), [
      'blocks[0].data: must be base64 printer bytes',
    ]);
    assert.ok(
      valid({ type: 'raw', data: Buffer.alloc(RECEIPT_LIMITS.maxRawBytes).toString('base64') }),
    );
    assert.deepEqual(
      problems([
        { type: 'raw', data: Buffer.alloc(RECEIPT_LIMITS.maxRawBytes + 1).toString('base64') },
      ]),
      ['blocks[0].data: must be at most 1048576 bytes'],
    );
  });
});
