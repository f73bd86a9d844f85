import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { countLabels, renderLabel, renderLabelToPng } from '../index.js';
import { skipWithout } from '../testing/escpos.js';
import { crc16 } from './zpl/graphics.js';
import { inkBox, inkIn, readPng, zbarTyped } from './testing.js';

const dots = (content: string | Uint8Array, options = {}) =>
  readPng(renderLabel(content, options).png);

describe('label size, label count and index', () => {
  it('draws a 4 x 6 in label at 8 dots/mm as the printer counts it (812 x 1218) when the content sets no size', async () => {
    const png = await renderLabelToPng('^XA^FO10,10^GB100,100,100^FS^XZ');
    const d = readPng(png);
    assert.deepEqual([d.width, d.height], [812, 1218]);
  });

  it('takes ^PW and ^LL as dots at any resolution, and width and height in mm over them', () => {
    const zpl = '^XA^PW400^LL300^FO0,0^GB10,10,10^FS^XZ';
    assert.deepEqual([dots(zpl, { dpmm: 12 }).width, dots(zpl, { dpmm: 12 }).height], [400, 300]);
    const sized = renderLabel(zpl, { widthMm: 50.8, heightMm: 25.4, dpmm: 12 });
    assert.deepEqual([sized.width, sized.height], [600, 300]);
    assert.deepEqual([renderLabel('^XA^XZ', { dpmm: 24 }).width], [2400]);
  });

  it('counts each ^XA…^XZ and each ^PQ copy as one label, and refuses an index past the last with a RangeError', () => {
    const zpl = '^XA^FO0,0^GB5,5,5^FS^XZ^XA^PQ3^FO0,0^GB5,5,5^FS^XZ';
    assert.equal(countLabels(zpl), 4);
    assert.equal(renderLabel(zpl, { index: 3 }).labelCount, 4);
    assert.throws(() => renderLabel(zpl, { index: 4 }), RangeError);
    assert.throws(() => renderLabel('', {}), RangeError);
    assert.throws(() => renderLabel(zpl, { dpmm: 7 as 8 }), /dpmm: must be 6, 8, 12 or 24/);
  });

  it('lists the commands it does not draw, once each, and draws the rest', () => {
    const r = renderLabel('^XA^FO10,10^GB50,50,50^FS^ZZ1^QQ^ZZ2^MMT^XZ');
    assert.deepEqual(r.skipped, ['^ZZ', '^QQ']);
    assert.equal(inkIn(readPng(r.png), 10, 10, 50, 50), 2500);
  });
});

