import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bwipjs from 'bwip-js';
import { countLabels, renderLabel } from '../index.js';
import { skipWithout } from '../testing/escpos.js';
import { NATIONAL_POSITIONS, NATIONAL_SETS } from './national.js';
import { inkBox, ocr, readPng, zbarTyped, type Dots } from './testing.js';

const dots = (content: string | Uint8Array, options = {}) =>
  readPng(renderLabel(content, options).png);

/** The ink of a label cropped to its bounding box, as rows of 0/1 (to compare two drawings). */
function ink(d: Dots): string[] {
  const box = inkBox(d);
  if (!box) return [];
  const rows: string[] = [];
  for (let y = box.y; y < box.y + box.h; y++) {
    let row = '';
    for (let x = box.x; x < box.x + box.w; x++) row += d.data[y * d.width + x];
    rows.push(row);
  }
  return rows;
}

describe('^CI 1-12: national character sets', () => {
  const ascii = NATIONAL_POSITIONS.map((b) => String.fromCharCode(b));
  const field = (ci: string, font: string, text: string) =>
    `^XA^PW200^LL80^CI${ci}^FO10,10^${font}^FH^FD${text}^FS^XZ`;
  const hex = (c: string) => `_${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  const utf8 = (c: string) => [...Buffer.from(c, 'utf8')].map((b) => `_${b.toString(16)}`).join('');

  it('draws each set’s twelve national characters, in font 0, where ASCII had # $ @ [ \\ ] ^ ` { | } ~', () => {
    for (const [ci, set] of Object.entries(NATIONAL_SETS)) {
      [...set.chars].forEach((national, i) => {
        // The ASCII byte under ^CIn (through ^FH, so that ^ and ~ are data) against the national
        // character itself, drawn as Unicode under ^CI28.
        const swapped = dots(field(ci, 'A0N,40,40', hex(ascii[i]!)));
        const expected = dots(field('28', 'A0N,40,40', utf8(national)));
        assert.deepEqual(
          ink(swapped),
          ink(expected),
          `^CI${ci} (${set.name}) ${ascii[i]} → ${national}`,
        );
      });
    }
  });

  it('the same in the bitmap fonts, the U.K. overline and the Dutch ĳ included', () => {
    assert.deepEqual(
      ink(dots(field('6', 'ADN,36,20', '_5B_7E'))),
      ink(dots(field('28', 'ADN,36,20', 'Äß'))),
    );
    assert.deepEqual(
      ink(dots(field('2', 'AEN,28,15', '_7E'))),
      ink(dots(field('28', 'AEN,28,15', '‾'))),
    );
    assert.deepEqual(
      ink(dots(field('3', 'AEN,28,15', '_5B'))),
      ink(dots(field('28', 'AEN,28,15', 'ĳ'))),
    );
    // Drawn, not the missing-glyph box.
    assert.notDeepEqual(
      ink(dots(field('3', 'AEN,28,15', '_5B'))),
      ink(dots(field('28', 'AEN,28,15', '\u2603'))),
    );
  });

  it('applies to content given as a string and as bytes alike, and not to ^CI0, ^CI13 or ^CI28', () => {
    const zpl = '^XA^PW300^LL80^CI2^FO10,10^A0N,40,40^FD#12^FS^XZ';
    const pound = ink(dots('^XA^PW300^LL80^FO10,10^A0N,40,40^FD£12^FS^XZ'));
    assert.deepEqual(ink(dots(zpl)), pound);
    assert.deepEqual(ink(dots(Buffer.from(zpl, 'latin1'))), pound);
    const hash = ink(dots('^XA^PW300^LL80^FO10,10^A0N,40,40^FD#12^FS^XZ'));
    for (const ci of ['0', '13', '28'])
      assert.deepEqual(ink(dots(zpl.replace('^CI2', `^CI${ci}`))), hash);
  });

  it(
    'barcode data keeps its bytes (the swap is the font’s)',
    { skip: skipWithout('zbarimg') },
    () => {
      const r = renderLabel('^XA^CI6^FO50,50^BY2^BCN,80,N^FD[AB]^FS^XZ');
      assert.deepEqual(r.warnings, []);
      assert.deepEqual(zbarTyped(r.png), ['CODE-128:[AB]']);
    },
  );

  it(
    'reads back: £ under U.K., € for $ through the remapping pair ^CI0,21,36',
    { skip: skipWithout('tesseract') },
    () => {
      const uk = renderLabel('^XA^PW500^LL120^CI2^FO20,20^A0N,60,60^FDPrice #12^FS^XZ');
      assert.match(ocr(uk.png), /Price £12/);
      const euro = renderLabel('^XA^PW500^LL120^CI0,21,36^FO20,20^A0N,60,60^FDPrice $12^FS^XZ');
      assert.match(ocr(euro.png), /Price €12/);
    },
  );

  it('remapping pairs: s (the glyph) printed for d (the byte), in the chosen set; the space is never remapped', () => {
    // ^CI6,91,65: A (65) prints what [ (91) prints in the German set, Ä.
    assert.deepEqual(
      ink(dots(field('6,91,65', 'A0N,40,40', 'A'))),
      ink(dots(field('28', 'A0N,40,40', 'Ä'))),
    );
    assert.deepEqual(
      ink(dots(field('0,65,32', 'A0N,40,40', 'A A'))),
      ink(dots(field('0', 'A0N,40,40', 'A A'))),
    );
  });

  it('U.S.A. 2 and Miscellaneous are drawn as U.S.A. 1, with a warning saying so', () => {
    for (const ci of ['1', '11']) {
      const r = renderLabel(field(ci, 'A0N,40,40', '#'));
      assert.equal(r.warnings.length, 1);
      assert.match(r.warnings[0]!, new RegExp(`^\\^CI${ci}: .* drawn as U.S.A. 1`));
      assert.deepEqual(r.skipped, []);
    }
  });
});

