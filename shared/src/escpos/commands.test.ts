import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CUT_BAND } from './printer.js';
import { ESC, GS, LF, esc, inkIn, print, qrStore } from '../testing/escpos.js';

describe('virtual printer: character tables (ESC t)', () => {
  const cases: Array<[number, number, string, string]> = [
    [0, 0x82, 'é', 'CP437'],
    [0, 0xc9, '╔', 'CP437'],
    [0, 0xe0, 'α', 'CP437'],
    [2, 0xd5, 'ı', 'CP850'],
    [16, 0x80, '€', 'CP1252'],
    [17, 0x80, 'А', 'CP866'],
    [19, 0xd5, '€', 'CP858'],
    [40, 0xa4, '€', 'ISO-8859-15'],
    [45, 0x8a, 'Š', 'CP1250'],
    [1, 0x95, '─', 'Katakana'],
  ];
  for (const [n, byte, char, name] of cases) {
    test(`ESC t ${n} prints byte 0x${byte.toString(16)} as ${char} (${name})`, () => {
      const page = print(esc(ESC, 0x74, n, byte, LF));
      assert.equal(page.textRuns[0]!.text, char);
      assert.equal(page.textRuns[0]!.codepage, name);
      assert.ok(inkIn(page, 0, 0, 12, 24) > 0);
    });
  }

  test('an unknown ESC t number keeps the table in use and warns', () => {
    const page = print(esc(ESC, 0x74, 17, ESC, 0x74, 99, 0x80, LF));
    assert.equal(page.textRuns[0]!.text, 'А');
    assert.match(page.warnings.join('\n'), /character table 99/);
  });

  test('ESC R international sets print other characters at 12 ASCII positions', () => {
    const page = print(
      esc(ESC, 0x52, 2, '@[]{}~', LF, ESC, 0x52, 3, '#', LF, ESC, 0x52, 0, '#', LF),
    );
    assert.deepEqual(
      page.textRuns.map((r) => r.text),
      ['§ÄÜäüß', '£', '#'],
    );
    for (const run of page.textRuns) assert.ok(inkIn(page, run.x, run.y, run.width, 24) > 0);
  });

  test('ESC R with an unknown set keeps the current one and warns', () => {
    const page = print(esc(ESC, 0x52, 1, ESC, 0x52, 99, '@', LF));
    assert.equal(page.textRuns[0]!.text, 'à');
    assert.match(page.warnings.join('\n'), /international character set 99/);
  });

  test('a byte the table leaves undefined prints blank', () => {
    const page = print(esc(ESC, 0x74, 16, 0x81, LF));
    assert.equal(inkIn(page, 0, 0, 12, 24), 0);
  });
});