describe('ZPL geometry as the manual defines it', () => {
  it('^GB: a box at its ^FO, w x h, borders t thick, hollow inside', () => {
    const d = dots('^XA^FO100,200^GB300,150,10^FS^XZ');
    assert.deepEqual(inkBox(d), { x: 100, y: 200, w: 300, h: 150 });
    assert.equal(inkIn(d, 110, 210, 280, 130), 0);
    assert.equal(inkIn(d, 100, 200, 300, 10), 3000);
  });

  it('^LH moves every field, ^LS shifts left and ^LT down', () => {
    assert.deepEqual(inkBox(dots('^XA^LH30,40^FO10,10^GB20,20,20^FS^XZ')), {
      x: 40,
      y: 50,
      w: 20,
      h: 20,
    });
    assert.deepEqual(inkBox(dots('^XA^LS5^LT7^FO10,10^GB20,20,20^FS^XZ')), {
      x: 5,
      y: 17,
      w: 20,
      h: 20,
    });
  });

  it('^FR reverses a field over what is below it, ^LR reverses them all', () => {
    const d = dots('^XA^FO0,0^GB100,100,100^FS^FO50,50^FR^GB100,100,100^FS^XZ');
    assert.equal(inkIn(d, 50, 50, 50, 50), 0);
    assert.equal(inkIn(d, 100, 100, 50, 50), 2500);
  });

  it('^GB rounded, ^GC, ^GE and ^GD stay within their boxes', () => {
    const round = dots('^XA^FO20,20^GB200,100,8,B,8^FS^XZ');
    assert.deepEqual(inkBox(round), { x: 20, y: 20, w: 200, h: 100 });
    assert.equal(inkIn(round, 20, 20, 5, 5), 0, 'the corner is rounded');
    assert.deepEqual(inkBox(dots('^XA^FO30,40^GC80,4^FS^XZ')), { x: 30, y: 40, w: 80, h: 80 });
    assert.deepEqual(inkBox(dots('^XA^FO30,40^GE120,60,3^FS^XZ')), { x: 30, y: 40, w: 120, h: 60 });
    const diag = dots('^XA^FO10,10^GD100,100,4,B,R^FS^XZ');
    assert.deepEqual(inkBox(diag), { x: 10, y: 10, w: 100, h: 100 });
    assert.equal(inkIn(diag, 106, 10, 4, 1), 4, 'R rises to the top right');
  });

  it('^MU m and i convert millimetres and inches to dots', () => {
    assert.deepEqual(inkBox(dots('^XA^MUm^FO10,5^GB20,10,10^FS^XZ')), {
      x: 80,
      y: 40,
      w: 160,
      h: 80,
    });
    assert.deepEqual(inkBox(dots('^XA^MUi^FO1,1^GB1,1,1^FS^XZ', { dpmm: 12 })), {
      x: 305,
      y: 305,
      w: 305,
      h: 305,
    });
  });

  it('^PO I turns the whole label 180 degrees', () => {
    const d = dots('^XA^PW100^LL100^POI^FO0,0^GB10,10,10^FS^XZ');
    assert.deepEqual(inkBox(d), { x: 90, y: 90, w: 10, h: 10 });
  });
});

describe('^GF and ~DG pixels are exact in every encoding', () => {
  // A 16 x 4 picture: rows AA55, FF00, 0000, 0FF0.
  const rows = ['AA55', 'FF00', '0000', '0FF0'];
  const expected = (d: ReturnType<typeof dots>, x0: number, y0: number) => {
    rows.forEach((row, y) => {
      const bits = parseInt(row, 16);
      for (let x = 0; x < 16; x++) {
        assert.equal(d.data[(y0 + y) * d.width + x0 + x], (bits >> (15 - x)) & 1, `dot ${x},${y}`);
      }
    });
  };
  const bytes = Buffer.from(rows.join(''), 'hex');

  it('plain ASCII hex', () =>
    expected(dots(`^XA^FO20,30^GFA,8,8,2,${rows.join('')}^FS^XZ`), 20, 30));
  it("compressed hex: counts (G-Y, g-z), ',' for a white rest of row, ':' for the row above again", () => {
    // AA55 / FF00 as "IF" would not fit: use repeat counts and the row shorthands.
    expected(dots('^XA^FO20,30^GFA,8,8,2,AA55\nHF00\n,\n0HF0^FS^XZ'), 20, 30);
    const repeated = dots('^XA^FO0,0^GFA,8,8,2,0HF0:::^FS^XZ');
    assert.equal(inkIn(repeated, 0, 0, 16, 4), 32);
    const bang = dots('^XA^FO0,0^GFA,4,4,2,!,^FS^XZ');
    assert.equal(inkIn(bang, 0, 0, 16, 2), 16);
    const big = dots(`^XA^FO0,0^GFA,50,50,50,gJF^FS^XZ`);
    assert.equal(inkIn(big, 0, 0, 400, 1), 24 * 4, 'g (20) + J (4) repeats of F');
  });
  it('Z64 (deflated, base64) with its CRC', () => {
    const b64 = deflateSync(bytes).toString('base64');
    const crc = crc16(b64).toString(16).toUpperCase().padStart(4, '0');
    const r = renderLabel(`^XA^FO20,30^GFA,8,8,2,:Z64:${b64}:${crc}^FS^XZ`);
    assert.deepEqual(r.warnings, []);
    expected(readPng(r.png), 20, 30);
    const bad = renderLabel(`^XA^FO20,30^GFA,8,8,2,:Z64:${b64}:0000^FS^XZ`);
    assert.match(bad.warnings[0]!, /CRC 0000 does not match/);
  });
  it('B64 with its CRC', () => {
    const b64 = bytes.toString('base64');
    expected(dots(`^XA^FO20,30^GFA,8,8,2,:B64:${b64}:${crc16(b64).toString(16)}^FS^XZ`), 20, 30);
  });
  it('binary ^GFB, whose bytes may be carets', () => {
    const raw = Buffer.concat([
      Buffer.from('^XA^FO20,30^GFB,8,8,2,'),
      bytes,
      Buffer.from('^FS^XZ'),
    ]);
    expected(dots(new Uint8Array(raw)), 20, 30);
    const caret = Buffer.concat([
      Buffer.from('^XA^FO0,0^GFB,2,2,2,'),
      Buffer.from([0x5e, 0x7e]),
      Buffer.from('^FS^XZ'),
    ]);
    assert.equal(inkIn(dots(new Uint8Array(caret)), 0, 0, 16, 1), 5 + 6);
  });
  it('~DG stores a graphic that ^XG recalls, magnified, and ^IL lays at the origin', () => {
    const d = dots(`~DGR:LOGO.GRF,8,2,${rows.join('')}^XA^FO100,100^XGR:LOGO.GRF,2,3^FS^XZ`);
    assert.deepEqual(inkBox(d), { x: 100, y: 100, w: 32, h: 12 });
    assert.equal(inkIn(d, 100, 100, 32, 12), (8 + 8 + 0 + 8) * 6);
    expected(dots(`~DGR:BG.GRF,8,2,${rows.join('')}^XA^ILR:BG.GRF^XZ`), 0, 0);
  });
});

