/**
 * Every script on paper (CONTRACT): receipts in Arabic, Hebrew, Thai, Devanagari, Greek, Chinese,
 * Japanese and Korean are encoded, printed by the virtual printer and read back by tesseract in
 * their language (Debian tesseract-ocr-ara, -heb, -tha, -hin, -ell, -chi-sim, -jpn, -kor); the
 * ink proves alignment and bidi order; Latin lines stay text.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { encodeReceipt, encodeReceiptWithReport } from './index.js';
import { interpretEscpos } from '../escpos/interpreter.js';
import { encodePng1Bit } from '../escpos/png.js';
import type { PrintedPage } from '../escpos/types.js';
import { renderReceiptDocument } from '../template/index.js';
import { getPrinterProfile } from '../printers/index.js';
import { inkIn } from '../testing/escpos.js';

const tesseractLangs = (() => {
  try {
    return execFileSync('tesseract', ['--list-langs'], { encoding: 'utf8', stdio: 'pipe' });
  } catch {
    return '';
  }
})();

const SCRIPTS: { name: string; lang: string; lines: string[] }[] = [
  { name: 'Arabic', lang: 'ara', lines: ['مرحبا بكم في المتجر', 'شكرا لزيارتكم'] },
  { name: 'Hebrew', lang: 'heb', lines: ['שלום עולם', 'תודה רבה על הקנייה'] },
  { name: 'Thai', lang: 'tha', lines: ['สวัสดีครับ', 'ขอบคุณที่มาใช้บริการ'] },
  { name: 'Devanagari', lang: 'hin', lines: ['नमस्ते आपका स्वागत है', 'धन्यवाद फिर आइए'] },
  { name: 'Greek', lang: 'ell', lines: ['Καλημέρα σας', 'Ευχαριστούμε πολύ'] },
  { name: 'Chinese', lang: 'chi_sim', lines: ['欢迎光临本店', '谢谢惠顾欢迎再来'] },
  { name: 'Japanese', lang: 'jpn', lines: ['いらっしゃいませ', 'ありがとうございました'] },
  { name: 'Korean', lang: 'kor', lines: ['안녕하세요 환영합니다', '감사합니다 또 오세요'] },
];

function print(bytes: Uint8Array, paper: '58mm' | '80mm' = '80mm'): PrintedPage {
  return interpretEscpos(bytes, { paper });
}

/** Edit distance of two strings, by code point. */
function distance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row[j] = Math.min(
        prev[j]! + 1,
        row[j - 1]! + 1,
        prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[y.length]!;
}