/** A MicroPDF417 read back from the drawing: its modules sampled at their centres. */
function sampleModules(
  d: Dots,
  x: number,
  y: number,
  cols: number,
  rows: number,
  mw: number,
  rh: number,
) {
  const out: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      out.push(d.data[(y + r * rh + (rh >> 1)) * d.width + x + c * mw + (mw >> 1)]!);
    }
  }
  return out;
}

describe('^CW font names, ^CV and ^DN', () => {
  const label = (fields: string) => `^XA^PW300^LL120${fields}^XZ`;
  const arial =
    '^CWW,E:ARIAL.TTF: the preview does not have font E:ARIAL.TTF; the fields in font W are drawn in font 0';

  it('a letter given a font the preview does not have is drawn in font 0, with a warning naming the font', () => {
    const font0 = ink(dots(label('^FO10,10^A0N,40,40^FDHello^FS')));
    const r = renderLabel(label('^CWW,E:ARIAL.TTF^FO10,10^AWN,40,40^FDHello^FS'));
    assert.deepEqual(ink(readPng(r.png)), font0);
    assert.deepEqual([r.skipped, r.warnings], [[], [arial]]);
    // ^CF takes the assigned letter too; the warning is said once per font.
    const cf = renderLabel(
      label('^CWW,E:ARIAL.TTF^CFW,40,40^FO10,10^FDHello^FS^FO10,60^AW,40,40^FDagain^FS'),
    );
    assert.deepEqual(cf.warnings, [arial]);
  });

  it('a built-in letter given a font file is that font, not the bitmap font, until power-off', () => {
    const bitmapA = ink(dots(label('^FO10,10^AAN,40,40^FDHello^FS')));
    const font0 = ink(dots(label('^FO10,10^A0N,40,40^FDHello^FS')));
    assert.notDeepEqual(bitmapA, font0);
    // The assignment made in one format holds in the next (a format of settings only).
    const r = renderLabel(`^XA^CWA,E:TT0003M_.FNT^XZ${label('^FO10,10^AAN,40,40^FDHello^FS')}`);
    assert.deepEqual(ink(readPng(r.png)), font0);
    assert.deepEqual(r.warnings, [
      '^CWA,E:TT0003M_.FNT: the preview does not have font E:TT0003M_.FNT; the fields in font A are drawn in font 0',
    ]);
    // An assignment never used warns of nothing.
    assert.deepEqual(renderLabel(label('^CWW,E:ARIAL.TTF^FO10,10^A0N,40^FDHi^FS')).warnings, []);
  });

  it('a ^CW without its font name is not applied, and says so', () => {
    const r = renderLabel(label('^CWW^FO10,10^AWN,40,40^FDHello^FS'));
    assert.deepEqual(r.warnings, [
      '^CWW: not applied (^CW takes a letter or digit and a font name, ^CWW,E:ARIAL.TTF)',
    ]);
  });

  it('^CV and ^DN draw nothing and are not listed as skipped', () => {
    const plain = label('^FO10,10^BY2^BCN,40,N^FD12345^FS');
    const r = renderLabel(label('^FO10,10^CVY^BY2^BCN,40,N^FD12345^FS^DN'));
    assert.deepEqual([r.skipped, r.warnings], [[], []]);
    assert.deepEqual(ink(readPng(r.png)), ink(dots(plain)));
  });
});

