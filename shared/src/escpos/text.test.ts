import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ESC, GS, LF, esc, inkIn, print } from '../testing/escpos.js';

describe('virtual printer: text lines', () => {
  test('prints a line on LF at the left edge in 12x24 font A cells and feeds 30 dots', () => {
    const page = print(esc('AB', LF));
    assert.equal(page.textRuns.length, 1);
    const run = page.textRuns[0]!;
    assert.deepEqual([run.text, run.x, run.y, run.width, run.height], ['AB', 0, 0, 24, 24]);
    assert.equal(page.height, 30);
    assert.ok(inkIn(page, 0, 0, 12, 24) > 20, 'the A has ink in its cell');
    assert.equal(inkIn(page, 24, 0, 552, 30), 0, 'nothing right of the text');
    assert.deepEqual(page.warnings, []);
  });

  test('a page is 576 dots wide on 80 mm paper and 384 on 58 mm', () => {
    assert.equal(print(esc('A', LF), { paper: '80mm' }).width, 576);
    const narrow = print(esc('A', LF), { paper: '58mm' });
    assert.equal(narrow.width, 384);
    assert.equal(narrow.pixels.length, 384 * narrow.height);
  });

  test('an empty stream gives a blank page one dot tall', () => {
    const page = print(new Uint8Array(0));
    assert.equal(page.height, 1);
    assert.equal(inkIn(page, 0, 0, 576, 1), 0);
  });

  test('text left in the buffer at the end is printed and reported', () => {
    const page = print(esc('tail'));
    assert.equal(page.textRuns[0]?.text, 'tail');
    assert.match(page.warnings.join('\n'), /ends without LF/);
  });

  test('ESC a centers and right-aligns each line within the paper', () => {
    const centered = print(esc(ESC, 0x61, 1, 'ABCD', LF));
    assert.equal(centered.textRuns[0]!.x, (576 - 48) / 2);
    assert.equal(centered.textRuns[0]!.alignment, 'center');
    const right = print(esc(ESC, 0x61, 50, 'ABCD', LF), { paper: '58mm' });
    assert.equal(right.textRuns[0]!.x, 384 - 48);
    const left = print(esc(ESC, 0x61, 2, ESC, 0x61, 48, 'ABCD', LF));
    assert.equal(left.textRuns[0]!.x, 0);
  });

  test('ESC a in the middle of a line is ignored like a printer does, with a warning', () => {
    const page = print(esc('AB', ESC, 0x61, 1, 'CD', LF, 'EF', LF));
    assert.equal(page.textRuns[0]!.x, 0);
    assert.equal(page.textRuns[1]!.x, 0);
    assert.match(page.warnings.join('\n'), /ESC a in the middle of a line/);
  });

  test('a full line wraps automatically at the print area width', () => {
    const page = print(esc('x'.repeat(49), LF));
    assert.deepEqual(
      page.textRuns.map((r) => [r.text.length, r.line, r.y]),
      [
        [48, 0, 0],
        [1, 1, 30],
      ],
    );
    const narrow = print(esc('y'.repeat(33), LF), { paper: '58mm' });
    assert.deepEqual(
      narrow.textRuns.map((r) => r.text.length),
      [32, 1],
    );
  });

  test('ESC 3 sets the line spacing in dots and ESC 2 restores 30', () => {
    const page = print(esc(ESC, 0x33, 50, 'a', LF, 'b', LF, ESC, 0x32, 'c', LF, 'd', LF));
    assert.deepEqual(
      page.textRuns.map((r) => r.y),
      [0, 50, 100, 130],
    );
  });

  test('a spacing smaller than the characters still feeds the line height', () => {
    const page = print(esc(ESC, 0x33, 0, 'a', LF, 'b', LF));
    assert.deepEqual(
      page.textRuns.map((r) => r.y),
      [0, 24],
    );
  });

  test('ESC J feeds n dots and ESC d feeds n lines', () => {
    const page = print(esc(ESC, 0x4a, 100, 'a', ESC, 0x64, 3, 'b', LF));
    assert.deepEqual(
      page.textRuns.map((r) => r.y),
      [100, 190],
    );
    assert.equal(page.height, 220);
  });

  test('a line of taller characters is as tall as its tallest, all standing on one baseline', () => {
    const page = print(esc('a', GS, 0x21, 0x11, 'B', GS, 0x21, 0, 'c', LF, 'd', LF));
    const [a, b, c, d] = page.textRuns;
    assert.deepEqual([a!.y, a!.height], [24, 24]);
    assert.deepEqual([b!.y, b!.height, b!.width], [0, 48, 24]);
    assert.equal(c!.y, 24);
    assert.equal(d!.y, 48, 'the next line starts below the tall one');
  });

  test('GS ! multiplies width and height from 1 to 8', () => {
    for (const [n, w, h] of [
      [0x00, 1, 1],
      [0x12, 2, 3],
      [0x70, 8, 1],
      [0x07, 1, 8],
      [0x77, 8, 8],
    ] as const) {
      const page = print(esc(GS, 0x21, n, 'W', LF));
      const run = page.textRuns[0]!;
      assert.deepEqual(
        [run.style.width, run.style.height, run.width, run.height],
        [w, h, 12 * w, 24 * h],
        `GS ! 0x${n.toString(16)}`,
      );
    }
  });

  test('ESC ! selects font B, emphasis, double height and width and underline', () => {
    const page = print(esc(ESC, 0x21, 0x01, 'b', ESC, 0x21, 0xb8, 'X', LF));
    const [b, x] = page.textRuns;
    assert.deepEqual([b!.style.font, b!.width, b!.height], ['B', 9, 17]);
    assert.deepEqual(
      [x!.style.font, x!.style.bold, x!.style.width, x!.style.height, x!.style.underline],
      ['A', true, 2, 2, 1],
    );
  });

  test('ESC M selects font B (9x17) and back to font A', () => {
    const page = print(esc(ESC, 0x4d, 1, 'bb', ESC, 0x4d, 48, 'a', LF));
    assert.deepEqual(
      page.textRuns.map((r) => [r.text, r.style.font, r.width]),
      [
        ['bb', 'B', 18],
        ['a', 'A', 12],
      ],
    );
  });

  test('ESC E and ESC G print bold as a double strike with more ink', () => {
    const plain = print(esc('H', LF));
    const bold = print(esc(ESC, 0x45, 1, 'H', LF));
    const strike = print(esc(ESC, 0x47, 1, 'H', LF));
    assert.equal(bold.textRuns[0]!.style.bold, true);
    assert.equal(strike.textRuns[0]!.style.bold, true);
    assert.ok(inkIn(bold, 0, 0, 13, 24) > inkIn(plain, 0, 0, 13, 24));
    assert.equal(inkIn(bold, 0, 0, 13, 24), inkIn(strike, 0, 0, 13, 24));
  });

  test('ESC - underlines with 1 or 2 dots at the bottom of the cell', () => {
    const one = print(esc(ESC, 0x2d, 1, ' ', LF));
    const two = print(esc(ESC, 0x2d, 50, ' ', LF));
    const off = print(esc(ESC, 0x2d, 1, ESC, 0x2d, 48, ' ', LF));
    assert.equal(inkIn(one, 0, 23, 12, 1), 12);
    assert.equal(inkIn(one, 0, 0, 12, 23), 0);
    assert.equal(inkIn(two, 0, 22, 12, 2), 24);
    assert.equal(inkIn(off, 0, 0, 12, 24), 0);
  });

  test('GS B prints white on black', () => {
    const page = print(esc(GS, 0x42, 1, ' ', GS, 0x42, 0, ' ', LF));
    assert.equal(page.textRuns[0]!.style.invert, true);
    assert.equal(inkIn(page, 0, 0, 12, 24), 12 * 24, 'an inverted space is a black cell');
    assert.equal(inkIn(page, 12, 0, 12, 24), 0);
  });

  test('HT moves to the default tab stops every 8 characters, ESC D sets others, none past the last', () => {
    const page = print(
      esc('A', 0x09, 'B', LF, ESC, 0x44, 4, 10, 0, 0x09, 'C', 0x09, 'D', 0x09, 'E', LF),
    );
    assert.deepEqual(
      page.textRuns.map((r) => [r.text, r.x]),
      [
        ['A', 0],
        ['B', 96],
        ['C', 48],
        ['DE', 120],
      ],
    );
  });

  test('ESC $ and ESC \\ move the print position absolutely and relatively', () => {
    const page = print(
      esc(ESC, 0x24, 200, 0, 'A', ESC, 0x5c, 10, 0, 'B', ESC, 0x5c, 0xf6, 0xff, 'C', LF),
    );
    assert.deepEqual(
      page.textRuns.map((r) => r.x),
      [200, 222, 224],
    );
  });

  test('ESC SP adds spacing to the right of each character', () => {
    const page = print(esc(ESC, 0x20, 4, 'AB', LF));
    assert.equal(page.textRuns[0]!.width, 32);
  });

  test('GS L sets a left margin and GS W narrows the print area (wrap and centering in it)', () => {
    const page = print(esc(GS, 0x4c, 100, 0, GS, 0x57, 200, 0, 'x'.repeat(17), LF));
    assert.deepEqual(
      page.textRuns.map((r) => [r.x, r.text.length]),
      [
        [100, 16],
        [100, 1],
      ],
    );
    const centered = print(esc(GS, 0x4c, 100, 0, GS, 0x57, 200, 0, ESC, 0x61, 1, 'ab', LF));
    assert.equal(centered.textRuns[0]!.x, 100 + (200 - 24) / 2);
  });

  test('ESC @ restores the defaults and discards an unprinted line', () => {
    const page = print(
      esc(GS, 0x21, 0x11, ESC, 0x45, 1, ESC, 0x61, 1, 'lost', ESC, 0x40, 'kept', LF),
    );
    assert.equal(page.textRuns.length, 1);
    const run = page.textRuns[0]!;
    assert.deepEqual(
      [run.text, run.x, run.style.bold, run.style.width, run.alignment],
      ['kept', 0, false, 1, 'left'],
    );
  });

  test('CR is ignored and FF prints the pending line', () => {
    const page = print(esc('a', 0x0d, 'b', 0x0c, 'c', LF));
    assert.deepEqual(
      page.textRuns.map((r) => [r.text, r.y]),
      [
        ['ab', 0],
        ['c', 30],
      ],
    );
  });
});
