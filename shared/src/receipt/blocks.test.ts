import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrintwireError } from '../errors/index.js';
import { encodeReceipt, encodeReceiptWithReport } from './index.js';
import { ascii, body, h, HEADER, hex, pngOf, profileWith } from '../testing/receipt.js';

// Golden bytes of every block and block option (the job header is checked by body()).

describe('text blocks', () => {
  test('plain text is the encoded line and LF', () => {
    assert.equal(body([{ type: 'text', value: 'Hi' }]), h`4869 0a`);
  });

  test('every style is set before the text and reset after it', () => {
    const styled = body([
      {
        type: 'text',
        value: 'Hi',
        align: 'center',
        bold: true,
        underline: true,
        size: 2,
        invert: true,
        font: 'b',
      },
    ]);
    assert.equal(
      styled,
      h`1b6101 1b4d01 1b4501 1b2d01 1d4201 1d2111 4869 0a 1d2100 1d4200 1b2d00 1b4500 1b4d00 1b6100`,
    );
  });

  test('right alignment is ESC a 2 and size 8 is GS ! 0x77', () => {
    assert.equal(
      body([{ type: 'text', value: 'A', align: 'right', size: 8 }]),
      h`1b6102 1d2177 41 0a 1d2100 1b6100`,
    );
  });

  test('words wrap at the characters per line divided by the size', () => {
    const value = 'The quick brown fox jumps over the lazy dog';
    // 80 mm font A: 48 characters, so 24 at size 2.
    assert.equal(
      body([{ type: 'text', value, size: 2 }]),
      h`1d2111 ${ascii('The quick brown fox')}0a ${ascii('jumps over the lazy dog')}0a 1d2100`,
    );
    // At size 1 it fits on one line.
    assert.equal(body([{ type: 'text', value }]), `${ascii(value)}0a`);
  });

  test('a word longer than the line is cut, and font B has more characters per line', () => {
    // 58 mm at size 8: 32 / 8 = 4 characters.
    assert.equal(
      body([{ type: 'text', value: 'ABCDEFGHIJ', size: 8 }], {}, 'generic-58mm'),
      h`1d2177 ${ascii('ABCD')}0a ${ascii('EFGH')}0a ${ascii('IJ')}0a 1d2100`,
    );
    const line = 'x'.repeat(42);
    assert.equal(
      body([{ type: 'text', value: line, font: 'b' }], {}, 'generic-58mm'),
      h`1b4d01 ${ascii(line)}0a 1b4d00`,
    );
  });

  test('line breaks in the value start new lines; an empty value is an empty line', () => {
    assert.equal(body([{ type: 'text', value: 'a\nb' }]), h`61 0a 62 0a`);
    assert.equal(body([{ type: 'text', value: '' }]), h`0a`);
  });

  test('control characters in text never reach the printer as commands', () => {
    assert.equal(body([{ type: 'text', value: 'a\x1b@b\x1dV' }]), `${ascii('a@bV')}0a`);
  });
});