describe('^BT TLC39', () => {
  it(
    'the ECI number as Code 39 that zbar reads; the serial number and more as a 4-column MicroPDF417 beside it, module for module bwip-js’s',
    { skip: skipWithout('zbarimg') },
    () => {
      const r = renderLabel(
        '^XA^PW800^LL300^FO40,40^BTN,2,2,80,3,4^FD123456,ABC12345678901234,US^FS^XZ',
      );
      assert.deepEqual([r.skipped, r.warnings], [[], []]);
      assert.deepEqual(zbarTyped(r.png), ['CODE-39:123456']);
      const d = readPng(r.png);
      const [symbol] = bwipjs.raw({
        bcid: 'micropdf417',
        text: 'ABC12345678901234,US',
        columns: 4,
        rowmult: 1,
      } as Parameters<typeof bwipjs.raw>[0]) as unknown as [
        { pixs: number[]; pixx: number; pixy: number },
      ];
      // ISO/IEC 24728: a 4-column MicroPDF417 is 99 modules wide.
      assert.equal(symbol.pixx, 99);
      const box = inkBox(d)!;
      const microX = box.x + box.w - 99 * 3;
      assert.deepEqual(
        inkBox({ ...d, data: d.data.map((v, i) => (i % d.width >= microX ? v : 0)) }),
        {
          x: microX,
          y: 40,
          w: 99 * 3,
          h: symbol.pixy * 4,
        },
      );
      assert.deepEqual(sampleModules(d, microX, 40, 99, symbol.pixy, 3, 4), symbol.pixs);
    },
  );

  it(
    'only the Code 39 when no comma follows the six digits; a bad ECI number is a warning, not a picture',
    { skip: skipWithout('zbarimg') },
    () => {
      const alone = renderLabel('^XA^FO40,40^BTN^FD1234567^FS^XZ');
      assert.deepEqual(zbarTyped(alone.png), ['CODE-39:123456']);
      assert.equal(inkBox(readPng(alone.png))!.h, 40); // h1's default at 203 dpi
      const bad = renderLabel('^XA^FO40,40^BTN^FD12AB56,X^FS^XZ');
      assert.match(bad.warnings.join(), /\^BT not drawn: \^BT ECI number: must be 6 digits/);
      assert.equal(inkBox(readPng(bad.png)), undefined);
    },
  );
});