describe('virtual printer: upside-down printing (ESC {)', () => {
  test('each line is turned 180° within the print area', () => {
    const upright = print(esc('AB', LF));
    const turned = print(esc(ESC, 0x7b, 1, 'AB', LF));
    const run = turned.textRuns[0]!;
    assert.deepEqual([run.x, run.y, run.upsideDown], [576 - 24, 0, true]);
    for (let y = 0; y < 24; y++) {
      for (let x = 0; x < 24; x++) {
        const a = upright.pixels[y * 576 + x];
        const b = turned.pixels[(23 - y) * 576 + (575 - x)];
        if (a !== b) assert.fail(`dot ${x},${y} is not turned`);
      }
    }
  });

  test('ESC { 0 prints upright again, and ESC { in the middle of a line is ignored', () => {
    const page = print(esc(ESC, 0x7b, 1, 'A', LF, ESC, 0x7b, 0, 'B', ESC, 0x7b, 1, 'C', LF));
    assert.deepEqual(
      page.textRuns.map((r) => [r.text, r.x]),
      [
        ['A', 564],
        ['BC', 0],
      ],
    );
    assert.match(page.warnings.join('\n'), /ESC \{ in the middle of a line/);
  });
});

describe('virtual printer: cuts, drawer and status', () => {
  const cuts: Array<[string, number[], 'full' | 'partial']> = [
    ['GS V 0', [GS, 0x56, 0], 'full'],
    ['GS V 48', [GS, 0x56, 48], 'full'],
    ['GS V 1', [GS, 0x56, 1], 'partial'],
    ['GS V 49', [GS, 0x56, 49], 'partial'],
    ['ESC i', [ESC, 0x69], 'full'],
    ['ESC m', [ESC, 0x6d], 'partial'],
  ];
  for (const [name, bytes, mode] of cuts) {
    test(`${name} is a ${mode} cut, recorded and marked under the printed text`, () => {
      const page = print(esc('a', LF, bytes));
      assert.deepEqual(page.cuts, [{ y: 30 + CUT_BAND / 2, mode }]);
      assert.ok(inkIn(page, 0, 30, 576, CUT_BAND) > 50, 'the cut mark is drawn');
      assert.equal(page.height, 30 + CUT_BAND);
    });
  }

  test('full and partial cut marks look different', () => {
    const full = print(esc(GS, 0x56, 0));
    const partial = print(esc(GS, 0x56, 1));
    assert.notDeepEqual(full.pixels, partial.pixels);
    assert.equal(inkIn(partial, 288 - 10, 0, 20, CUT_BAND), 0, 'a partial cut leaves a bridge');
    assert.ok(inkIn(full, 288 - 10, 0, 20, CUT_BAND) > 0);
  });

  test('GS V 65 and 66 feed n dots, then cut full or partial', () => {
    const page = print(esc('a', LF, GS, 0x56, 65, 40, GS, 0x56, 66, 10));
    assert.deepEqual(page.cuts, [
      { y: 70 + CUT_BAND / 2, mode: 'full' },
      { y: 70 + CUT_BAND + 10 + CUT_BAND / 2, mode: 'partial' },
    ]);
  });

  test('a second cut with no feed in between cuts the same place: recorded, not marked again', () => {
    const page = print(esc('a', LF, GS, 0x56, 66, 0, GS, 0x56, 66, 0));
    assert.deepEqual(
      page.cuts.map((c) => c.y),
      [30 + CUT_BAND / 2, 30 + CUT_BAND / 2],
    );
    assert.equal(page.height, 30 + CUT_BAND);
  });

  test('ESC p records a drawer pulse on pin 2 or 5 with its times', () => {
    const page = print(esc(ESC, 0x70, 0, 25, 250, 'a', LF, ESC, 0x70, 49, 50, 50));
    assert.deepEqual(page.drawerPulses, [
      { pin: 2, onMs: 50, offMs: 500, y: 0 },
      { pin: 5, onMs: 100, offMs: 100, y: 30 },
    ]);
  });

  test('status requests (DLE EOT, DLE DC4, GS r, ESC v) are recorded and print nothing', () => {
    const page = print(esc(0x10, 0x04, 1, 0x10, 0x14, 1, 0, 1, GS, 0x72, 1, ESC, 0x76, 0));
    assert.deepEqual(
      page.statusRequests.map((s) => [s.command, s.offset]),
      [
        ['DLE EOT 1', 0],
        ['DLE DC4 1', 3],
        ['GS r', 8],
        ['ESC v', 11],
      ],
    );
    assert.equal(page.textRuns.length, 0);
    assert.deepEqual(page.warnings, []);
  });
});

describe('virtual printer: unknown commands and limits', () => {
  test('an unknown ESC command skips its prefix and what follows prints, with a warning', () => {
    const page = print(esc(ESC, 0x7e, 'ok', LF));
    assert.equal(page.textRuns[0]!.text, 'ok');
    assert.deepEqual(page.warnings, [
      'unknown command ESC ~ (0x1B 0x7E): skipped 2 bytes (at byte 0)',
    ]);
  });

  test('known commands the preview does not draw are skipped by their length', () => {
    const page = print(
      esc(ESC, 0x57, 1, 2, 3, 4, 5, 6, 7, 8, GS, 0x28, 0x4c, 2, 0, 48, 69, 'ok', LF),
    );
    assert.equal(page.textRuns[0]!.text, 'ok');
    assert.equal(page.warnings.length, 2);
  });

  test('FS q (NV bit image definitions) is skipped by its declared sizes', () => {
    const image = [1, 0, 1, 0, ...Array.from({ length: 8 }, () => 0x41)];
    const page = print(esc(0x1c, 0x71, 1, image, 'ok', LF, 0x1c, 0x70, 1, 0));
    assert.equal(page.textRuns[0]!.text, 'ok');
    assert.equal(page.warnings.length, 2);
  });

  test('repeated warnings are counted once and their number is bounded', () => {
    const repeated = print(esc(ESC, 0x7e, ESC, 0x7e, ESC, 0x7e));
    assert.deepEqual(repeated.warnings, [
      'unknown command ESC ~ (0x1B 0x7E): skipped 2 bytes (first at byte 0) ×3',
    ]);
    const many: number[] = [];
    for (let c = 0x80; c < 0x80 + 12; c++) many.push(GS, c);
    const bounded = print(esc(many), { maxWarnings: 10 });
    assert.equal(bounded.warnings.length, 11);
    assert.equal(bounded.warnings[10], '2 more warnings not listed');
  });

  test('the page stops growing at maxHeight: a feed to exactly the limit is allowed', () => {
    const exact = print(esc(ESC, 0x4a, 100, ESC, 0x4a, 100), { maxHeight: 200 });
    assert.equal(exact.height, 200);
    assert.deepEqual(exact.warnings, []);
    const over = print(esc(ESC, 0x4a, 100, ESC, 0x4a, 101, 'never', LF), { maxHeight: 200 });
    assert.equal(over.height, 100);
    assert.equal(over.textRuns.length, 0);
    assert.match(over.warnings.join('\n'), /maximum height of 200 dots/);
  });

  test('a runaway feed stops at the default maximum of 20000 dots', () => {
    const feeds: number[] = [];
    for (let i = 0; i < 200; i++) feeds.push(ESC, 0x4a, 255);
    const page = print(esc(feeds));
    assert.ok(page.height <= 20000);
    assert.match(page.warnings.join('\n'), /maximum height of 20000 dots/);
  });
});

describe('virtual printer: symbol settings at their edges', () => {
  const code128 = (settings: number[]) =>
    print(esc(settings, GS, 0x6b, 73, 5, '{Babc')).graphics[0]!;
  // start, a, b, c, check: 5 symbols of 11 modules, and the 13-module stop
  const MODULES = 5 * 11 + 13;

  test('GS w takes module widths 1 to 6; 0 and 7 are ignored (the default is 3)', () => {
    assert.equal(code128([GS, 0x77, 1]).width, MODULES);
    assert.equal(code128([GS, 0x77, 6]).width, MODULES * 6);
    assert.equal(code128([GS, 0x77, 0]).width, MODULES * 3);
    assert.equal(code128([GS, 0x77, 7]).width, MODULES * 3);
  });

  test('GS h takes heights 1 to 255; 0 is ignored (the default is 162)', () => {
    assert.equal(code128([GS, 0x68, 1]).height, 1);
    assert.equal(code128([GS, 0x68, 255]).height, 255);
    assert.equal(code128([GS, 0x68, 0]).height, 162);
  });

  test('GS H puts the human-readable text below, above, both or nowhere', () => {
    const fontA = 24 + 4;
    assert.equal(code128([GS, 0x68, 50, GS, 0x48, 0]).height, 50);
    assert.equal(code128([GS, 0x68, 50, GS, 0x48, 1]).height, 50 + fontA);
    assert.equal(code128([GS, 0x68, 50, GS, 0x48, 50]).height, 50 + fontA);
    assert.equal(code128([GS, 0x68, 50, GS, 0x48, 51]).height, 50 + 2 * fontA);
    assert.equal(code128([GS, 0x68, 50, GS, 0x48, 2, GS, 0x66, 1]).height, 50 + 17 + 4);
  });

  test('a barcode wider than the print area is not printed, as a printer refuses it', () => {
    const page = print(esc(GS, 0x77, 6, GS, 0x6b, 73, 22, '{B', 'x'.repeat(20)), { paper: '58mm' });
    assert.equal(page.graphics.length, 0);
    assert.match(page.warnings.join('\n'), /does not fit the print area/);
  });

  const qr = (size: number) =>
    print(
      esc([GS, 0x28, 0x6b, 3, 0, 49, 67, size], qrStore('hello'), [
        GS,
        0x28,
        0x6b,
        3,
        0,
        49,
        81,
        48,
      ]),
    );

  test('QR module sizes 1 to 16 are taken; 0 and 17 are ignored (the default is 3)', () => {
    // "hello" at level L is a version 1 symbol: 21 modules
    assert.equal(qr(1).graphics[0]!.width, 21);
    assert.equal(qr(16).graphics[0]!.width, 21 * 16);
    assert.equal(qr(0).graphics[0]!.width, 21 * 3);
    assert.equal(qr(17).graphics[0]!.width, 21 * 3);
  });

  test('printing a QR code with nothing stored prints nothing and warns', () => {
    const page = print(esc(GS, 0x28, 0x6b, 3, 0, 49, 81, 48));
    assert.equal(page.graphics.length, 0);
    assert.match(page.warnings.join('\n'), /no stored data/);
  });
});