/** What tesseract reads on the page, scaled 3x as a scanner would see it. */
async function ocr(page: PrintedPage, lang: string): Promise<string> {
  const png = encodePng1Bit(page.pixels, page.width, page.height);
  const scaled = await sharp(png)
    .resize({ width: page.width * 3, kernel: 'nearest' })
    .png()
    .toBuffer();
  return execFileSync('tesseract', ['stdin', 'stdout', '-l', lang, '--psm', '6'], {
    input: scaled,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Columns of the page (within rows y..y+h) that hold ink: [first, last], or undefined. */
function inkColumns(page: PrintedPage, y: number, h: number): [number, number] | undefined {
  let first = -1;
  let last = -1;
  for (let x = 0; x < page.width; x++) {
    if (inkIn(page, x, y, 1, h) > 0) {
      if (first < 0) first = x;
      last = x;
    }
  }
  return first < 0 ? undefined : [first, last];
}

/** Runs of columns with ink (within rows y..y+h), split where at least 5 blank columns are. */
function inkSegments(page: PrintedPage, y: number, h: number): [number, number][] {
  const out: [number, number][] = [];
  let blank = Infinity;
  for (let x = 0; x < page.width; x++) {
    if (inkIn(page, x, y, 1, h) > 0) {
      if (blank >= 5) out.push([x, x]);
      else out[out.length - 1]![1] = x;
      blank = 0;
    } else blank++;
  }
  return out;
}

/** The page's raster images (GS v 0) as drawn, top to bottom. */
function rasters(page: PrintedPage) {
  return page.graphics.filter((g) => g.kind === 'raster');
}

/** Whether the page's dots in a rectangle equal the other page's dots in a rectangle of the same size. */
function sameDots(
  a: PrintedPage,
  ax: number,
  ay: number,
  b: PrintedPage,
  bx: number,
  by: number,
  w: number,
  h: number,
): number {
  let differ = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (a.pixels[(ay + y) * a.width + ax + x] !== b.pixels[(by + y) * b.width + bx + x]) differ++;
    }
  }
  return differ;
}

describe('every script on paper: tesseract reads what the virtual printer prints', () => {
  for (const { name, lang, lines } of SCRIPTS) {
    test(
      `${name} (${lang})`,
      { skip: !tesseractLangs.includes(lang) && `tesseract-ocr-${lang} is not installed` },
      async () => {
        const doc = { blocks: lines.map((value) => ({ type: 'text', value })) };
        const bytes = encodeReceipt(doc, 'generic-80mm');
        const page = print(bytes);
        assert.equal(rasters(page).length, lines.length, 'one raster line per text line');
        assert.deepEqual(page.textRuns, [], 'nothing of it goes as text in CP437');
        const read = (await ocr(page, lang)).replace(/\s+/g, '');
        const expected = lines.join('').replace(/\s+/g, '');
        const errors = distance(read, expected);
        assert.ok(
          errors <= Math.ceil(expected.length * 0.1),
          `tesseract read ${JSON.stringify(read)} for ${JSON.stringify(expected)} (${errors} errors)`,
        );
      },
    );
  }
});

describe('every script on paper: layout', () => {
  test('a right-to-left text block without align is flush right; with align left, flush left', () => {
    const right = print(
      encodeReceipt({ blocks: [{ type: 'text', value: 'مرحبا بكم' }] }, 'generic-80mm'),
    );
    const [r0, r1] = inkColumns(right, 0, right.height)!;
    assert.ok(r1 >= 570 && r0 > 300, `ink at ${r0}-${r1}`);
    const left = print(
      encodeReceipt(
        { blocks: [{ type: 'text', value: 'مرحبا بكم', align: 'left' }] },
        'generic-80mm',
      ),
    );
    const [l0, l1] = inkColumns(left, 0, left.height)!;
    assert.ok(l0 <= 4 && l1 < 300, `ink at ${l0}-${l1}`);
    const ltr = print(
      encodeReceipt({ blocks: [{ type: 'text', value: 'Café 欢迎' }] }, 'generic-80mm'),
    );
    assert.ok(inkColumns(ltr, 0, ltr.height)![0] <= 4, 'a left-to-right block stays flush left');
  });

  test('bidi order: in a Hebrew line the number is at the left, the first word at the right', () => {
    const line = print(
      encodeReceipt({ blocks: [{ type: 'text', value: 'שלום ירושלים 125' }] }, 'generic-80mm'),
    );
    const digits = print(
      encodeReceipt({ blocks: [{ type: 'text', value: '125' }] }, 'generic-80mm'),
    );
    const [x0, x1] = inkColumns(line, 0, line.height)!;
    const [d0, d1] = inkColumns(digits, 0, 24)!;
    assert.equal(x1 >= 570, true);
    // The leftmost ink of the line is "125" drawn in the printer's own font, as text prints it.
    const raster = rasters(line)[0]!;
    const textTop = digits.textRuns[0]!.y;
    let best = Infinity;
    for (let dy = 0; dy <= raster.height - 24; dy++) {
      best = Math.min(
        best,
        sameDots(line, x0, raster.y + dy, digits, d0, textTop, d1 - d0 + 1, 24),
      );
    }
    assert.equal(best, 0, 'the digits lead the line, in their own left-to-right order');
    // From the right: the first word, then the second (each as wide as it prints alone), then
    // the number.
    const segments = inkSegments(line, raster.y, raster.height);
    const alone = (v: string) => {
      const page = print(encodeReceipt({ blocks: [{ type: 'text', value: v }] }, 'generic-80mm'));
      const [a0, a1] = inkColumns(page, 0, page.height)!;
      return a1 - a0 + 1;
    };
    assert.equal(segments.length, 3, JSON.stringify(segments));
    const [num, second, firstWord] = segments as [
      [number, number],
      [number, number],
      [number, number],
    ];
    assert.ok(
      Math.abs(firstWord[1] - firstWord[0] + 1 - alone('שלום')) <= 2,
      'first word rightmost',
    );
    assert.ok(
      Math.abs(second[1] - second[0] + 1 - alone('ירושלים')) <= 2,
      'second word in the middle',
    );
    assert.ok(num[0] === x0 && alone('ירושלים') > alone('שלום') + 12, 'the number leftmost');
  });

  test('an Arabic item with a Latin price: the pair keeps its sides, the price as the printer prints it', () => {
    const page = print(
      encodeReceipt(
        { blocks: [{ type: 'pair', left: 'قهوة بالحليب', right: '12.50' }] },
        'generic-80mm',
      ),
    );
    const [x0, x1] = inkColumns(page, 0, page.height)!;
    assert.ok(x0 <= 4, `the left side starts at the left (${x0})`);
    assert.ok(x1 >= 565, `the right side ends at the right (${x1})`);
    const price = print(
      encodeReceipt({ blocks: [{ type: 'pair', left: '', right: '12.50' }] }, 'generic-80mm'),
    );
    const raster = rasters(page)[0]!;
    let best = Infinity;
    for (let dy = 0; dy <= raster.height - 24; dy++) {
      best = Math.min(
        best,
        sameDots(page, 516, raster.y + dy, price, 516, price.textRuns[0]!.y, 60, 24),
      );
    }
    assert.equal(best, 0, 'the price is flush right, in font A');
  });

  test('table cells wrap within their columns; Latin-only rows stay text', () => {
    const page = print(
      encodeReceipt(
        {
          blocks: [
            {
              type: 'table',
              columns: [{ width: 0.5 }, { width: 0.5, align: 'right' }],
              rows: [
                ['咖啡 拿铁 大杯 热的 加糖 加奶', '30.00'],
                ['Tea', '2.00'],
              ],
            },
          ],
        },
        'generic-80mm',
      ),
    );
    const drawn = rasters(page);
    assert.ok(drawn.length >= 2, 'the Chinese cell wraps onto a second line');
    for (const r of drawn) {
      const cols = inkColumns(page, r.y, r.height)!;
      // the first column is 24 cells wide with one cell of space: its ink stays left of 276 dots
      assert.ok(inkIn(page, 276, r.y, 288 - 276, r.height) === 0, 'nothing crosses into the gap');
      assert.ok(cols[1] < 276 || cols[1] >= 560, `ink up to ${cols[1]}`);
    }
    assert.deepEqual(
      page.textRuns.map((t) => t.text.trim().replace(/\s+/g, ' ')),
      ['Tea 2.00'],
    );
  });

  test('size, bold, underline and invert apply to drawn text', () => {
    const ink = (block: object) => {
      const page = print(
        encodeReceipt({ blocks: [{ type: 'text', value: '欢迎光临', ...block }] }, 'generic-80mm'),
      );
      let n = 0;
      for (const p of page.pixels) n += p;
      return { page, n, cols: inkColumns(page, 0, page.height)! };
    };
    const plain = ink({});
    const big = ink({ size: 2 });
    assert.equal(plain.cols[1] - plain.cols[0] < 100, true);
    assert.ok(big.cols[1] - big.cols[0] > 1.8 * (plain.cols[1] - plain.cols[0]), 'twice as wide');
    assert.ok(big.n > 3 * plain.n, 'about four times the ink');
    assert.ok(ink({ bold: true }).n > 1.3 * plain.n, 'bold is heavier');
    const under = ink({ underline: true }).page;
    const r = rasters(under)[0]!;
    let fullRow = false;
    for (let y = r.y; y < r.y + r.height; y++) {
      if (
        inkIn(under, plain.cols[0], y, plain.cols[1] - plain.cols[0], 1) >=
        plain.cols[1] - plain.cols[0] - 2
      )
        fullRow = true;
    }
    assert.ok(fullRow, 'a line runs under the text');
    const inverted = ink({ invert: true });
    assert.ok(
      inverted.n > 0.6 * (inverted.cols[1] - inverted.cols[0]) * rasters(inverted.page)[0]!.height,
      'white on black',
    );
  });

  test('Latin lines stay text, raster lines are never wider than the paper, the same bytes twice', () => {
    const doc = {
      blocks: [
        { type: 'text', value: 'Grand Café', align: 'center' },
        { type: 'text', value: 'مرحبا بكم في المتجر، نتمنى لكم يوما سعيدا مع أطيب التمنيات' },
        { type: 'text', value: '欢迎光临'.repeat(20), size: 2 },
        { type: 'pair', left: 'Total', right: '12.50' },
      ],
    };
    for (const [profile, paper, dots] of [
      ['generic-80mm', '80mm', 576],
      ['generic-58mm', '58mm', 384],
    ] as const) {
      const a = encodeReceiptWithReport(doc, profile);
      const b = encodeReceiptWithReport(doc, profile);
      assert.deepEqual(a.bytes, b.bytes, 'deterministic');
      const page = print(a.bytes, paper);
      assert.deepEqual(page.warnings, []);
      for (const r of rasters(page))
        assert.ok(r.x + r.width <= dots, `${r.width} dots on ${paper}`);
      assert.deepEqual(
        page.textRuns.map((t) => t.text.trim().replace(/\s+/g, ' ')),
        ['Grand Caf\u00e9', 'Total 12.50'],
      );
      assert.ok(rasters(page).length > 3, 'long lines wrap');
    }
  });

  test('a template value in any script never becomes printer commands', () => {
    const template = JSON.stringify({
      blocks: [
        { type: 'text', value: '{{name}}' },
        { type: 'pair', left: '{{item}}', right: '{{price}}' },
      ],
    });
    const values = {
      name: 'مرحبا\u001b@\u001dV\u0000\u001bp\u0000\u0019\u00fa',
      item: '咖啡\u001dV\u0041\u0000\u001b\u0064\u0005',
      price: '3.00\u001b@',
    };
    const hostile = renderReceiptDocument(template, values);
    // The same text without its control characters: what must print.
    const stripped = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, v.replace(/[\u0000-\u001f]/g, '')]),
    );
    const harmless = renderReceiptDocument(template, stripped);
    const a = print(encodeReceipt(harmless, 'generic-80mm'));
    const b = print(encodeReceipt(hostile, 'generic-80mm'));
    assert.deepEqual(b.cuts, []);
    assert.deepEqual(b.drawerPulses, []);
    assert.equal(b.height, a.height, 'no extra feed');
    assert.deepEqual(b.pixels, a.pixels, 'the control characters print nothing');
    assert.ok(rasters(b).length === 2, 'both lines drawn');
    // And given straight to the encoder, not through a template.
    const direct = (value: string) =>
      print(encodeReceipt({ blocks: [{ type: 'text', value }] }, 'generic-80mm'));
    const withControls = direct(values.name);
    assert.deepEqual(withControls.cuts, []);
    assert.deepEqual(withControls.pixels, direct(stripped.name!).pixels);
  });

  test('a printer with its own Chinese font gets Chinese lines as GB18030 text in Kanji mode', () => {
    const profile = {
      ...getPrinterProfile('generic-80mm'),
      id: 'gb18030-80mm',
      nativeText: { encoding: 'GB18030' as const, scripts: ['chinese' as const] },
    };
    const doc = {
      blocks: [
        { type: 'text', value: '欢迎光临', align: 'center' },
        { type: 'pair', left: '拿铁咖啡', right: '32.00' },
        { type: 'text', value: 'مرحبا' },
      ],
    };
    const bytes = Buffer.from(encodeReceipt(doc, profile));
    const kanji = Buffer.from([
      0x1c, 0x26, 0xbb, 0xb6, 0xd3, 0xad, 0xb9, 0xe2, 0xc1, 0xd9, 0x1c, 0x2e,
    ]);
    assert.ok(bytes.includes(kanji), '欢迎光临 in GB18030 between FS & and FS .');
    const page = print(bytes);
    assert.equal(rasters(page).length, 1, 'only the Arabic line is drawn');
    const runs = page.textRuns.map((t) => t.text.replace(/\s+/g, ' ').trim());
    assert.ok(runs.includes('欢迎光临'), JSON.stringify(runs));
    assert.ok(runs.some((r) => r.startsWith('拿铁咖啡')) && runs.some((r) => r.endsWith('32.00')));
    // centred: 4 characters of two columns in 48 columns start at column 20
    const title = page.textRuns.find((t) => t.text.includes('欢'))!;
    assert.equal(title.x, 20 * 12);
    // The same document on a printer without it: every CJK line drawn.
    assert.equal(rasters(print(encodeReceipt(doc, 'generic-80mm'))).length, 3);
  });
});