describe('^BR: the 2D component and DataBar Expanded Stacked', () => {
  /** bwip-js's own PNG of the symbol (its renderer, not ours), read back. */
  async function bwipPng(bcid: string, text: string, scale: number, extra = {}) {
    return readPng(
      await bwipjs.toBuffer({
        bcid,
        text,
        scale,
        backgroundcolor: 'FFFFFF',
        ...extra,
      } as Parameters<typeof bwipjs.toBuffer>[0]),
    );
  }

  it(
    'composite types 1-10: the linear part reads back; the whole symbol is bwip-js’s own drawing dot for dot',
    { skip: skipWithout('zbarimg') },
    async () => {
      const cases: [string, string, string, string][] = [
        [
          '1,3',
          '0950110153000|(17)250101(10)ABC123',
          'databaromnicomposite',
          'DataBar:0109501101530003',
        ],
        ['3,2', '0950110153000|(10)LOT42', 'databarstackedcomposite', 'DataBar:0109501101530003'],
        ['9,2', '211234567890|(99)1234abcd', 'ean13composite', 'EAN-13:2112345678900'],
        ['8,2', '1234500006|(10)ABC', 'upcecomposite', 'EAN-13:0012345000065'],
      ];
      for (const [params, data, bcid, read] of cases) {
        const r = renderLabel(`^XA^PW800^LL600^FO40,40^BRN,${params},1,70^FD${data}^FS^XZ`);
        assert.deepEqual([r.skipped, r.warnings], [[], []], params);
        assert.ok(zbarTyped(r.png).includes(read), `${params}: ${zbarTyped(r.png).join()}`);
        const scale = Number(params.split(',')[1]);
        const linear = read.startsWith('DataBar') ? `(01)${read.slice(10)}` : read.split(':')[1]!;
        const text = bcid === 'upcecomposite' ? '01234565' : linear;
        assert.deepEqual(
          ink(readPng(r.png)),
          ink(await bwipPng(bcid, `${text}|${data.split('|')[1]}`, scale)),
          params,
        );
      }
    },
  );

  it(
    'types 11 and 12: GS1-128 with CC-A/B or CC-C, the bars e dots tall',
    { skip: skipWithout('zbarimg') },
    () => {
      const data = '(00)030123456789012340|(02)13012345678909(37)24(10)1234567ABCDEFG';
      const ab = renderLabel(`^XA^PW900^LL400^FO40,40^BRN,11,2,1,80^FD${data}^FS^XZ`);
      const c = renderLabel(`^XA^PW900^LL400^FO40,40^BRN,12,2,1,80^FD${data}^FS^XZ`);
      for (const r of [ab, c]) {
        assert.deepEqual([r.skipped, r.warnings], [[], []]);
        assert.deepEqual(zbarTyped(r.png), ['CODE-128:00030123456789012340']);
        // The lowest 80 rows are the same bars from top to bottom.
        const d = readPng(r.png);
        const box = inkBox(d)!;
        const row = (y: number) =>
          d.data.subarray(y * d.width + box.x, y * d.width + box.x + box.w).join('');
        const bottom = box.y + box.h - 1;
        assert.ok([...Array(80).keys()].every((k) => row(bottom - k) === row(bottom)));
        assert.notEqual(row(bottom - 80), row(bottom));
      }
      // CC-C is a PDF417 of its own: a different 2D part from CC-A/B's.
      assert.notDeepEqual(ink(readPng(ab.png)), ink(readPng(c.png)));
    },
  );

  it(
    'type 6 stacks DataBar Expanded in rows of f segments (22, one row, by default)',
    { skip: skipWithout('zbarimg') },
    () => {
      const data = '(01)98898765432106(3202)012345(15)991231';
      const stacked = renderLabel(`^XA^PW800^LL600^FO40,40^BRN,6,3,1,70,4^FD${data}^FS^XZ`);
      const row = renderLabel(`^XA^PW800^LL600^FO40,40^BRN,6,3,1,70^FD${data}^FS^XZ`);
      for (const r of [stacked, row]) {
        assert.deepEqual(zbarTyped(r.png), ['DataBar-Exp:0198898765432106320201234515991231']);
      }
      const s = inkBox(readPng(stacked.png))!;
      const one = inkBox(readPng(row.png))!;
      // Two rows of 34 modules and the separators between, narrower than the single row.
      assert.ok(s.h > 2 * 34 * 3 && s.w < one.w, JSON.stringify([s, one]));
      assert.equal(one.h, 70);
    },
  );

  it('a 2D component that is not GS1 element strings is a warning naming the rule', () => {
    const r = renderLabel('^XA^FO40,40^BRN,1,2,1,70^FD0950110153000|free text^FS^XZ');
    assert.match(
      r.warnings.join(),
      /2D component: must be GS1 element strings with their AIs in brackets/,
    );
  });
});

