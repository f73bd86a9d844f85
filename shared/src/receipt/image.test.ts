import { test } from 'node:test';
import assert from 'node:assert/strict';
import jpeg from 'jpeg-js';
import {
  crossedBox,
  decodeImage,
  ImageDecodeError,
  placeBitmap,
  resizeGray,
  toBitmap,
} from './image.js';
import { pngOf } from '../testing/receipt.js';
import { PNG } from 'pngjs';

test('a PNG decodes to grayscale, transparent pixels as white paper', () => {
  const png = new PNG({ width: 2, height: 1 });
  png.data.set([0, 0, 0, 255, 0, 0, 0, 0]); // opaque black, transparent black
  const img = decodeImage(PNG.sync.write(png), 100);
  assert.deepEqual([...img.pixels], [0, 255]);
});

test('a JPEG decodes to grayscale', () => {
  const data = Buffer.alloc(16 * 16 * 4, 255);
  for (let i = 0; i < 8 * 16; i++) data.fill(0, i * 4, i * 4 + 3); // top half black
  const encoded = jpeg.encode({ data, width: 16, height: 16 }, 95).data;
  const img = decodeImage(encoded, 1000);
  assert.equal(img.width, 16);
  assert.ok(img.pixels[0]! < 40, 'top is dark');
  assert.ok(img.pixels[255]! > 215, 'bottom is light');
});

test('pictures larger than the pixel limit are refused before decoding', () => {
  const png = pngOf(20, 10, () => false);
  assert.doesNotThrow(() => decodeImage(png, 200));
  assert.throws(
    () => decodeImage(png, 199),
    (err: unknown) => err instanceof ImageDecodeError && /20x10 pixels/.test(err.message),
  );
  assert.throws(() => decodeImage(Buffer.from('GIF89a'), 100), /is not a PNG or JPEG image/);
  assert.throws(
    () => decodeImage(Buffer.concat([png.subarray(0, 40), Buffer.alloc(10)]), 1000),
    /PNG cannot be decoded/,
  );
});

test('resizing averages when shrinking and keeps uniform areas uniform', () => {
  const img = { width: 4, height: 1, pixels: Uint8Array.from([0, 0, 255, 255]) };
  assert.deepEqual([...resizeGray(img, 2, 1).pixels], [0, 255]);
  const gray = { width: 3, height: 3, pixels: new Uint8Array(9).fill(100) };
  assert.ok(resizeGray(gray, 7, 5).pixels.every((p) => p === 100));
});

test('Floyd-Steinberg turns mid gray into about half black dots; threshold into none', () => {
  const gray = { width: 64, height: 64, pixels: new Uint8Array(64 * 64).fill(128) };
  const count = (data: Uint8Array) =>
    data.reduce((n, b) => n + b.toString(2).replace(/0/g, '').length, 0);
  const dithered = count(toBitmap(gray, 'floyd-steinberg').data);
  assert.ok(dithered > 64 * 64 * 0.4 && dithered < 64 * 64 * 0.6, `${dithered} black dots`);
  assert.equal(count(toBitmap(gray, 'threshold').data), 0);
});

test('a crossed box has its four sides and both diagonals', () => {
  const box = crossedBox(8);
  assert.deepEqual([...box.data], [0xff, 0xc3, 0xa5, 0x99, 0x99, 0xa5, 0xc3, 0xff]);
});

test('placing a bitmap shifts its dots right', () => {
  const one = { width: 1, height: 1, rowBytes: 1, data: Uint8Array.from([0x80]) };
  assert.deepEqual(placeBitmap(one, 9), {
    width: 10,
    height: 1,
    rowBytes: 2,
    data: Uint8Array.from([0, 0x40]),
  });
});
