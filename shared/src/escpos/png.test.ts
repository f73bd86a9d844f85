import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { encodePng1Bit } from './png.js';
import { renderEscposPreview, renderEscposToPng } from './render.js';
import { ESC, LF, esc, print } from '../testing/escpos.js';

describe('virtual printer: PNG output', () => {
  test('the PNG is a 1-bit grayscale image with exactly the page pixels, black on white', async () => {
    const bytes = esc(ESC, 0x61, 1, 'Printwire', LF, 'x'.repeat(60), LF);
    const page = print(bytes);
    const png = await renderEscposToPng(bytes, { paper: '80mm' });
    const { data, info } = await sharp(png)
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    assert.deepEqual([info.width, info.height, info.channels], [576, page.height, 1]);
    for (let i = 0; i < page.pixels.length; i++) {
      if ((data[i] === 0) !== (page.pixels[i] === 1)) assert.fail(`pixel ${i} differs`);
    }
    assert.equal(png[24], 1, 'bit depth 1');
    assert.equal(png[25], 0, 'grayscale');
  });

  test('widths that are not a multiple of 8 pack the last byte correctly', async () => {
    const pixels = Uint8Array.from([1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1]);
    const png = encodePng1Bit(pixels, 10, 2);
    const { data } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual(
      [...data].map((v) => (v === 0 ? 1 : 0)),
      [...pixels],
    );
  });

  test('white rows, and rows black only near one edge, are written exactly', async () => {
    const width = 21;
    const rows = [[], [0], [], [], [20], [3, 17], Array.from({ length: width }, (_, x) => x), []];
    const pixels = new Uint8Array(width * rows.length);
    rows.forEach((xs, y) => xs.forEach((x) => (pixels[y * width + x] = 1)));
    const png = encodePng1Bit(pixels, width, rows.length);
    const { data, info } = await sharp(png)
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    assert.deepEqual([info.width, info.height], [width, rows.length]);
    assert.deepEqual(
      [...data].map((v) => (v === 0 ? 1 : 0)),
      [...pixels],
    );
  });

  test('the same bytes give the same PNG', async () => {
    const bytes = esc('Same bytes, same picture', LF);
    const a = await renderEscposToPng(bytes, { paper: '58mm' });
    const b = await renderEscposToPng(bytes, { paper: '58mm' });
    assert.ok(a.equals(b));
  });

  test('the preview reports size and warnings beside the PNG', async () => {
    const preview = await renderEscposPreview(esc(ESC, 0x7e, 'a', LF), { paper: '58mm' });
    assert.deepEqual([preview.width, preview.height], [384, 30]);
    assert.equal(preview.warnings.length, 1);
    assert.ok(preview.png.subarray(1, 4).equals(Buffer.from('PNG')));
  });

  test('an unknown paper width is refused', () => {
    assert.throws(
      () => print(esc('a'), { paper: '100mm' as '80mm' }),
      /paper must be 58mm or 80mm/,
    );
  });
});
