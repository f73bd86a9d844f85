import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import QRCode from 'qrcode';
import { PrintwireError } from '@printwire/shared/errors/index';
import { skipWithout } from '@printwire/shared/testing/escpos';
import {
  bitmapPng,
  eplLabels,
  isBlack,
  zbarRead,
  zplLabels,
} from '@printwire/shared/testing/label-graphics';
import { renderDocumentForLabel } from './label-documents.js';

const SHIPPING = readFileSync(new URL('./fixtures/shipping-label-4x6.pdf', import.meta.url));
/** A 4 × 2 in page (288 × 144 pt) with a black 2 × 1 in rectangle at 0.5 in from its corner. */
const RECTANGLE = readFileSync(new URL('./fixtures/rectangle.pdf', import.meta.url));
const ZPL_4X6 = { language: 'zpl', size: '4x6in', dpi: 203 } as const;

/** The bounding box of the black dots. */
function inkBox(bitmap: Parameters<typeof isBlack>[0]) {
  let left = Infinity;
  let top = Infinity;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < bitmap.height; y++) {
    for (let x = 0; x < bitmap.width; x++) {
      if (!isBlack(bitmap, x, y)) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return { left, top, right, bottom };
}

describe('documents on label printers', () => {
  test('a PDF page is one ZPL label of the label size, with ^PQ copies', async () => {
    const bytes = await renderDocumentForLabel('pdf', SHIPPING, ZPL_4X6, { copies: 3 });
    const labels = zplLabels(bytes);
    assert.equal(labels.length, 1);
    assert.deepEqual([labels[0]!.width, labels[0]!.height, labels[0]!.copies], [812, 1218, 3]);
    assert.match(Buffer.from(bytes).toString('latin1'), /^\^XA\^PW812\^LL1218\^LH0,0\^FO0,0\^GFA,/);
  });

  test(
    'the barcodes of a carrier label read back from the ^GF',
    { skip: skipWithout('zbarimg') },
    async () => {
      const [label] = zplLabels(await renderDocumentForLabel('pdf', SHIPPING, ZPL_4X6));
      assert.deepEqual(zbarRead(bitmapPng(label!.bitmap, 812)), [
        'CODE-128:1Z999AA10123456784',
        'QR-Code:https://printwire.example/t/1Z999AA10123456784',
      ]);
    },
  );

  test('a wide page is scaled to the label width and centred, never cropped', async () => {
    const [label] = zplLabels(await renderDocumentForLabel('pdf', RECTANGLE, ZPL_4X6));
    // 4 in of page on 812 dots: 203 dots an inch; 2:1 page, 406 dots tall, centred at y 406.
    const box = inkBox(label!.bitmap);
    assert.ok(Math.abs(box.left - 102) <= 1 && Math.abs(box.right - 507) <= 1, JSON.stringify(box));
    assert.ok(
      Math.abs(box.top - 406 - 102) <= 1 && Math.abs(box.bottom - 406 - 304) <= 1,
      JSON.stringify(box),
    );
  });

  test('a 300 dpi printer gets 300 dots an inch', async () => {
    const [label] = zplLabels(
      await renderDocumentForLabel('pdf', RECTANGLE, { ...ZPL_4X6, size: '2x1in', dpi: 300 }),
    );
    assert.deepEqual([label!.width, label!.height], [600, 300]);
    const box = inkBox(label!.bitmap);
    // The 4 × 2 in page halves to fit: its rectangle spans 1 × 0.5 in from (0.25, 0.25) in.
    assert.ok(Math.abs(box.left - 75) <= 1 && Math.abs(box.right - 374) <= 1, JSON.stringify(box));
  });

  test('an EPL printer gets GW graphics with P copies', async () => {
    const bytes = await renderDocumentForLabel(
      'pdf',
      RECTANGLE,
      { language: 'epl', size: '100x50mm', dpi: 203 },
      { copies: 2 },
    );
    const text = Buffer.from(bytes).toString('latin1');
    assert.match(text, /^\nN\nq799\nQ400,24\nGW0,0,100,400,/);
    const [label] = eplLabels(bytes);
    assert.deepEqual([label!.width, label!.height, label!.copies], [799, 400, 2]);
    assert.ok(isBlack(label!.bitmap, 400, 200), 'the rectangle is printed');
    assert.ok(!isBlack(label!.bitmap, 5, 5), 'the margin is white');
  });

  test(
    'a picture fills the label whole; its QR code reads back',
    { skip: skipWithout('zbarimg') },
    async () => {
      const png = await QRCode.toBuffer('PW-LABEL-42', { margin: 4, scale: 4 });
      const [label] = zplLabels(
        await renderDocumentForLabel('image', png, { ...ZPL_4X6, size: '2x2in' }),
      );
      assert.deepEqual([label!.width, label!.height], [406, 406]);
      const box = inkBox(label!.bitmap);
      // 21 modules of a 29-module picture (4 of margin each side) scaled to 406 dots: 294.
      assert.ok(Math.abs(box.right - box.left + 1 - 294) <= 3, JSON.stringify(box));
      assert.deepEqual(zbarRead(bitmapPng(label!.bitmap, 406)), ['QR-Code:PW-LABEL-42']);
    },
  );

  test('each page of a PDF is a label of its own', async () => {
    const two = readFileSync(new URL('./fixtures/two-pages.pdf', import.meta.url));
    assert.equal(zplLabels(await renderDocumentForLabel('pdf', two, ZPL_4X6)).length, 2);
  });

  test('a file that is no PDF fails the job with INVALID_JOB', async () => {
    await assert.rejects(
      renderDocumentForLabel('pdf', Buffer.from('not a pdf'), ZPL_4X6),
      (e: unknown) => e instanceof PrintwireError && e.code === 'INVALID_JOB',
    );
    await assert.rejects(
      renderDocumentForLabel('image', Buffer.from('GIF89a'), ZPL_4X6),
      /not a PNG or JPEG/,
    );
  });
});