describe('stored formats and serial numbers', () => {
  it('^DF stores a format that ^XF recalls, its ^FN fields filled from the recalling label', () => {
    const zpl =
      '^XA^DFR:BOX.ZPL^FS^FO10,10^GB40,40,40^FS^FO100,10^A0N,40,40^FN1^FDdefault^FS^XZ' +
      '^XA^XFR:BOX.ZPL^FS^FN1^FDIIII^FS^XZ';
    assert.equal(countLabels(zpl), 1, 'the format definition prints nothing');
    const d = dots(zpl);
    assert.equal(inkIn(d, 10, 10, 40, 40), 1600);
    assert.ok(inkIn(d, 100, 10, 200, 40) > 0);
  });

  it('^SN counts up on each ^PQ copy, keeping leading zeros', () => {
    const zpl = '^XA^PQ3^FO10,10^A0N,50,50^SN0008,1,Y^FS^XZ';
    const inks = [0, 1, 2].map((index) => inkIn(dots(zpl, { index }), 0, 0, 300, 80));
    assert.notEqual(inks[0], inks[1]);
    assert.notEqual(inks[1], inks[2]);
  });
});

describe('barcodes read back by zbar to their exact data', { skip: skipWithout('zbarimg') }, () => {
  const cases: [string, string, string][] = [
    ['^BC mode N with a start code', '^BY2^BCN,100,Y,N,N^FD>:ABC-12345^FS', 'CODE-128:ABC-12345'],
    ['^BC mode A', '^BY2^BCN,100,Y,N,N,A^FD1234567890^FS', 'CODE-128:1234567890'],
    [
      '^BC mode D (GS1-128)',
      '^BY2^BCN,100,Y,N,N,D^FD(01)09501101530003(10)ABC^FS',
      'CODE-128:010950110153000310ABC',
    ],
    [
      '^BC mode U (SSCC, check digit added)',
      '^BY2^BCN,100,Y,N,N,U^FD0000614141123456789^FS',
      'CODE-128:00006141411234567890',
    ],
    [
      '^BE EAN-13 (check digit computed)',
      '^BY3^BEN,100,Y,N^FD590123412345^FS',
      'EAN-13:5901234123457',
    ],
    ['^B8 EAN-8', '^BY3^B8N,100,Y,N^FD9638507^FS', 'EAN-8:96385074'],
    ['^BU UPC-A', '^BY3^BUN,100,Y,N^FD01234567890^FS', 'EAN-13:0012345678905'],
    ['^B9 UPC-E', '^BY3^B9N,100,Y,N^FD1234500006^FS', 'EAN-13:0012345000065'],
    ['^B3 Code 39', '^BY2,3^B3N,N,100,Y,N^FDPW-39 TEST^FS', 'CODE-39:PW-39 TEST'],
    ['^BA Code 93', '^BY2^BAN,100,Y,N^FDCODE93^FS', 'CODE-93:CODE93'],
    ['^B2 Interleaved 2 of 5', '^BY2,3^B2N,100,Y,N,N^FD12345678^FS', 'I2/5:12345678'],
    ['^BK Codabar', '^BY2,3^BKN,N,100,Y,N,A,B^FD123456^FS', 'Codabar:A123456B'],
    [
      '^BQ QR code',
      '^BQN,2,6^FDQA,https://printwire.dev/t/42^FS',
      'QR-Code:https://printwire.dev/t/42',
    ],
    ['^BQ QR code in manual byte mode', '^BQN,2,6^FDHM,B0005hello^FS', 'QR-Code:hello'],
    [
      '^BR GS1 DataBar omnidirectional',
      '^BRN,1,3,1,60^FD0950110153000^FS',
      'DataBar:0109501101530003',
    ],
  ];
  for (const [title, field, read] of cases) {
    it(title, () => {
      const r = renderLabel(`^XA^FO60,60${field}^XZ`);
      assert.deepEqual(r.warnings, []);
      const found = zbarTyped(r.png);
      assert.equal(found.length, 1, `one symbol found: ${found.join(' | ')}`);
      // zbar reports UPC-A and UPC-E as the EAN-13 they are part of, and GS1-128 without ]C1.
      assert.equal(found[0], read);
    });
  }

  it('a barcode turned R, I and B still reads', () => {
    for (const o of ['R', 'I', 'B']) {
      const found = zbarTyped(renderLabel(`^XA^FO100,100^BY2^BC${o},100,N^FDTURN${o}^FS^XZ`).png);
      assert.deepEqual(found, [`CODE-128:TURN${o}`]);
    }
  });

  it('refused barcode data is a warning, not an error', () => {
    const r = renderLabel('^XA^FO10,10^BEN,100^FDABC^FS^XZ');
    assert.equal(r.warnings.length, 0, 'non-digits are dropped, zeros pad as the printer pads');
    const bad = renderLabel('^XA^FO10,10^B3N,N,100^FDlower~case{^FS^XZ');
    assert.match(bad.warnings[0] ?? '', /\^B3 not drawn/);
  });
});

