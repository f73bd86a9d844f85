// The encoder's bytes read back by the virtual printer (shared/src/escpos): what a printer would
// print is what the document asked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { interpretEscpos } from '../escpos/index.js';
import { encodeReceipt, encodeReceiptWithReport } from './index.js';

const doc = {
  codepage: 'CP437',
  blocks: [
    { type: 'text', value: 'Cœur', align: 'center', bold: true, size: 2 },
    { type: 'pair', left: 'Tea', right: '2.00' },
    { type: 'text', value: 'small', font: 'b', underline: true, invert: true, align: 'right' },
    { type: 'qr', value: 'https://x.io' },
    { type: 'barcode', format: 'EAN13', value: '4006381333931' },
    { type: 'barcode', format: 'CODE128', value: 'AB1234567' },
    { type: 'drawer', pin: 5 },
    { type: 'cut', mode: 'partial' },
  ],
};

test('text comes back with its line, position, style and transliteration', () => {
  const page = interpretEscpos(encodeReceipt(doc, 'generic-80mm'), { paper: '80mm' });
  assert.deepEqual(page.warnings, []);
  const [title, pair, small] = page.textRuns;
  assert.equal(title!.text, 'Coeur');
  assert.equal(title!.alignment, 'center');
  assert.equal(title!.x, (576 - title!.width) / 2);
  assert.deepEqual([title!.style.bold, title!.style.width, title!.style.height], [true, 2, 2]);
  assert.equal(pair!.text, `Tea${' '.repeat(41)}2.00`);
  assert.deepEqual([pair!.x, pair!.width, pair!.style.bold, pair!.style.width], [0, 576, false, 1]);
  assert.equal(small!.text, 'small');
  assert.equal(small!.x + small!.width, 576);
  assert.deepEqual(
    [small!.style.font, small!.style.underline, small!.style.invert],
    ['B', 1, true],
  );
});

test('QR codes and barcodes come back with their values, centered', () => {
  const page = interpretEscpos(encodeReceipt(doc, 'generic-80mm'), { paper: '80mm' });
  assert.deepEqual(
    page.graphics.map((g) => [g.symbology, g.data]),
    [
      ['QR', 'https://x.io'],
      ['EAN13', '4006381333931'],
      ['CODE128', 'AB1234567'],
    ],
  );
  for (const g of page.graphics)
    assert.ok(Math.abs(g.x + g.width / 2 - 288) <= 1, `${g.symbology} centered`);
});

test('copies, footer, drawer and cuts come back in order', () => {
  const bytes = encodeReceipt(doc, 'generic-80mm', { copies: 2, footer: true, openDrawer: true });
  const page = interpretEscpos(bytes, { paper: '80mm' });
  const footers = page.textRuns.filter((r) => r.text === 'Printed with Printwire');
  assert.equal(footers.length, 2);
  assert.deepEqual(
    page.cuts.map((c) => c.mode),
    ['partial', 'partial'],
  );
  footers.forEach((f, i) => assert.ok(f.y < page.cuts[i]!.y, 'footer before its cut'));
  assert.deepEqual(
    page.drawerPulses.map((d) => d.pin),
    [5, 5, 2],
  );
  assert.ok(page.drawerPulses[2]!.y >= page.cuts[1]!.y, 'the job drawer opens after the last cut');
});

test('every corpus receipt is read by the virtual printer without a warning', () => {
  const dir = new URL('../../../test/fixtures/receipts/', import.meta.url);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const receipt = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as {
      width: '58mm' | '80mm';
    };
    const r = encodeReceiptWithReport(receipt, `generic-${receipt.width}`);
    const page = interpretEscpos(r.bytes, { paper: r.paper });
    assert.deepEqual(page.warnings, [], file);
    assert.ok(page.cuts.length >= 1, file);
  }
});
