/**
 * The StarPRNT interpreter, fed bytes written from Star's command specification (not from the
 * encoder): what each command prints, and how it reports what it does not know.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { interpretStarprnt } from './interpreter.js';

const ESC = 0x1b;
const GS = 0x1d;
const RS = 0x1e;
const LF = 0x0a;

function star(...parts: Array<number | string>): Uint8Array {
  const bytes: number[] = [];
  for (const p of parts) {
    if (typeof p === 'number') bytes.push(p);
    else bytes.push(...Buffer.from(p, 'latin1'));
  }
  return Uint8Array.from(bytes);
}

const print = (bytes: Uint8Array, paper: '58mm' | '80mm' = '80mm') =>
  interpretStarprnt(bytes, { paper });

describe('StarPRNT interpreter', () => {
  test('text prints in the styles ESC E, ESC -, ESC 4, ESC i and ESC RS F set, aligned by ESC GS a', () => {
    const page = print(
      star(
        ESC,
        0x40,
        ESC,
        GS,
        0x61,
        2,
        ESC,
        0x45,
        ESC,
        0x2d,
        1,
        ESC,
        0x34,
        ESC,
        0x69,
        1,
        2,
        'Hi',
        LF,
      ),
    );
    assert.deepEqual(page.warnings, []);
    const run = page.textRuns[0]!;
    assert.equal(run.text, 'Hi');
    assert.deepEqual(run.style, {
      font: 'A',
      bold: true,
      underline: 1,
      invert: true,
      width: 3,
      height: 2,
    });
    assert.equal(run.x + run.width, 576, 'right-aligned');
    const b = print(star(ESC, 0x1e, 0x46, 1, 'small', LF));
    assert.equal(b.textRuns[0]!.style.font, 'B');
  });

  test('ESC F, ESC 5 and ESC - 0 turn the styles off', () => {
    const page = print(
      star(ESC, 0x45, ESC, 0x34, ESC, 0x2d, 1, ESC, 0x46, ESC, 0x35, ESC, 0x2d, 0, 'x', LF),
    );
    assert.deepEqual(page.textRuns[0]!.style, {
      font: 'A',
      bold: false,
      underline: 0,
      invert: false,
      width: 1,
      height: 1,
    });
  });

  test("ESC GS t picks Star's code page: 4 is CP858 (0xD5 is €), 32 is CP1252 (0x80 is €)", () => {
    assert.equal(print(star(ESC, GS, 0x74, 4, 0xd5, LF)).textRuns[0]!.text, '€');
    assert.equal(print(star(ESC, GS, 0x74, 32, 0x80, LF)).textRuns[0]!.text, '€');
    assert.equal(print(star(ESC, GS, 0x74, 10, 0x80, LF)).textRuns[0]!.text, 'А');
  });

  test('a QR code: ESC GS y S sets model, level and cell size, ESC GS y D stores, ESC GS y P prints', () => {
    const data = 'https://printwire.example';
    const page = print(
      star(
        ESC,
        GS,
        0x79,
        0x53,
        0x30,
        2,
        ESC,
        GS,
        0x79,
        0x53,
        0x31,
        1,
        ESC,
        GS,
        0x79,
        0x53,
        0x32,
        4,
      ),
    );
    assert.equal(page.graphics.length, 0);
    const full = print(
      star(
        ESC,
        GS,
        0x79,
        0x53,
        0x32,
        4,
        ESC,
        GS,
        0x79,
        0x44,
        0x31,
        0,
        data.length,
        0,
        data,
        ESC,
        GS,
        0x79,
        0x50,
      ),
    );
    assert.deepEqual(full.warnings, []);
    assert.equal(full.graphics[0]!.kind, 'qr');
    assert.equal(full.graphics[0]!.data, data);
    assert.equal(full.graphics[0]!.width % 4, 0);
  });

  test('a barcode: ESC b type, text, mode, height, data, RS', () => {
    const page = print(star(ESC, 0x62, 3, 2, 2, 60, '400638133393', RS, 'after', LF));
    assert.deepEqual(page.warnings, []);
    const g = page.graphics[0]!;
    assert.equal(g.symbology, 'EAN13');
    assert.ok(g.height >= 60);
    // "with line feed" (n2 = 2): the next line starts one line below the barcode and its text.
    assert.ok(page.textRuns.at(-1)!.y >= g.y + g.height + 30 - 24);
    const code128 = print(star(ESC, 0x62, 6, 1, 2, 40, 'AB{12', RS));
    assert.deepEqual(code128.warnings, []);
    assert.equal(code128.graphics[0]!.symbology, 'CODE128');
  });

  test('a barcode without its closing RS is not printed and is reported', () => {
    const page = print(star(ESC, 0x62, 3, 2, 2, 60, '4006'));
    assert.equal(page.graphics.length, 0);
    assert.match(page.warnings[0]!, /ESC b data has no closing RS: barcode not printed/);
  });

  test('ESC GS S draws a raster image of x bytes by y rows', () => {
    const page = print(star(ESC, GS, 0x53, 1, 2, 0, 3, 0, 0, 0xff, 0x00, 0x00, 0xff, 0xf0, 0x0f));
    assert.deepEqual(page.warnings, []);
    assert.deepEqual(
      [page.graphics[0]!.kind, page.graphics[0]!.width, page.graphics[0]!.height],
      ['raster', 16, 3],
    );
    assert.equal(page.pixels[0], 1);
    assert.equal(page.pixels[8], 0);
    assert.equal(page.pixels[576 + 8], 1);
  });

  test('ESC a feeds lines, ESC d cuts (2 full, 3 partial), BEL and SUB open drawers 1 and 2 with the ESC BEL pulse', () => {
    const page = print(
      star('a', ESC, 0x61, 2, ESC, 0x64, 2, ESC, 0x64, 3, ESC, 0x07, 5, 50, 0x07, 0x1a),
    );
    assert.deepEqual(page.warnings, []);
    assert.deepEqual(
      page.cuts.map((c) => c.mode),
      ['full', 'partial'],
    );
    assert.equal(
      page.cuts[0]!.y,
      60 + 12,
      'the line and two lines fed, then the middle of the cut band',
    );
    assert.deepEqual(
      page.drawerPulses.map((d) => [d.pin, d.onMs, d.offMs]),
      [
        [2, 50, 500],
        [5, 50, 500],
      ],
    );
  });

  test('ESC @ resets styles and the drawer pulse', () => {
    const page = print(star(ESC, 0x45, ESC, 0x07, 1, 1, ESC, 0x40, 'x', LF, 0x07));
    assert.equal(page.textRuns[0]!.style.bold, false);
    assert.deepEqual([page.drawerPulses[0]!.onMs, page.drawerPulses[0]!.offMs], [200, 200]);
  });

  test('an unknown command is skipped and reported with where it was; what follows prints', () => {
    const page = print(star('ok', LF, ESC, 0x7e, 'next', LF));
    assert.deepEqual(page.warnings, [
      'unknown command ESC ~ (0x1B 0x7E): skipped 2 bytes (at byte 3)',
    ]);
    assert.deepEqual(
      page.textRuns.map((r) => r.text),
      ['ok', 'next'],
    );
  });

  test('parameters cut off by the end of the data are reported, never thrown', () => {
    const page = print(star(ESC, 0x69, 1));
    assert.match(page.warnings[0]!, /ESC i cut off by the end of the data/);
    assert.doesNotThrow(() => print(star(ESC)));
    assert.doesNotThrow(() => print(star(ESC, GS, 0x79, 0x44, 0x31, 0, 200, 0, 'short')));
  });

  test('an image wider than the paper is cut at its edge with a warning', () => {
    const page = print(star(ESC, GS, 0x53, 1, 50, 0, 1, 0, 0, ...new Array(50).fill(0xff)), '58mm');
    assert.equal(page.graphics[0]!.width, 384);
    assert.match(page.warnings[0]!, /ESC GS S image of 400 dots is wider than the paper/);
  });
});