describe('2D symbols zbar cannot read have the size their modules give', () => {
  it('^BX Data Matrix: 10 x 10 modules for 3 digits, at the module size asked', () => {
    assert.deepEqual(inkBox(dots('^XA^FO50,50^BXN,6,200^FD123^FS^XZ')), {
      x: 50,
      y: 50,
      w: 60,
      h: 60,
    });
  });
  it('^BO Aztec: a compact square symbol (15 x 15 modules for a short text) at magnification 4', () => {
    assert.deepEqual(inkBox(dots('^XA^FO50,50^BON,4^FDhi^FS^XZ')), { x: 50, y: 50, w: 60, h: 60 });
  });
  it('^B7 PDF417 rows of the height asked, ^BF MicroPDF417 and ^BD MaxiCode 25 mm wide (Labelary’s size)', () => {
    const pdf = inkBox(dots('^XA^BY2^FO50,50^B7N,5,2,3^FDPDF417^FS^XZ'))!;
    assert.equal(pdf.h % 5, 0);
    assert.ok(inkBox(dots('^XA^BY2^FO50,50^BFN,6^FDmicro^FS^XZ'))!.w > 50);
    const maxi = inkBox(dots('^XA^FO50,50^BD4^FDMaxiCode data^FS^XZ'))!;
    assert.equal(maxi.w, 200, `MaxiCode width ${maxi.w}`);
  });
});

