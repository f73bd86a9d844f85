/**
 * Encoding throughput: the standard receipt (../shared/bench/standard-receipt.json) encoded to
 * ESC/POS by Printwire's encoder and by @point-of-sale/receipt-printer-encoder building the same
 * content with its own API (same text, pairs as two-column tables, QR size 6 level M, CODE128
 * height 72 width 2 with text below, 3 feed lines, full cut). Target: at least 5x.
 *
 * Printwire's side includes validating the document with zod on every call, as the API does.
 * (Pairs written as padded text lines instead of its table API make no measurable difference to
 * the baseline: its per-line text encoding dominates.)
 */
import { existsSync, readFileSync } from 'node:fs';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { encodeReceipt, type ReceiptDocument } from '@printwire/shared';
import { report, throughput } from './lib.js';

const shared = new URL('../../shared/bench/standard-receipt.json', import.meta.url);
const fixture = new URL('../test/fixtures/receipts/01-bakery-80mm-cp437.json', import.meta.url);
const document = JSON.parse(
  readFileSync(existsSync(shared) ? shared : fixture, 'utf8'),
) as ReceiptDocument;

type Block = ReceiptDocument['blocks'][number];

/** The same receipt built with ReceiptPrinterEncoder's API, as its users write it. */
function encodeWithBaseline(blocks: readonly Block[]): Uint8Array {
  const e = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: 48 });
  e.initialize().codepage('cp437');
  for (const b of blocks) {
    switch (b.type) {
      case 'text':
        e.align(b.align ?? 'left');
        if (b.bold) e.bold(true);
        if ((b.size ?? 1) > 1) e.size(b.size, b.size);
        e.line(b.value);
        if ((b.size ?? 1) > 1) e.size(1, 1);
        if (b.bold) e.bold(false);
        e.align('left');
        break;
      case 'line':
        if (b.style === 'dashed') e.line('- '.repeat(24));
        else e.rule({ style: b.style === 'double' ? 'double' : 'single' });
        break;
      case 'pair':
        if (b.bold) e.bold(true);
        e.table(
          [
            { width: 36, align: 'left' },
            { width: 12, align: 'right' },
          ],
          [[b.left, b.right]],
        );
        if (b.bold) e.bold(false);
        break;
      case 'qr':
        e.align('center').qrcode(b.value, { model: 2, size: 6, errorlevel: 'm' }).align('left');
        break;
      case 'barcode':
        e.align('center')
          .barcode(b.value, 'code128', { height: 72, width: 2, text: 'below' })
          .align('left');
        break;
      case 'feed':
        e.newline(b.lines);
        break;
      case 'cut':
        e.cut(b.mode);
        break;
      default:
        throw new Error(`the standard receipt has no ${b.type} block`);
    }
  }
  return e.encode();
}

// Both must produce a receipt (and the same amount of work each time).
const ours = encodeReceipt(document, 'generic-80mm');
const theirs = encodeWithBaseline(document.blocks as Block[]);
if (ours.length < 1000 || theirs.length < 1000) throw new Error('an encoder produced too little');

const printwire = await throughput(() => encodeReceipt(document, 'generic-80mm'));
const baseline = await throughput(() => encodeWithBaseline(document.blocks as Block[]));
report({
  name: 'encode standard receipt',
  value: printwire.opsPerSecond,
  unit: 'receipts/s',
  baseline: '@point-of-sale/receipt-printer-encoder',
  baselineValue: baseline.opsPerSecond,
  higherIsBetter: true,
  target: 5,
});