describe('EPL variables, counters and forms', () => {
  const form = [
    'FK"SHELF"',
    'FS"SHELF"',
    'V00,12,N,"Product"',
    'C0,4,N,+5,"Start"',
    'A40,40,0,4,2,2,N,"ITEM "V00',
    'B40,200,0,3,2,6,80,N,"S"C0',
    'FE',
    'N',
    'FR"SHELF"',
    '?',
    'BOLTS M6',
    '0095',
  ].join('\n');

  it(
    'a P3 batch: three labels, the counter advancing by its step on each, the variable on all',
    { skip: skipWithout('zbarimg') },
    () => {
      const epl = `${form}\nP3\n`;
      assert.equal(countLabels(epl, 'epl'), 3);
      const read = [0, 1, 2].map((index) => {
        const r = renderLabel(epl, { index, widthMm: 80, heightMm: 50 });
        assert.deepEqual([r.skipped, r.warnings], [[], []]);
        return zbarTyped(r.png);
      });
      assert.deepEqual(read, [['CODE-39:S0095'], ['CODE-39:S0100'], ['CODE-39:S0105']]);
    },
  );

  it('the variable’s text reads back', { skip: skipWithout('tesseract') }, () => {
    assert.match(
      ocr(renderLabel(`${form}\nP1\n`, { widthMm: 80, heightMm: 50 }).png),
      /ITEM BOLTS M6/,
    );
  });

  it(
    'copies of a set are the same label; counting down; variables and counters without a form',
    { skip: skipWithout('zbarimg') },
    () => {
      const epl = [
        'N',
        'C1,3,N,-1,"Left"',
        'V05,5,N,"Bin"',
        'B40,40,0,3,2,6,80,N,V05"-"C1',
        '?',
        'A1',
        '010',
        'P2,2',
        '',
      ].join('\n');
      assert.equal(countLabels(epl, 'epl'), 4);
      const read = [0, 1, 2, 3].map((index) =>
        zbarTyped(renderLabel(epl, { index, widthMm: 80, heightMm: 30 }).png),
      );
      assert.deepEqual(read, [
        ['CODE-39:A1-010'],
        ['CODE-39:A1-010'],
        ['CODE-39:A1-009'],
        ['CODE-39:A1-009'],
      ]);
    },
  );

  it('justification pads to the field’s width (R, L, C); a quoted C0 is text, not the counter', () => {
    const label = (just: string, data: string) =>
      [
        'N',
        `V00,6,${just},"x"`,
        'C0,3,N,+1,"n"',
        `A10,10,0,3,1,1,N,${data}`,
        '?',
        'AB',
        '7',
        'P1',
        '',
      ].join('\n');
    const a = (data: string) => ['N', `A10,10,0,3,1,1,N,${data}`, 'P1', ''].join('\n');
    const same = (x: string, y: string) =>
      assert.deepEqual(dots(x, { language: 'epl' }).data, dots(y, { language: 'epl' }).data);
    same(label('R', '"["V00"]"'), a('"[    AB]"'));
    same(label('L', '"["V00"]"'), a('"[AB    ]"'));
    same(label('C', '"["V00"]"'), a('"[  AB  ]"'));
    same(label('N', '"C0="C0'), a('"C0=7"'));
  });
});

