/**
 * What the label renderer draws as Labelary (the ZPL viewer that draws as Zebra's printers do)
 * draws it: each test is one mistake found by `npm run labels:compare` (docs/labels.md, "Measured
 * against Labelary"), shown on a label of our own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderLabel } from '../index.js';
import { skipWithout } from '../testing/escpos.js';
import { inkBox, inkIn, readPng, zbarTyped } from './testing.js';
import { zplQrSegments } from './barcodes.js';
import { code128Codewords, dataMatrixText } from './zpl/barcodes.js';
import { pdf417Codewords } from './zpl/pdf417.js';

const dots = (zpl: string) => readPng(renderLabel(zpl, { widthMm: 100, heightMm: 100 }).png);

describe('measured against Labelary', () => {
  it('a field without ^A takes the ^CF font in force when it ends, not the label’s last ^CF', () => {
    const d = dots('^XA^CF0,30^FO10,10^FDHH^FS^CF0,100^FO10,300^FDHH^FS^XZ');
    const small = inkBox({ ...d, data: d.data.map((v, i) => (i < 200 * d.width ? v : 0)) })!;
    const big = inkBox({ ...d, data: d.data.map((v, i) => (i >= 200 * d.width ? v : 0)) })!;
    assert.ok(small.h >= 20 && small.h <= 24, `caps of a 30-dot font (${small.h})`);
    assert.ok(big.h >= 70 && big.h <= 76, `caps of a 100-dot font (${big.h})`);
  });

  it('^BY after the field’s ^FO still sets the barcode’s module width', () => {
    // Code 128 ">:AB": start B, A, B, check (11 modules each) and stop (13): 57 modules of 3 dots.
    const box = inkBox(dots('^XA^FO10,10^BY3^BCN,50,N^FD>:AB^FS^XZ'))!;
    assert.equal(box.w, 57 * 3); // the stop pattern ends with a bar
  });

  it('font 0 is as narrow as the printer’s: "United States (USA)" at 30 dots is 235 dots wide, as Labelary draws it', () => {
    const box = inkBox(dots('^XA^FO10,10^A0N,30,30^FDUnited States (USA)^FS^XZ'))!;
    assert.ok(Math.abs(box.w - 235) <= 4, `${box.w} dots`);
    // A wider ^A width widens it in proportion (27 high, 36 wide: 712 dots for this line).
    const wide = inkBox(
      dots('^XA^FO10,10^A0N,27,36^FD9632 0804 0 (020 004 4387) 5 02 1710 5382 8143^FS^XZ'),
    )!;
    assert.ok(Math.abs(wide.w - 712) <= 8, `${wide.w} dots`);
    // Capitals and figures at 40 dots: "REF1 F00B47" is 209 dots wide in Labelary, its ink from
    // the field's top row down 31 rows (30 here: the baseline at 0.745 of the cell is the best
    // fit over all sizes, 9 to 355 dots).
    const caps = inkBox(dots('^XA^FO100,100^A0N,40,40^FDREF1 F00B47^FS^XZ'))!;
    assert.ok(Math.abs(caps.w - 209) <= 3, `${caps.w} dots`);
    assert.equal(caps.y, 100);
    assert.ok(Math.abs(caps.h - 31) <= 1, `${caps.h} rows`);
  });

  it('a QR code placed by ^FO starts the ^BY bar height below the field origin', () => {
    // 21 modules of 4 dots; the default ^BY height is 10 dots.
    const plain = inkBox(dots('^XA^FO20,20^BQN,2,4^FDMA,HELLO^FS^XZ'))!;
    assert.deepEqual([plain.x, plain.y, plain.w, plain.h], [20, 30, 84, 84]);
    const after = inkBox(dots('^XA^BY3,2,100^FO20,20^BQN,2,4^FDMA,HELLO^FS^XZ'))!;
    assert.equal(after.y, 120);
  });

  it('a label wider than its ^PW centres the printed width; with ^POI the whole label turns', () => {
    // 100 mm at 203 dpi is 799 dots; ^PW700 leaves 99: 49 dots on the left.
    const at = (zpl: string) => inkBox(dots(zpl))!;
    assert.equal(at('^XA^PW700^FO0,0^GB10,10,10^FS^XZ').x, 49);
    // Turned: the box's far corner is at 699 of the printed width, which now starts 50 dots in.
    const turned = at('^XA^PW700^POI^FO0,0^GB10,10,10^FS^XZ');
    assert.equal(turned.x + turned.w, 799 - 49);
    // Without a width asked for, the label is the ^PW wide, drawn from its left edge.
    const own = inkBox(readPng(renderLabel('^XA^PW700^FO0,0^GB10,10,10^FS^XZ').png))!;
    assert.equal(own.x, 0);
  });

  it('a format of settings only feeds no label; its ^LH stays set for the next format', () => {
    const content = '^XA^LH0,20^PON^XZ^XA^FO10,10^GB30,30,30^FS^XZ';
    const r = renderLabel(content, { widthMm: 50, heightMm: 50 });
    assert.equal(r.labelCount, 1);
    assert.deepEqual(inkBox(readPng(r.png)), { x: 10, y: 30, w: 30, h: 30 });
    // Content that draws nothing at all still shows one blank label.
    assert.equal(renderLabel('^XA^LH0,20^XZ^XA^PW400^XZ').labelCount, 2);
  });

  it('the interpretation line: monospaced, 6 modules a character, ink 7 dots under the bars or ending 13 above them', () => {
    const region = (d: ReturnType<typeof dots>, y0: number, y1: number) =>
      inkBox({ ...d, data: d.data.map((v, i) => (i >= y0 * d.width && i < y1 * d.width ? v : 0)) });
    // ^BY2, bars 50 high from row 100: rows 100-149.
    const below = dots('^XA^FO100,100^BY2^BCN,50,Y,N^FD>;12345678^FS^XZ');
    const bars = region(below, 100, 150)!;
    const line = region(below, 150, 300)!;
    assert.equal(line.y, 150 + 6);
    assert.ok(line.h >= 13 && line.h <= 16, `about 7 modules high (${line.h})`);
    // 8 characters 12 dots apart, centred under the bars.
    assert.ok(line.w > 7 * 12 && line.w <= 8 * 12, `${line.w} dots`);
    assert.ok(Math.abs(line.x + line.w / 2 - (bars.x + bars.w / 2)) <= 2);
    const above = dots('^XA^FO100,100^BY2^BCN,50,Y,Y^FD>;12345678^FS^XZ');
    assert.equal(region(above, 100, 300)!.y, 100, 'the bars stay at the field origin');
    const over = region(above, 0, 100)!;
    assert.equal(over.y + over.h, 100 - 13);
  });

  it('font 0’s hyphen is the printer’s long dash: 0.58 of the width in ink, 0.93 in advance', () => {
    const one = inkBox(dots('^XA^FO100,100^A0N,90,90^FD-^FS^XZ'))!;
    assert.ok(Math.abs(one.x - 116) <= 1 && Math.abs(one.w - 52) <= 1, `${one.x} ${one.w}`);
    const two = inkBox(dots('^XA^FO100,100^A0N,90,90^FD--^FS^XZ'))!;
    assert.ok(Math.abs(two.w - (84 + 52)) <= 2, `${two.w}`);
  });

  it('bitmap font A at 3 × is a smooth monospaced face 18 dots a letter, where Labelary draws it', () => {
    // Labelary: "John Doe" at ^CFA,30 from ^FO50,300 inks x 52-190, y 299-320. Each letter sits a
    // tenth of its cell left of the middle (the best fit over all carrier labels), which puts
    // this J's left edge 2 dots left of Labelary's; the line is as long, at the same rows.
    const box = inkBox(dots('^XA^CFA,30^FO50,300^FDJohn Doe^FS^XZ'))!;
    const [x0, x1, y0, y1] = [box.x, box.x + box.w - 1, box.y, box.y + box.h - 1];
    for (const [got, want, within] of [
      [x0, 52, 2],
      [x1, 190, 1],
      [x1 - x0, 190 - 52, 1],
      [y0, 299, 1],
      [y1, 320, 1],
    ])
      assert.ok(Math.abs(got! - want!) <= within!, `${[x0, x1, y0, y1].join(' ')}`);
    // Without the shift (centred in its cell) the J would start 52: the shift is what moved it.
    assert.equal(x0, 50);
  });

  it('^FO x,y,1 right-justifies the field: it ends at x', () => {
    const left = inkBox(dots('^XA^FO400,100^GB120,40,40^FS^XZ'))!;
    assert.equal(left.x, 400);
    const right = inkBox(dots('^XA^FO400,100,1^GB120,40,40^FS^XZ'))!;
    assert.deepEqual([right.x, right.x + right.w], [280, 400]);
  });

  it('in millimetres (^MUM), ^PW, ^BY’s module and a barcode’s height are millimetres too', () => {
    const r = renderLabel('^XA^MUM^PW50^LL25^FO5,5^BY0.25^BCN,10,N^FD>:AB^FS^XZ');
    // 50 mm and 25 mm at 8 dots/mm.
    assert.deepEqual([r.width, r.height], [400, 200]);
    const box = inkBox(readPng(r.png))!;
    // 0.25 mm is 2 dots a module (57 modules), 10 mm is 80 dots, at 5 mm (40 dots) in.
    assert.deepEqual(box, { x: 40, y: 40, w: 57 * 2, h: 80 });
  });

  it('a binary ^GF whose byte count runs past ^XZ ends at ^FS, and the rest of the label is drawn', () => {
    // 100 bytes announced, none sent: the count would swallow the box and ^XZ.
    const lost = renderLabel('^XA^FO10,10^GFB,100,100,1,^FS^FO50,50^GB20,20,20^FS^XZ', {
      widthMm: 50,
      heightMm: 50,
    });
    assert.equal(lost.labelCount, 1);
    assert.deepEqual(inkBox(readPng(lost.png)), { x: 50, y: 50, w: 20, h: 20 });
    // A count that ends inside the format is the data, whatever its bytes: "^FS" is three rows
    // of one byte (0x5E, 0x46, 0x53: ink from column 1 to 7), then the field's own ^FS.
    const kept = inkBox(dots('^XA^FO10,10^GFB,3,3,1,^FS^FS^XZ'));
    assert.deepEqual(kept, { x: 11, y: 10, w: 7, h: 3 });
    // The preview says the graphic lost bytes; a count kept whole says nothing.
    assert.deepEqual(lost.warnings, [
      '^GFB field at 10,10: 100 bytes announced, 0 found before ^FS; the graphic is drawn shorter than its byte count (a printer would wait for the 100 missing bytes and print nothing)',
    ]);
    const whole = renderLabel('^XA^FO10,10^GFB,3,3,1,^FS^FS^XZ', { widthMm: 50, heightMm: 50 });
    assert.deepEqual(whole.warnings, []);
    // Three bytes sent of twenty: the count runs past the content's end.
    const cut = renderLabel('^XA^FO20,30^GFB,20,20,1,abc^FS^XZ', { widthMm: 50, heightMm: 50 });
    assert.match(cut.warnings.join('\n'), /\^GFB field at 20,30: 20 bytes announced, 3 found/);
  });

  it('^FW inside a field, after its ^A, turns that field too', () => {
    const upright = inkBox(dots('^XA^FO100,100^A0N,30,30^FDHELLO^FS^XZ'))!;
    const turned = inkBox(dots('^XA^FO100,100^A0N,30,30^FWB^FDHELLO^FS^XZ'))!;
    assert.ok(upright.w > upright.h, `upright ${upright.w}×${upright.h}`);
    assert.deepEqual([turned.w, turned.h], [upright.h, upright.w]);
    // The next field without an orientation of its own keeps ^FW's.
    const next = inkBox(dots('^XA^FWB^FO100,100^A0,30,30^FDHELLO^FS^XZ'))!;
    assert.deepEqual([next.w, next.h], [upright.h, upright.w]);
  });

  // The symbol's modules read back from the picture: `module` dots each, `size` square, from (x, y).
  const matrixModules = (zpl: string, x: number, y: number, module: number, size: number) => {
    const d = dots(zpl);
    const rows: string[] = [];
    for (let r = 0; r < size; r++) {
      let row = '';
      for (let c = 0; c < size; c++) {
        row += d.data[(y + r * module + (module >> 1)) * d.width + x + c * module + (module >> 1)];
      }
      rows.push(row);
    }
    return rows;
  };

  describe('^BX as the printer encodes it', () => {
    it('reads ZPL’s escape sequences: _1 is FNC1, __ an underscore, _@ … _^ control characters', () => {
      assert.equal(dataMatrixText('_1010_11012345', '_'), '^FNC1010^FNC11012345');
      assert.equal(dataMatrixText('A__B_M_d065*1', '_'), 'A_B^013^065*1');
      assert.equal(dataMatrixText('SLK_001_v*1', '*'), 'SLK_001_v^FNC1');
      // A sequence ZPL does not define is drawn as written.
      assert.equal(dataMatrixText('AB_2001', '_'), 'AB_2001');
    });

    it('a GS1 symbol (FNC1 first and between fields) is the one Labelary draws, module for module', () => {
      // Expected: Okapi Barcode's symbol for these codewords (232 FNC1, digit pairs + 130, 232,
      // …), the encoder whose Data Matrix symbols match Labelary's module for module on the
      // carrier labels. Before the escapes were read, "_1" was two characters: 149 modules off.
      const modules = matrixModules(
        '^XA^FO10,10^BXN,4,200,20,20,6,_^FD_1010061414100041517250101_11012345^FS^XZ',
        10,
        10,
        4,
        20,
      );
      assert.deepEqual(modules, [
        '10101010101010101010',
        '11001011110000001111',
        '10001011100010100100',
        '10111011001100101001',
        '11100110001011000110',
        '10101100111001001101',
        '10011011001000000100',
        '10010011110100011111',
        '11001010110001011110',
        '11001100000110010101',
        '10100100110000110000',
        '10010011010101001111',
        '10110010100100110100',
        '10011100101110100011',
        '11111010010111100010',
        '11001000111100011011',
        '11000101100001101010',
        '11001110111101011101',
        '10001000110110001010',
        '11111111111111111111',
      ]);
    });
  });

  describe('^BO’s size parameter, as Labelary reads it', () => {
    const width = (zpl: string) => inkBox(dots(zpl))!.w;
    it('101-104 are compact symbols of 1-4 layers, 201-232 full-range ones, 300 a rune', () => {
      // 19 layers: 95 modules (2 dots each); compact 3 layers: 23; a rune: 11.
      assert.equal(width('^XA^FO10,10^BON,2,N,219^FDItem:88;Store:KRTX^FS^XZ'), 95 * 2);
      assert.equal(width('^XA^FO10,10^BON,2,N,103^FDItem:88;Store:KRTX^FS^XZ'), 23 * 2);
      assert.equal(width('^XA^FO10,10^BON,2,N,300^FD42^FS^XZ'), 11 * 2);
    });

    it('1-99 is the error correction share: that share of the codewords rounded down, no 3 more', () => {
      // Labelary (and Okapi Barcode, whose symbols its match) draw these 23 and 75 modules wide;
      // bwip-js's own choice (full-range only, 23 % or 95 % + 3 codewords) is 27 and 79.
      const zpl = (d: number) => `^XA^FO10,10^BON,2,N,${d}^FDItem:88;Store:KRTX;Slot:07-03-9^FS^XZ`;
      assert.equal(width(zpl(23)), 23 * 2);
      assert.equal(width(zpl(95)), 75 * 2);
    });
  });

  describe('EAN and UPC interpretation lines as the printer lays them out', () => {
    // Runs of columns with ink between rows y0 and y1 (x from 0 to 259).
    const runs = (d: ReturnType<typeof dots>, y0: number, y1: number) => {
      const found: [number, number][] = [];
      for (let x = 0; x < 260; x++) {
        if (inkIn(d, x, y0, 1, y1 - y0) === 0) continue;
        const last = found[found.length - 1];
        if (last && last[1] === x - 1) last[1] = x;
        else found.push([x, x]);
      }
      return found;
    };

    it('EAN-13: the first digit before the bars, six digits between each pair of guard bars, which reach 13 dots lower', () => {
      // ^BY2, bars 100 dots from (50, 50): the guard bars (modules 0, 2, 46, 48, 92, 94) end at
      // row 162, the others at 149; the digits' cells (12 dots) are right-aligned to 10 dots
      // before the bars (the first), then spread across modules 5-44 and 51-90.
      const d = dots('^XA^FO50,50^BY2^BEN,100,Y,N^FD400638133393^FS^XZ');
      assert.deepEqual(
        runs(d, 150, 153).map(([a]) => a),
        [50, 54, 142, 146, 234, 238],
      );
      assert.equal(inkIn(d, 50, 162, 2, 1), 2);
      assert.equal(inkIn(d, 50, 163, 2, 1), 0);
      const band = runs(d, 163, 170);
      assert.equal(band.length, 13);
      const [first, ...groups] = band;
      assert.ok(first![0] >= 28 && first![1] < 40, `first digit at ${first}`);
      for (const [a, b] of groups.slice(0, 6)) assert.ok(a >= 60 && b < 140, `left half ${a}-${b}`);
      for (const [a, b] of groups.slice(6)) assert.ok(a >= 152 && b < 232, `right half ${a}-${b}`);
    });

    it('the bars, not the digits before them, are at the field origin, turned or not', () => {
      const d = dots('^XA^FO300,200^BY2^BER,80,Y,N^FD400638133393^FS^XZ');
      // Turned 90°: the start guard bar is the top row, from the guard bars' end (13 dots left
      // of the bars) to the bars' far side; the first digit stands above the origin.
      assert.equal(inkIn(d, 300, 200, 80, 2), 160);
      assert.equal(inkIn(d, 287, 199, 100, 1), 0, 'nothing of the bars above row 200');
      assert.ok(inkIn(d, 260, 170, 60, 30) > 0, 'the first digit above the origin');
    });

    it('UPC-A: the number system digit before the bars, the check digit after them unless e is N', () => {
      // ^BY2 from x = 50: 95 modules to x = 240, the check digit's cell from module 97 (x = 244).
      const after = (e: string) =>
        inkIn(dots(`^XA^FO50,50^BY2^BUN,100,Y,N,${e}^FD03600029145^FS^XZ`), 241, 150, 40, 30);
      assert.ok(after('Y') > 20, 'the check digit after the bars');
      assert.equal(after('N'), 0);
    });

    it('zbar reads the symbols with their lines back', { skip: skipWithout('zbarimg') }, () => {
      const png = renderLabel(
        '^XA^BY2^FO40,40^BEN,80,Y,N^FD400638133393^FS^FO40,200^BUN,80,Y,Y^FD03600029145^FS' +
          '^FO300,40^B8N,80,Y,N^FD9638507^FS^FO300,200^B9N,80,Y,N^FD1234500006^FS^XZ',
        { widthMm: 100, heightMm: 50 },
      ).png;
      assert.deepEqual(zbarTyped(png), [
        'EAN-13:0012345000065',
        'EAN-13:0036000291452',
        'EAN-13:4006381333931',
        'EAN-8:96385074',
      ]);
    });
  });

  describe('^BQ as the printer encodes it', () => {
    // The symbol's modules, read back from the picture: `module` dots each, from (x, y).
    const qrModules = (zpl: string, x: number, y: number, module: number) => {
      const d = dots(zpl);
      const box = inkBox(d)!;
      const size = Math.round(box.w / module);
      const at = (r: number, c: number) =>
        d.data[(y + r * module + (module >> 1)) * d.width + x + c * module + (module >> 1)]!;
      // Format information beside the top-left finder (ISO 18004 7.9): level and mask.
      const bits = [0, 1, 2, 3, 4, 5, 7, 8].map((c) => at(8, c));
      bits.push(...[7, 5, 4, 3, 2, 1, 0].map((r) => at(r, 8)));
      const format = parseInt(bits.join(''), 2) ^ 0b101010000010010;
      return { size, level: 'MLHQ'[format >> 13], mask: (format >> 10) & 7 };
    };

    it('the mask is the one Labelary picks: "MA,HELLO WORLD" is version 1 at Q with mask 0', () => {
      // The `qrcode` package's own choice is mask 6; Labelary counts the finder-like runs
      // with the light paper around the symbol, and the dark share in whole 5 % steps.
      const qr = qrModules('^XA^FO20,20^BQN,2,4^FDMA,HELLO WORLD^FS^XZ', 20, 30, 4);
      assert.deepEqual(qr, { size: 21, level: 'Q', mask: 0 });
    });

    it('the level asked for chooses the version, the symbol gets the highest level that version holds', () => {
      // 12 digits: version 1 at M, which holds them at H too.
      const qr = qrModules('^XA^FO20,20^BQN,2,4^FDMA,123456789012^FS^XZ', 20, 30, 4);
      assert.deepEqual([qr.size, qr.level], [21, 'H']);
    });

    it('manual byte mode cuts its data into modes too: 20 digits fit version 2 at H', () => {
      // As bytes they would take version 3 (29 modules); Labelary draws 25.
      const qr = qrModules('^XA^FO20,20^BQN,2,4^FDHM,B002012345678901234567890^FS^XZ', 20, 30, 4);
      assert.deepEqual([qr.size, qr.level], [25, 'H']);
    });

    it(
      'manual alphanumeric mode keeps only the characters it can hold',
      { skip: skipWithout('zbarimg') },
      () => {
        const png = renderLabel('^XA^FO40,40^BQN,2,6^FDMM,AAB12|CD34^FS^XZ', {
          widthMm: 50,
          heightMm: 50,
        }).png;
        assert.deepEqual(zbarTyped(png), ['QR-Code:AB12CD34']);
      },
    );

    it('^FT ends a QR code above its baseline: 3 modules for version 1, 7 for version 2', () => {
      // Labelary: version 1 at magnification 5 ends 15 dots above ^FT's y, version 2 at 10 ends
      // 70 above (a side of 21 or 25 modules short of a multiple of 8 by 3 or 7).
      const v1 = inkBox(dots('^XA^FT60,300^BQN,2,5^FDMA,PRINTWIRE^FS^XZ'))!;
      assert.deepEqual(v1, { x: 60, y: 300 - 15 - 105, w: 105, h: 105 });
      const v2 = inkBox(dots('^XA^FT60,500^BQN,2,10^FDHA,PRINTWIRE LABEL 2026^FS^XZ'))!;
      assert.deepEqual(v2, { x: 60, y: 500 - 70 - 250, w: 250, h: 250 });
    });

    it('the preview warns of the characters manual mode A or N dropped', () => {
      const a = renderLabel('^XA^FO40,40^BQN,2,6^FDMM,AAB12|CD34 abc^FS^XZ');
      assert.deepEqual(a.warnings, [
        '^BQ field at 40,40: manual alphanumeric (A) mode holds only digits, capitals, space and $ % * + - . / :: 4 characters dropped, "|abc"',
      ]);
      const n = renderLabel('^XA^FO40,40^BQN,2,6^FDQM,N123-456^FS^XZ');
      assert.deepEqual(n.warnings, [
        '^BQ field at 40,40: manual numeric (N) mode holds only digits: 1 character dropped, "-"',
      ]);
      // Data the mode holds whole, and automatic mode, warn of nothing.
      assert.deepEqual(renderLabel('^XA^FO40,40^BQN,2,6^FDMM,AAB12 CD34^FS^XZ').warnings, []);
      assert.deepEqual(renderLabel('^XA^FO40,40^BQN,2,6^FDQA,ab|c^FS^XZ').warnings, []);
    });

    it('data without its <level><input>, prefix loses its first three characters, and the preview says so', () => {
      const r = renderLabel('^XA^FO40,40^BQN,2,6^FDhello^FS^XZ');
      assert.deepEqual(r.warnings, [
        '^BQ field at 40,40: the data does not start with <level><input>, (such as "QA,"): its first three characters "hel" were read as that and not encoded',
      ]);
    });

    it('automatic mode cuts the data by run lengths, as Labelary does', () => {
      const runs = zplQrSegments('{"n":"528173","id":"7f9753ad-a865-4769-94e9"}', 0).map(
        (s) => `${s.mode[0]}:${String(s.data)}`,
      );
      assert.deepEqual(runs, [
        'b:{"n":"',
        'n:528173',
        'b:","id":"7f',
        'n:9753',
        'b:ad-a',
        'a:865-4769',
        'b:-94e9"}',
      ]);
    });
  });

  describe('^B7 compacts its data as the printer does', () => {
    it('text: a lone punctuation mark is shifted to, a run of another submode latched', () => {
      // "A_1D": A; ps _ (the next, 1, is not punctuation); ml 1 (the next, D, is not mixed);
      // al D; padded with ps: 0 29 | 7 28 | 1 28 | 3 29.
      assert.deepEqual(pdf417Codewords('A_1D'), [29, 238, 58, 119]);
      // Lower case latches (ll = 27), padded: 27 0 | 1 29.
      assert.deepEqual(pdf417Codewords('ab'), [810, 59]);
    });

    it('13 digits or more alone go numeric (902, "1" + digits in base 900)', () => {
      assert.deepEqual(pdf417Codewords('1234567890123'), [902, 17, 110, 836, 811, 223]);
    });

    it('one byte is shifted to (913) after text, latched to (901) after digits', () => {
      assert.deepEqual(pdf417Codewords('AB\x1dCD'), [1, 913, 29, 900, 63]);
      assert.deepEqual(
        pdf417Codewords('1234567890123\x1d'),
        [902, 17, 110, 836, 811, 223, 901, 29],
      );
    });

    it('bwip-js lays the codewords out in the columns asked for', () => {
      // 10 data columns: start, left and right row indicators, stop (18 modules with its last
      // bar): 17 × 14 + 1 modules of 2 dots.
      const box = inkBox(dots('^XA^FO20,20^BY2^B7N,6,4,10^FDAB_1D1234567890123CD^FS^XZ'))!;
      assert.equal(box.w, (17 * 14 + 1) * 2);
    });
  });

  describe('^BC subsets, as the data asks for them', () => {
    it('without a start code, mode N starts in subset B (digits one codeword each)', () => {
      assert.equal(code128Codewords('1234'), '^104^017^018^019^020');
      // start, 8 digits, check (11 modules each) and stop (13): 123 modules of 2 dots.
      const b = inkBox(dots('^XA^FO10,10^BY2^BCN,50,N^FD12345678^FS^XZ'))!;
      assert.equal(b.w, 123 * 2);
      // >; starts in subset C: two digits a codeword, 79 modules.
      const c = inkBox(dots('^XA^FO10,10^BY2^BCN,50,N^FD>;12345678^FS^XZ'))!;
      assert.equal(c.w, 79 * 2);
    });

    it('>5 >6 >7 switch to C, B and A; a lone digit in C goes on in B; >8 is FNC1', () => {
      assert.equal(code128Codewords('>;1234>6AB'), '^105^012^034^100^033^034');
      assert.equal(code128Codewords('>:AB>512>7a'), undefined, 'no a in subset A');
      assert.equal(code128Codewords('>:A>512>7B'), '^104^033^099^012^101^034');
      assert.equal(code128Codewords('>;123'), '^105^012^100^019');
      assert.equal(code128Codewords('>;>812'), '^105^102^012');
    });

    it('zbar reads the subsets’ data back', { skip: skipWithout('zbarimg') }, () => {
      const png = renderLabel(
        '^XA^FO20,20^BY2^BCN,80,N^FD>;382436>6CODE128>7ABC^FS^FO20,200^BY2^BCN,80,N^FD12345678^FS^XZ',
        { widthMm: 100, heightMm: 50 },
      ).png;
      assert.deepEqual(zbarTyped(png).sort(), ['CODE-128:12345678', 'CODE-128:382436CODE128ABC']);
    });
  });

  it('^BD MaxiCode is drawn on Labelary’s grid: 200 × 193 dots at 8 dots/mm, hexagons 2.46 units of 0.34 mm apart', () => {
    // A UPS mode 2 symbol (the ZPL manual's example data) at ^FO20,20.
    const d = dots(
      '^XA^FO20,20^BD2^FD002840100450000[)>\x1e01\x1d961Z00004951\x1dUPSN\x1d06X610\x1d159\x1d1234567\x1d1/1\x1d\x1dY\x1d634 ALPHA DR\x1dPITTSBURGH\x1dPA\x1e\x04^FS^XZ',
    );
    assert.deepEqual(inkBox(d), { x: 20, y: 20, w: 200, h: 193 });
    const at = (x: number, y: number) => d.data[(20 + y) * d.width + 20 + x];
    // The orientation hexagons of row 0, columns 28 and 29 (always dark), centred 3.9 dots down
    // at 190.7 and 197.4 dots across; the bullseye's centre (97.3, 96.8) light, its inner ring
    // (1.43-3.31 units, 3.9-9.0 dots) dark.
    assert.deepEqual([at(190, 3), at(197, 3), at(194, 3)], [1, 1, 1]);
    assert.deepEqual([at(97, 96), at(103, 96), at(97, 90)], [0, 1, 1]);
  });
});
