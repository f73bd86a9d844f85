import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ESC, GS, LF, esc, inkBox, inkIn, print } from '../testing/escpos.js';

/** GS v 0 with mode m of 1 byte by 2 rows: 0xF0 then 0x0F. */
const raster = (m: number) => esc(GS, 0x76, 0x30, m, 1, 0, 2, 0, 0xf0, 0x0f);

describe('virtual printer: raster images (GS v 0)', () => {
  test('mode 0 draws each bit as one dot, MSB first, and feeds the image height', () => {
    const page = print(raster(0));
    assert.equal(page.height, 2);
    assert.equal(inkIn(page, 0, 0, 4, 1), 4);
    assert.equal(inkIn(page, 4, 0, 4, 1), 0);
    assert.equal(inkIn(page, 4, 1, 4, 1), 4);
    assert.equal(inkIn(page, 0, 1, 4, 1), 0);
    assert.deepEqual(page.graphics, [{ kind: 'raster', x: 0, y: 0, width: 8, height: 2 }]);
  });

  for (const [m, w, h] of [
    [1, 16, 2],
    [49, 16, 2],
    [2, 8, 4],
    [50, 8, 4],
    [3, 16, 4],
    [51, 16, 4],
  ] as const) {
    test(`mode ${m} prints the image ${w}x${h} dots`, () => {
      const page = print(raster(m));
      assert.deepEqual(inkBox(page), { x: 0, y: 0, w, h });
      assert.equal(inkIn(page, 0, 0, w, h), (w * h) / 2);
    });
  }

  test('the image follows ESC a alignment', () => {
    const page = print(esc(ESC, 0x61, 1, raster(0)));
    assert.equal(page.graphics[0]!.x, (576 - 8) / 2);
  });

  test('data shorter than declared prints the rows it has and warns', () => {
    const page = print(esc(GS, 0x76, 0x30, 0, 1, 0, 0xff, 0xff, 0xff, 0xff, 0xff));
    assert.equal(page.height, 3);
    assert.match(page.warnings.join('\n'), /declares 65535 bytes of data but only 3 remain/);
  });
});

describe('virtual printer: bit images (ESC *)', () => {
  test('24-dot double density (m = 33) draws 3 bytes per column, top bit first', () => {
    const page = print(esc(ESC, 0x2a, 33, 2, 0, 0x80, 0x00, 0x01, 0xff, 0xff, 0xff, LF));
    assert.equal(inkIn(page, 0, 0, 1, 1), 1);
    assert.equal(inkIn(page, 0, 1, 1, 22), 0);
    assert.equal(inkIn(page, 0, 23, 1, 1), 1);
    assert.equal(inkIn(page, 1, 0, 1, 24), 24);
    assert.equal(page.height, 30, 'the image is part of a line');
  });

  test('24-dot single density (m = 32) doubles each column', () => {
    const page = print(esc(ESC, 0x2a, 32, 1, 0, 0xff, 0xff, 0xff, LF));
    assert.deepEqual(inkBox(page), { x: 0, y: 0, w: 2, h: 24 });
  });

  test('8-dot modes stretch each dot 3 dots tall, single density 2 wide', () => {
    const double = print(esc(ESC, 0x2a, 1, 1, 0, 0x80, LF));
    assert.deepEqual(inkBox(double), { x: 0, y: 0, w: 1, h: 3 });
    const single = print(esc(ESC, 0x2a, 0, 1, 0, 0x01, LF));
    assert.deepEqual(inkBox(single), { x: 0, y: 21, w: 2, h: 3 });
  });

  test('bit images and text share a line, standing on one baseline', () => {
    const page = print(esc(ESC, 0x33, 24, ESC, 0x2a, 33, 1, 0, 0xff, 0xff, 0xff, 'A', LF));
    assert.equal(page.textRuns[0]!.x, 1);
    assert.equal(page.textRuns[0]!.y, 0);
  });

  test('an unknown mode is skipped with a warning', () => {
    const page = print(esc(ESC, 0x2a, 5, 1, 0, 'ok', LF));
    assert.equal(page.textRuns[0]!.text, 'ok');
    assert.match(page.warnings.join('\n'), /ESC \* mode 5/);
  });
});

/** GS ( L function 112 body: monochrome, scale bx by, colour 1, w x h dots, then the rows. */
function storeGraphic(bx: number, by: number, w: number, h: number, rows: number[]): number[] {
  const body = [48, 112, 48, bx, by, 49, w & 0xff, w >> 8, h & 0xff, h >> 8, ...rows];
  return [GS, 0x28, 0x4c, body.length & 0xff, body.length >> 8, ...body];
}
const PRINT_GRAPHIC = [GS, 0x28, 0x4c, 2, 0, 48, 50];

describe('virtual printer: graphics (GS ( L, GS 8 L)', () => {
  test('function 112 stores a raster graphic and function 50 prints it', () => {
    const page = print(esc(storeGraphic(1, 1, 8, 2, [0xf0, 0x0f]), PRINT_GRAPHIC));
    assert.equal(page.height, 2);
    assert.equal(inkIn(page, 0, 0, 4, 1), 4);
    assert.equal(inkIn(page, 4, 1, 4, 1), 4);
    assert.equal(inkIn(page, 4, 0, 4, 1) + inkIn(page, 0, 1, 4, 1), 0);
  });

  test('double width and height (bx = by = 2) and ESC a centering apply', () => {
    const page = print(esc(ESC, 0x61, 1, storeGraphic(2, 2, 8, 1, [0xff]), PRINT_GRAPHIC));
    assert.deepEqual(inkBox(page), { x: (576 - 16) / 2, y: 0, w: 16, h: 2 });
  });

  test('GS 8 L takes a 32-bit length', () => {
    const body = [48, 112, 48, 1, 1, 49, 8, 0, 1, 0, 0x81];
    const page = print(esc(GS, 0x38, 0x4c, body.length, 0, 0, 0, body, PRINT_GRAPHIC));
    assert.equal(inkIn(page, 0, 0, 8, 1), 2);
  });

  test('printing with nothing stored prints nothing and warns', () => {
    const page = print(esc(PRINT_GRAPHIC));
    assert.equal(page.graphics.length, 0);
    assert.match(page.warnings.join('\n'), /no stored graphics/);
  });
});