describe('EPL2', () => {
  it('q and Q size the label, LO draws a line where it says, X a box, LE reverses, LW clears', () => {
    const epl =
      'N\nq400\nQ300,24\nLO10,20,100,5\nX200,50,4,300,150\nLO0,100,50,50\nLW10,110,10,10\nLE0,100,10,10\nP1\n';
    const d = dots(epl);
    assert.deepEqual([d.width, d.height], [400, 300]);
    assert.equal(inkIn(d, 10, 20, 100, 5), 500);
    assert.deepEqual(inkBox({ ...d, data: d.data.map((v, i) => (i % d.width >= 150 ? v : 0)) }), {
      x: 200,
      y: 50,
      w: 100,
      h: 100,
    });
    assert.equal(inkIn(d, 0, 100, 50, 50), 2500 - 100 - 100);
  });

  it('GW draws raw bytes exactly, a 0 bit black', () => {
    const head = Buffer.from('N\nq200\nQ100,0\nGW10,20,2,2,');
    const bytes = Buffer.from([0x00, 0xff, 0x0a, 0x0d]);
    const d = dots(new Uint8Array(Buffer.concat([head, bytes, Buffer.from('\nP1\n')])));
    assert.equal(inkIn(d, 10, 20, 8, 1), 8);
    assert.equal(inkIn(d, 18, 20, 8, 1), 0);
    assert.equal(inkIn(d, 10, 21, 16, 1), 16 - 2 - 3);
  });

  it('P counts sets times copies; an unknown command is listed', () => {
    const epl = 'N\nA10,10,0,3,1,1,N,"one"\nP2,3\nN\nA10,10,0,3,1,1,N,"two"\nZZ9\nP1\n';
    assert.equal(countLabels(epl), 7);
    assert.deepEqual(renderLabel(epl, { index: 6 }).skipped, ['Z']);
  });

  it('B and b barcodes read back by zbar', { skip: skipWithout('zbarimg') }, () => {
    const epl =
      'N\nq812\nB50,50,0,1,2,6,100,B,"EPL-128"\nB50,250,0,E30,3,3,100,B,"590123412345"\nb400,400,Q,s6,"epl qr"\nP1\n';
    assert.deepEqual(zbarTyped(renderLabel(epl).png), [
      'CODE-128:EPL-128',
      'EAN-13:5901234123457',
      'QR-Code:epl qr',
    ]);
  });
});