describe('line, pair and table blocks', () => {
  test('lines run across the full width with the codepage box characters', () => {
    assert.equal(body([{ type: 'line' }]), `${'c4'.repeat(48)}0a`);
    assert.equal(
      body([{ type: 'line', style: 'double' }], {}, 'generic-58mm'),
      `${'cd'.repeat(32)}0a`,
    );
    assert.equal(body([{ type: 'line', style: 'dashed' }]), `${ascii('- '.repeat(24))}0a`);
  });

  test('codepages without box drawing characters draw lines with - and =', () => {
    const doc = { codepage: 'CP1252' };
    const solid = hex(encodeReceipt({ ...doc, blocks: [{ type: 'line' }] }, 'generic-58mm'));
    assert.equal(solid, h`1b40 1b7410 ${'2d'.repeat(32)}0a`);
    const double = hex(
      encodeReceipt({ ...doc, blocks: [{ type: 'line', style: 'double' }] }, 'generic-58mm'),
    );
    assert.equal(double, h`1b40 1b7410 ${'3d'.repeat(32)}0a`);
  });

  test('a pair puts the left side left and the right side right on one line', () => {
    const expected = `2 x Espresso${' '.repeat(32)}5.00`;
    assert.equal(
      body([{ type: 'pair', left: '2 x Espresso', right: '5.00' }]),
      `${ascii(expected)}0a`,
    );
    assert.equal(
      body([{ type: 'pair', left: 'TOTAL', right: '9.00', bold: true }], {}, 'generic-58mm'),
      h`1b4501 ${ascii(`TOTAL${' '.repeat(23)}9.00`)}0a 1b4500`,
    );
  });

  test('a pair too long shortens the left side with an ellipsis and keeps the right side whole', () => {
    const left = 'Croissant aux amandes et au chocolat noir';
    const out = body([{ type: 'pair', left, right: '12.50' }], {}, 'generic-58mm');
    // 32 characters: 26 for the left side (23 + "..."), a space, 5 for the right.
    assert.equal(out, `${ascii('Croissant aux amandes e... 12.50')}0a`);
  });

  test('a right side longer than the line goes whole on the next lines', () => {
    const right = 'R'.repeat(40);
    const out = body([{ type: 'pair', left: 'Ref', right }], {}, 'generic-58mm');
    assert.equal(
      out,
      `${ascii('Ref')}0a${ascii('R'.repeat(32))}0a${ascii(' '.repeat(24) + 'R'.repeat(8))}0a`,
    );
  });

  test('a table sizes columns by fraction, aligns each and wraps long cells', () => {
    const out = body(
      [
        {
          type: 'table',
          columns: [
            { width: 0.5 },
            { width: 0.25, align: 'center' },
            { width: 0.25, align: 'right' },
          ],
          rows: [
            ['Item', 'Qty', 'Price'],
            ['Croissant au beurre', '3', '5.85'],
          ],
          bold: true,
        },
      ],
      {},
      'generic-58mm',
    );
    // 32 characters: 16 + 8 + 8; the first two keep one space to the next column.
    const row1 = 'Item' + ' '.repeat(12) + '  Qty   ' + '   Price';
    const row2a = 'Croissant au' + ' '.repeat(4) + '   3    ' + '    5.85';
    const row2b = 'beurre';
    assert.equal(out, h`1b4501 ${ascii(row1)}0a ${ascii(row2a)}0a ${ascii(row2b)}0a 1b4500`);
  });
});

describe('qr and barcode blocks', () => {
  test('a QR code is GS ( k model 2, size, error level, store and print, aligned with ESC a', () => {
    const value = 'https://example.com';
    const out = body([{ type: 'qr', value, size: 6, errorLevel: 'Q' }]);
    assert.equal(
      out,
      h`1b6101
        1d286b 0400 31 41 32 00
        1d286b 0300 31 43 06
        1d286b 0300 31 45 32
        1d286b 1600 31 50 30 ${ascii(value)}
        1d286b 0300 31 51 30
        1b6100`,
    );
    const left = body([{ type: 'qr', value: 'x', align: 'left', size: 1, errorLevel: 'H' }]);
    assert.equal(
      left,
      h`1d286b0400314132 00 1d286b0300314301 1d286b0300314533 1d286b0400315030 78 1d286b0300315130`,
    );
  });

  test('a QR code wider than the paper is printed at the largest size that fits, with a warning', () => {
    const value = 'x'.repeat(1000); // version 24 at level L: 113 modules
    const r = encodeReceiptWithReport(
      { blocks: [{ type: 'qr', value, size: 16, errorLevel: 'L' }] },
      'generic-58mm',
    );
    const sizeCommand = h`1d286b 0300 31 43`;
    const at = hex(r.bytes).indexOf(sizeCommand);
    assert.equal(hex(r.bytes).slice(at + sizeCommand.length, at + sizeCommand.length + 2), '03');
    assert.match(r.warnings.join('\n'), /blocks\[0\]\.size: .* printed at size 3/);
  });

  test('an EAN-13 barcode sets HRI, height and width, then GS k 67 without the check digit', () => {
    const out = body([
      {
        type: 'barcode',
        format: 'EAN13',
        value: '4006381333931',
        height: 60,
        width: 2,
        hri: 'both',
      },
    ]);
    assert.equal(out, h`1b6101 1d4803 1d683c 1d7702 1d6b 43 0c ${ascii('400638133393')} 1b6100`);
  });

  test('each symbology has its GS k number and HRI position', () => {
    const cases: Array<[string, string, string, string]> = [
      ['UPC-A', '03600029145', '41', '00'],
      ['EAN8', '9638507', '44', '01'],
      ['CODE39', 'ABC-123', '45', '02'],
      ['ITF', '12345678', '46', '03'],
    ];
    const hris = ['none', 'above', 'below', 'both'] as const;
    cases.forEach(([format, value, m, hri], i) => {
      const out = body([
        {
          type: 'barcode',
          format: format as 'EAN8',
          value,
          align: 'left',
          hri: hris[i]!,
          height: 80,
          width: 3,
        },
      ]);
      const n = value.length.toString(16).padStart(2, '0');
      assert.equal(out, h`1d48${hri} 1d6850 1d7703 1d6b ${m} ${n} ${ascii(value)}`, format);
    });
  });

  test('CODE128 uses code set C for runs of digits and B for the rest', () => {
    const out = body([
      {
        type: 'barcode',
        format: 'CODE128',
        value: '1234567890128',
        height: 72,
        width: 2,
        align: 'left',
      },
    ]);
    // {C 12 34 56 78 90 12, then {B 8: 11 bytes.
    assert.equal(out, h`1d4802 1d6848 1d7702 1d6b 49 0b 7b43 0c 22 38 4e 5a 0c 7b42 38`);
    const mixed = body([{ type: 'barcode', format: 'CODE128', value: 'AB{1', align: 'left' }]);
    assert.equal(mixed, h`1d4802 1d6850 1d7703 1d6b 49 07 7b42 4142 7b7b 31`);
  });

  test('a barcode wider than the paper is narrowed, with a warning', () => {
    const value = 'ABCDEFGHIJKLMNOP'; // 16 CODE39 characters: 288 modules
    const r = encodeReceiptWithReport(
      { blocks: [{ type: 'barcode', format: 'CODE39', value, width: 3, align: 'left' }] },
      'generic-58mm',
    );
    assert.equal(hex(r.bytes).slice(HEADER.length, HEADER.length + 18), h`1d4802 1d6850 1d7701`);
    assert.match(r.warnings[0]!, /printed at width 1/);
  });

  test('a printer without QR or a symbology prints the value as text, with a warning', () => {
    const basic = profileWith('generic-58mm', {
      id: 'basic',
      name: 'Basic',
      qr: false,
      symbologies: ['EAN13'],
    });
    const r = encodeReceiptWithReport(
      {
        blocks: [
          { type: 'qr', value: 'https://x.io' },
          { type: 'barcode', format: 'ITF', value: '1234' },
        ],
      },
      basic,
    );
    assert.equal(
      hex(r.bytes),
      h`${HEADER} 1b6101 ${ascii('https://x.io')}0a 1b6100 1b6101 ${ascii('1234')}0a 1b6100`,
    );
    assert.equal(r.warnings.length, 2);
    assert.match(r.warnings[0]!, /Basic cannot print QR codes/);
    assert.match(r.warnings[1]!, /Basic cannot print ITF barcodes/);
  });
});

