/**
 * ESC/POS from other tools renders too: receiptline (graphics for its QR codes, Katakana rules)
 * and @point-of-sale/receipt-printer-encoder, both root dev dependencies.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import receiptline from 'receiptline';
import { print } from '../testing/escpos.js';

describe('virtual printer: ESC/POS from other encoders', () => {
  test('receiptline output prints its text, rule, QR graphic and barcode without warnings', () => {
    const doc =
      '{align:center}\n"^^^HEADER\n{align:left}\n-\nItem | 1.00\n' +
      '{code:https://example.com; option:qrcode,6,m}\n{code:1234567890128; option:code128,2,72,hri}\n=';
    const command = receiptline.transform(doc, { cpl: 48, encoding: 'cp437', command: 'escpos' });
    const page = print(Buffer.from(command, 'binary'));
    assert.deepEqual(page.warnings, []);
    const texts = page.textRuns.map((r) => r.text.trim()).filter(Boolean);
    assert.deepEqual(texts.slice(0, 4), ['HEADER', '─'.repeat(48), 'Item', '1.00']);
    assert.deepEqual(
      page.graphics.map((g) => g.kind),
      ['raster', 'barcode'],
    );
    assert.equal(page.graphics[1]!.data, '1234567890128');
    assert.equal(page.cuts.length, 2);
  });

  test('@point-of-sale/receipt-printer-encoder output prints without warnings', () => {
    const bytes = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: 48 })
      .initialize()
      .codepage('cp437')
      .align('center')
      .bold(true)
      .line('HEADER')
      .bold(false)
      .align('left')
      .underline(true)
      .line('under')
      .underline(false)
      .table([{ width: 36 }, { width: 12, align: 'right' }], [['Item', '1.00']])
      .qrcode('https://example.com', { model: 2, size: 6, errorlevel: 'm' })
      .barcode('3130630574613', 'ean13', { height: 60 })
      .cut()
      .encode();
    const page = print(bytes);
    assert.deepEqual(page.warnings, []);
    const header = page.textRuns.find((r) => r.text === 'HEADER')!;
    assert.deepEqual([header.style.bold, header.x], [true, (576 - 72) / 2]);
    assert.deepEqual(
      page.graphics.map((g) => [g.kind, g.data]),
      [
        ['qr', 'https://example.com'],
        ['barcode', '3130630574613'],
      ],
    );
    assert.equal(page.cuts.length, 1);
  });
});