describe('text placement and character sets', () => {
  const same = (a: string | Uint8Array, b: string | Uint8Array) =>
    assert.deepEqual(readPng(renderLabel(a).png).data, readPng(renderLabel(b).png).data);
  const bytes = (...parts: (string | number[])[]) =>
    new Uint8Array(
      Buffer.concat(
        parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
      ),
    );

  it('^FT puts the baseline at y (the ink of H ends on the row above), ^FO the top of the cell', () => {
    const ft = inkBox(dots('^XA^FT100,200^A0N,50,50^FDH^FS^XZ'))!;
    assert.equal(ft.y + ft.h, 200);
    const fo = inkBox(dots('^XA^FO100,200^A0N,50,50^FDH^FS^XZ'))!;
    assert.equal(fo.y - ft.y, 37, 'the baseline sits 0.745 of the cell height below ^FO');
    assert.ok(fo.h >= 37 && fo.h <= 39, `caps about 76 % of the height (${fo.h})`);
    assert.ok(fo.y - 200 <= 1, `caps start at the top of the cell (${fo.y})`);
  });

  it('^FW and ^A orientations turn the text about its field origin', () => {
    const n = inkBox(dots('^XA^FO100,100^A0N,40,40^FDWIDE TEXT^FS^XZ'))!;
    const r = inkBox(dots('^XA^FWR^FO100,100^A0,40,40^FDWIDE TEXT^FS^XZ'))!;
    assert.ok(n.w > n.h && r.h > r.w);
    assert.deepEqual([r.w, r.h], [n.h, n.w]);
    assert.ok(r.x >= 100 && r.y >= 100);
  });

  it('^FB wraps at spaces and centres each line in the block', () => {
    const d = dots(
      '^XA^FO0,0^FB300,3,0,C^A0N,40,40^FDAAAA BBBB CCCC DDDD EEEE FFFF GGGG HHHH^FS^XZ',
    );
    const box = inkBox(d)!;
    assert.ok(Math.abs(box.x + box.w / 2 - 150) <= 3, `centred (${box.x}, ${box.w})`);
    assert.ok(box.h > 80 && box.h <= 120, 'three lines at most');
    const breaks = inkBox(dots('^XA^FO0,0^FB400,2,0,L^A0N,40,40^FDA\\&B^FS^XZ'))!;
    assert.ok(breaks.h > 60, '\\& starts a second line');
  });

  it('bitmap fonts keep their cells: A at twice its 9-dot height fills no more than 18 rows', () => {
    const box = inkBox(dots('^XA^FO10,10^AAN,18,10^FDHELLO^FS^XZ'))!;
    assert.ok(box.h <= 18 && box.h >= 14, `height ${box.h}`);
    // Five cells 12 dots apart (10 dots and a 2-dot gap): the letters' ink stays within them.
    assert.ok(box.x >= 10 && box.x + box.w <= 10 + 5 * 12, `${box.x} + ${box.w}`);
    assert.ok(box.w > 4 * 12, `${box.w}`);
  });

  it('^CI28 decodes UTF-8, from ^FH escapes or from bytes; ^CI27 is CP1252; ^CI0 is CP850', () => {
    const plain = '^XA^FO10,10^A0N,40,40^FDé^FS^XZ';
    same('^XA^CI28^FO10,10^A0N,40,40^FH^FD_C3_A9^FS^XZ', plain);
    same(bytes('^XA^CI28^FO10,10^A0N,40,40^FD', [0xc3, 0xa9], '^FS^XZ'), plain);
    same(bytes('^XA^CI27^FO10,10^A0N,40,40^FD', [0xe9], '^FS^XZ'), plain);
    same(bytes('^XA^FO10,10^A0N,40,40^FD', [0x82], '^FS^XZ'), plain);
  });

  it('EPL I picks the code page of the bytes (I8,A Windows 1252, I8,0 DOS 437)', () => {
    const line = (cp: string, b: number) =>
      bytes(`N\nI8,${cp},001\nq200\nQ100,0\nA10,10,0,4,1,1,N,"`, [b], '"\nP1\n');
    same(line('A', 0xe9), line('0', 0x82));
    assert.ok(inkIn(dots(line('A', 0xe9)), 0, 0, 200, 100) > 0);
  });
});