describe('image blocks', () => {
  const checker = pngOf(8, 2, (x, y) => (x + y) % 2 === 0);
  const base64 = checker.toString('base64');

  test('a PNG becomes a GS v 0 raster of its width in dots', () => {
    const out = body([{ type: 'image', src: base64, align: 'left', dithering: 'threshold' }]);
    assert.equal(out, h`1d7630 00 0100 0200 aa 55`);
  });

  test('a data: URL works as bare base64 does, and Floyd-Steinberg keeps pure black and white', () => {
    const out = body([{ type: 'image', src: `data:image/png;base64,${base64}`, align: 'left' }]);
    assert.equal(out, h`1d7630 00 0100 0200 aa 55`);
  });

  test('center and right alignment shift the image inside the raster', () => {
    const black = pngOf(8, 1, () => true).toString('base64');
    // 58 mm: 384 dots; centered at dot 188 → 196 dots wide (25 bytes), bits 188-195 set.
    const center = body([{ type: 'image', src: black }], {}, 'generic-58mm');
    assert.equal(center, h`1d7630 00 1900 0100 ${'00'.repeat(23)} 0f f0`);
    const right = body([{ type: 'image', src: black, align: 'right' }], {}, 'generic-58mm');
    assert.equal(right, h`1d7630 00 3000 0100 ${'00'.repeat(47)} ff`);
  });

  test('an image is resized to the width in dots, keeping its proportions', () => {
    const src = pngOf(100, 50, () => true).toString('base64');
    const out = body([{ type: 'image', src, width: 16, align: 'left' }]);
    assert.equal(out, h`1d7630 00 0200 0800 ${'ff'.repeat(16)}`);
  });

  test('tall images go out in bands of at most 256 rows', () => {
    const src = pngOf(8, 300, () => true).toString('base64');
    const out = body([{ type: 'image', src, align: 'left' }]);
    assert.equal(
      out,
      h`1d7630 00 0100 0001 ${'ff'.repeat(256)} 1d7630 00 0100 2c00 ${'ff'.repeat(44)}`,
    );
  });

  test('an image URL goes through the resolver', () => {
    const seen: string[] = [];
    const out = body([{ type: 'image', src: 'https://cdn.example.com/logo.png', align: 'left' }], {
      resolveImage: (url) => {
        seen.push(url);
        return checker;
      },
    });
    assert.deepEqual(seen, ['https://cdn.example.com/logo.png']);
    assert.equal(out, h`1d7630 00 0100 0200 aa 55`);
  });

  test('an image URL that is not resolved prints a crossed box of its width, with a warning', () => {
    const r = encodeReceiptWithReport(
      {
        blocks: [
          { type: 'image', src: 'https://cdn.example.com/logo.png', width: 16, align: 'left' },
        ],
      },
      'generic-80mm',
    );
    const raster = hex(r.bytes).slice(HEADER.length);
    assert.equal(raster.slice(0, 16), h`1d7630 00 0200 1000`);
    const rows = raster.slice(16).match(/.{4}/g)!;
    assert.equal(rows.length, 16);
    assert.equal(rows[0], 'ffff', 'top edge');
    assert.equal(rows[15], 'ffff', 'bottom edge');
    // Row y has the two sides (dots 0 and 15) and the two diagonals (dots y and 15 - y).
    assert.equal(rows[3], '9009');
    assert.equal(rows[8], '8181');
    assert.match(
      r.warnings[0]!,
      /blocks\[0\]\.src: image https:\/\/cdn\.example\.com\/logo\.png was not fetched; a crossed box/,
    );
  });

  test('a resolved URL that is not an image prints the crossed box, with a warning', () => {
    const r = encodeReceiptWithReport(
      { blocks: [{ type: 'image', src: 'https://x.io/logo.png', width: 8, align: 'left' }] },
      'generic-80mm',
      { resolveImage: () => new TextEncoder().encode('<html>Not found</html>') },
    );
    assert.equal(hex(r.bytes), h`${HEADER} 1d7630 00 0100 0800 ff c3 a5 99 99 a5 c3 ff`);
    assert.match(
      r.warnings[0]!,
      /https:\/\/x\.io\/logo\.png is not a PNG or JPEG image; a crossed box/,
    );
  });

  test('an inline image that does not decode is an INVALID_JOB naming the block', () => {
    const broken = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      Buffer.alloc(40, 1),
    ]).toString('base64');
    assert.throws(
      () =>
        encodeReceipt(
          {
            blocks: [
              { type: 'text', value: 'x' },
              { type: 'image', src: broken },
            ],
          },
          'generic-80mm',
        ),
      (err: unknown) =>
        err instanceof PrintwireError &&
        err.code === 'INVALID_JOB' &&
        (err.details as Array<{ path: string }>)[0]!.path === 'blocks[1].src',
    );
  });
});

