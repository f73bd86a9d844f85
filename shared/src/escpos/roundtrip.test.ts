/**
 * The receipt encoder's bytes read back by the virtual printer (more round trips sit beside the
 * encoder in shared/src/receipt/roundtrip.test.ts): every code page, both papers, and the standard
 * receipt's layout and symbols as a reader sees them.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeReceipt, encodeReceiptWithReport } from '../receipt/index.js';
import { interpretEscpos } from './interpreter.js';
import { renderEscposToPng } from './render.js';
import { requireTool, skipWithout } from '../testing/escpos.js';

const STANDARD = JSON.parse(
  readFileSync(
    new URL('../../../test/fixtures/bench/standard-receipt.json', import.meta.url),
    'utf8',
  ),
) as { blocks: Array<Record<string, unknown>> };

const SAMPLES: Array<[string, string]> = [
  ['CP437', 'Café ½ ╔═╗ αß'],
  ['CP850', 'Øre ÿ ı Ê'],
  ['CP858', 'Prix 12 € Ø'],
  ['CP1252', '€ „Zitat“ Œuvre'],
  ['CP866', 'Привет мир Ё'],
  ['ISO-8859-15', '€ Šœž Ÿ'],
];

describe('virtual printer: encoder round trip', () => {
  for (const [codepage, value] of SAMPLES) {
    test(`text in ${codepage} prints back the same characters`, () => {
      const doc = { codepage, blocks: [{ type: 'text', value }] };
      const report = encodeReceiptWithReport(doc, 'generic-80mm');
      assert.deepEqual(report.substitutions, [], 'nothing transliterated');
      const page = interpretEscpos(report.bytes, { paper: '80mm' });
      assert.deepEqual(page.warnings, []);
      assert.equal(page.textRuns[0]!.text, value);
      assert.equal(page.textRuns[0]!.codepage, codepage);
    });
  }

  test('58 mm: a pair fills 32 characters of font A, left and right edge to edge', () => {
    const doc = { blocks: [{ type: 'pair', left: 'Croissant', right: '1.20' }] };
    const page = interpretEscpos(encodeReceipt(doc, 'generic-58mm'), { paper: '58mm' });
    const run = page.textRuns[0]!;
    assert.deepEqual([run.x, run.width, run.text.length], [0, 384, 32]);
    assert.ok(run.text.startsWith('Croissant') && run.text.endsWith('1.20'));
  });

  test('font B text wraps at 64 characters on 80 mm', () => {
    const doc = { blocks: [{ type: 'text', font: 'b', value: 'word '.repeat(30).trim() }] };
    const page = interpretEscpos(encodeReceipt(doc, 'generic-80mm'), { paper: '80mm' });
    assert.ok(page.textRuns.length >= 3);
    for (const run of page.textRuns) {
      assert.equal(run.style.font, 'B');
      assert.ok(run.x + run.width <= 576);
      assert.ok(run.text.trimEnd().length <= 64);
    }
  });

  test('the standard receipt: centered double-size header, 23 pairs edge to edge, QR, barcode, cut', () => {
    const page = interpretEscpos(encodeReceipt(STANDARD, 'generic-80mm'), { paper: '80mm' });
    assert.deepEqual(page.warnings, []);
    const header = page.textRuns[0]!;
    assert.equal(header.text, 'LE PETIT FOURNIL');
    assert.deepEqual([header.style.width, header.style.height, header.style.bold], [2, 2, true]);
    assert.equal(header.x, (576 - header.width) / 2);
    const pairs = STANDARD.blocks.filter((b) => b.type === 'pair');
    for (const pair of pairs) {
      const line = page.textRuns.filter((r) => r.text.startsWith(String(pair.left)));
      assert.equal(line.length, 1, String(pair.left));
      const right = page.textRuns.find(
        (r) => r.line === line[0]!.line && r.text.endsWith(String(pair.right)),
      );
      assert.ok(right, `${pair.left} has ${pair.right} on its line`);
      assert.equal(right.x + right.width, 576);
    }
    assert.deepEqual(
      page.graphics.map((g) => g.symbology),
      ['QR', 'CODE128'],
    );
    assert.deepEqual(
      page.cuts.map((c) => c.mode),
      ['full'],
    );
  });
});

describe('virtual printer: the standard receipt scans', { skip: skipWithout('zbarimg') }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'printwire-roundtrip-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('zbar reads its QR code and CODE128 barcode', async () => {
    requireTool('zbarimg');
    const file = join(dir, 'standard.png');
    const bytes = encodeReceipt(STANDARD, 'generic-80mm');
    writeFileSync(file, await renderEscposToPng(bytes, { paper: '80mm' }));
    const out = execFileSync('zbarimg', ['-q', file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const qr = STANDARD.blocks.find((b) => b.type === 'qr')!.value;
    const barcode = STANDARD.blocks.find((b) => b.type === 'barcode')!.value;
    assert.deepEqual(out.trim().split('\n').sort(), [`CODE-128:${barcode}`, `QR-Code:${qr}`]);
  });
});