describe("Zebra's other barcodes", () => {
  it('^B1 ^BI ^BJ ^BM ^BP ^BZ ^B5 ^BL ^BS and ^B0 are drawn, none skipped', () => {
    const fields = [
      '^B1N,N,60,Y,N^FD0123452',
      '^BIN,60,Y,N^FD123456',
      '^BJN,60,Y,N^FD123456',
      '^BMN,B,60,Y,N^FD123456',
      '^BPN,N,60,Y,N^FD12345',
      '^BZN,40,Y,N^FD12345678901',
      '^B5N,40,Y,N^FD12345678901',
      '^BLN,60,N^FDLOGMARS',
      '^BSN,60,Y,N^FD12345',
      '^B0N,4^FDalias',
    ];
    for (const field of fields) {
      const r = renderLabel(`^XA^BY2^FO20,20${field}^FS^XZ`);
      assert.deepEqual([r.skipped, r.warnings], [[], []], field);
      assert.ok(inkIn(readPng(r.png), 0, 0, 812, 300) > 100, field);
    }
  });

  it(
    '^BL LOGMARS is Code 39 with its mod 43 check character',
    { skip: skipWithout('zbarimg') },
    () => {
      // zbar does not check Code 39's optional check character: it reads it as data.
      assert.deepEqual(zbarTyped(renderLabel('^XA^BY2^FO20,20^BLN,60,N^FDLOGMARS^FS^XZ').png), [
        'CODE-39:LOGMARSJ',
      ]);
    },
  );
});

describe('stacked symbols: Code 49 (^B4) and CODABLOCK (^BB)', () => {
  /** The y of each row that is dark across `x0`..`x1` (the separator bars of a stacked symbol). */
  const darkRows = (png: Buffer, x0: number, x1: number) => {
    const d = readPng(png);
    const rows: number[] = [];
    for (let y = 0; y < d.height; y++) if (inkIn(d, x0, y, x1 - x0, 1) === x1 - x0) rows.push(y);
    return rows;
  };

  it('^B4 rows are h × module dots between one-module separator bars; B puts the text below', () => {
    const r = renderLabel('^XA^BY2^FO20,20^B4N,10,B^FDCODE 49 TEST^FS^XZ');
    assert.deepEqual([r.skipped, r.warnings], [[], []]);
    const box = inkBox(readPng(r.png))!;
    // Separator bars are solid across the symbol: 2 dots each, 20-dot rows between them.
    const bars = darkRows(r.png, box.x + 30, box.x + box.w - 4);
    assert.deepEqual(bars, [20, 21, 42, 43, 64, 65, 86, 87]);
    // The interpretation line (B, below) ends the field under the last bar.
    assert.ok(inkIn(readPng(r.png), box.x, 90, box.w, box.y + box.h - 90) > 50);
    const none = renderLabel('^XA^BY2^FO20,20^B4N,10,N^FDCODE 49 TEST^FS^XZ');
    assert.equal(inkBox(readPng(none.png))!.h, 68, '3 rows of 20 and 4 bars of 2');
  });

  it('^B4 writes Code 49’s shifted characters as ZPL does: >a is a lower-case letter', () => {
    const lower = renderLabel('^XA^BY2^FO20,20^B4N,10,N^FD>A>B>C^FS^XZ');
    const upper = renderLabel('^XA^BY2^FO20,20^B4N,10,N^FDABC^FS^XZ');
    assert.deepEqual([lower.skipped, lower.warnings], [[], []]);
    assert.ok(!lower.png.equals(upper.png), 'abc is not ABC');
    const odd = renderLabel('^XA^BY2^FO20,20^B4N,10,N^FDA>1^FS^XZ');
    assert.match(
      odd.warnings.join(),
      /\^B4 not drawn: code49: >1 is a shifted character not drawn/,
    );
  });

  it(
    '^BB draws CODABLOCK F: rows of h × module dots, each a Code 128 row zbar reads',
    { skip: skipWithout('zbarimg') },
    () => {
      const r = renderLabel('^XA^BY2^FO20,20^BBN,10,Y,10,,F^FDCODABLOCK 1234^FS^XZ');
      assert.deepEqual([r.skipped, r.warnings], [[], []]);
      const box = inkBox(readPng(r.png))!;
      // Two rows of 20 dots between three separator bars of 2: 46 dots.
      assert.equal(box.h, 46);
      // CODABLOCK F rows are Code 128 rows that start with a row indicator: zbar reads the
      // first row's data after it.
      const read = zbarTyped(r.png);
      assert.ok(
        read.some((t) => /^CODE-128:.CODABLOCK $/.test(t)),
        read.join(' | '),
      );
    },
  );

  it('^BB without a row height shares ^BY’s height between its rows; mode A is not drawn, and says so', () => {
    const r = renderLabel('^XA^BY2,3,100^FO20,20^BBN,,Y,10,,F^FDCODABLOCK 1234^FS^XZ');
    const h = inkBox(readPng(r.png))!.h;
    assert.ok(h <= 100 && h >= 90, `${h} dots for a height of 100`);
    const a = renderLabel('^XA^BY2^FO20,20^BBN,8,Y,8,,A^FDABC^FS^XZ');
    assert.deepEqual(a.warnings, ['^BB not drawn: CODABLOCK A (^BB mode A) is not drawn']);
    assert.equal(inkBox(readPng(a.png)), undefined);
  });
});