describe('feed, cut, drawer and raw blocks', () => {
  test('feed is ESC d n, cut is GS V 65 or 66, drawer is ESC p with pin 2 or 5', () => {
    assert.equal(body([{ type: 'feed', lines: 3 }]), h`1b6403`);
    assert.equal(body([{ type: 'feed' }]), h`1b6401`);
    assert.equal(body([{ type: 'cut' }, { type: 'text', value: 'x' }]), h`1d564100 78 0a`);
    assert.equal(body([{ type: 'cut', mode: 'partial' }]), h`1d564200`);
    assert.equal(body([{ type: 'drawer' }]), h`1b7000 19fa`);
    assert.equal(body([{ type: 'drawer', pin: 5 }]), h`1b7001 19fa`);
  });

  test('raw bytes pass through as they are', () => {
    const data = Buffer.from([0x1b, 0x21, 0x08, 0x00, 0xff]).toString('base64');
    assert.equal(body([{ type: 'raw', data }]), h`1b2108 00 ff`);
  });

  test('a printer with only a partial cutter cuts partially, with a warning', () => {
    const r = encodeReceiptWithReport(
      { blocks: [{ type: 'cut', mode: 'full' }] },
      'epson-tm-t20iii',
    );
    assert.equal(hex(r.bytes), h`${HEADER} 1d564200`);
    assert.match(r.warnings[0]!, /Epson TM-T20III has no full cut; cut partially/);
  });

  test('a printer without cutter or drawer feeds to the tear bar and skips the drawer, with warnings', () => {
    const plain = profileWith('generic-58mm', {
      id: 'plain',
      name: 'Plain',
      cutter: { full: false, partial: false },
      drawer: false,
    });
    const r = encodeReceiptWithReport({ blocks: [{ type: 'drawer' }, { type: 'cut' }] }, plain, {
      openDrawer: true,
    });
    assert.equal(hex(r.bytes), h`${HEADER} 1b6404`);
    assert.equal(r.warnings.length, 3);
  });
});