describe('^BX escape character and stray prefixes', () => {
  /** The Data Matrix bwip-js draws for `text` (its parse syntax), as 0/1 modules row by row. */
  const dataMatrix = (text: string) => {
    const [symbol] = bwipjs.raw({
      bcid: 'datamatrix',
      text,
      parse: true,
      parsefnc: true,
    } as Parameters<typeof bwipjs.raw>[0]) as unknown as [
      { pixs: number[]; pixx: number; pixy: number },
    ];
    return symbol;
  };
  const modulesAt = (d: Dots, cols: number, rows: number, module: number) => {
    const box = inkBox(d)!;
    return sampleModules(d, box.x, box.y, cols, rows, module, module);
  };

  it('reads a ~ as ^BX’s escape character, not a command: the ^FH and ^FD after it make the symbol and nothing is skipped', () => {
    // posteit's Data Matrix: `^BXN,6,200,18,18,1,~^FH^FD…`; ^FH turns _7E into a ~ first (the
    // manual: hexadecimal before escape sequences), so `_7EJ` is a line feed too.
    const r = renderLabel('^XA^PW400^LL400^FO40,40^BXN,5,200,,,,~^FH^FDab~~c~Jd~d065_7EJ^FS^XZ');
    assert.deepEqual([r.skipped, r.warnings], [[], []]);
    const symbol = dataMatrix('ab~c^010dA^010');
    assert.deepEqual(modulesAt(readPng(r.png), symbol.pixx, symbol.pixy, 5), symbol.pixs);
  });

  it('makes a GS1 Data Matrix of _1 (FNC1) with _ as the escape character, as UPS SurePost labels write it', () => {
    const r = renderLabel('^XA^PW400^LL400^FO40,40^BXN,4,200,,,,_^FD_142012345_19261290^FS^XZ');
    assert.deepEqual([r.skipped, r.warnings], [[], []]);
    const symbol = dataMatrix('^FNC142012345^FNC19261290');
    assert.deepEqual(modulesAt(readPng(r.png), symbol.pixx, symbol.pixy, 4), symbol.pixs);
  });

  it('draws the data as written when ^BX names no escape character', () => {
    const r = renderLabel('^XA^PW400^LL400^FO40,40^BXN,4,200^FDab~~c^FS^XZ');
    const symbol = dataMatrix('ab~~c');
    assert.deepEqual(modulesAt(readPng(r.png), symbol.pixx, symbol.pixy, 4), symbol.pixs);
  });

  it('draws the field after a ^BX whose escape character is followed by a line break', () => {
    const text = '^FO200,300^A0N,40,40^FDAFTER^FS';
    const r = renderLabel(`^XA^PW400^LL400^FO40,40^BXN,4,200,0,0,1,~\r\n^FDX^FS${text}^XZ`);
    assert.deepEqual(r.skipped, []);
    const after = readPng(r.png);
    const alone = dots(`^XA^PW400^LL400${text}^XZ`);
    assert.deepEqual(
      ink({ ...after, data: after.data.map((v, i) => (i / after.width >= 300 ? v : 0)) }),
      ink(alone),
    );
  });

  it('drops a stray ^ before a command (`^FS^^FT…`), as Labelary does, instead of losing the ^FT', () => {
    const r = renderLabel('^XA^PW400^LL200^FO10,10^FDA^FS^^FT100,120^A0N,40,40^FDMOVED^FS^XZ');
    const plain = renderLabel('^XA^PW400^LL200^FO10,10^FDA^FS^FT100,120^A0N,40,40^FDMOVED^FS^XZ');
    assert.deepEqual(r.skipped, []);
    assert.deepEqual(ink(readPng(r.png)), ink(readPng(plain.png)));
  });
});