describe('^FB justification', () => {
  const text =
    'Keep frozen below minus eighteen degrees and use within three months of packing\\&Made in Haiti';
  const block = (j: string) =>
    readPng(renderLabel(`^XA^PW600^LL200^FO20,20^A0N,28,28^FB450,4,0,${j}^FD${text}^FS^XZ`).png);
  /** The first and last inked column of the dots between rows y and y + h. */
  const span = (d: ReturnType<typeof readPng>, y: number, h: number) => {
    let left = -1;
    let right = -1;
    for (let x = 0; x < d.width; x++) {
      if (inkIn(d, x, y, 1, h) === 0) continue;
      if (left < 0) left = x;
      right = x;
    }
    return [left, right];
  };

  it('J stretches every line but a paragraph’s last from the left edge (as L) to the right (as R)', () => {
    const [l, j, r] = [block('L'), block('J'), block('R')];
    const line = 28; // font 0 at 28 dots: one line a cell
    for (const n of [0, 1]) {
      const y = 20 + n * line;
      const [left, right] = span(j, y, line);
      assert.equal(left, span(l, y, line)[0], `line ${n} starts as L`);
      // Font 0's pen moves by fractions of a dot: the last word drawn alone may round one dot
      // off where it ends inside the whole line.
      assert.ok(Math.abs(right! - span(r, y, line)[1]!) <= 1, `line ${n} ends as R`);
    }
    // The paragraph's last line ("of packing") and the line after the break stay left-justified.
    for (const n of [2, 3]) {
      const y = 20 + n * line;
      assert.equal(inkIn(j, 0, y, 600, line), inkIn(l, 0, y, 600, line), `line ${n}`);
      assert.deepEqual(span(j, y, line), span(l, y, line), `line ${n}`);
    }
  });
});

describe('^TB and ^CC', () => {
  it('^TB wraps text in a box and keeps the lines its height holds', () => {
    const text = 'ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN';
    const box = inkBox(dots(`^XA^FO10,10^A0N,40,40^TBN,200,90^FD${text}^FS^XZ`))!;
    assert.ok(box.w <= 200, `within the width (${box.w})`);
    assert.ok(box.h > 40 && box.h <= 90, `two lines of 40 in 90 dots (${box.h})`);
  });

  it('^CC changes the command prefix for the rest of the content', () => {
    const d = dots('^XA^CC+\n+FO10,10+GB50,50,50+FS+XZ');
    assert.equal(inkIn(d, 10, 10, 50, 50), 2500);
  });

  it('a ^FB of 9999 lines with little text takes the room of its text only', () => {
    const r = renderLabel('^XA^FO10,10^FB400,9999^A0N,40,40^FDSHORT^FS^XZ');
    assert.deepEqual(r.warnings, []);
    assert.ok(inkIn(readPng(r.png), 0, 0, 400, 60) > 0);
  });
});
