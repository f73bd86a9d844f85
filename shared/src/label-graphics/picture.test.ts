import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Bitmap, GrayImage } from '../receipt/image.js';
import { centreOnLabel, labelBitmap } from './picture.js';

const black = (b: Bitmap, x: number, y: number): boolean =>
  (b.data[y * b.rowBytes + (x >> 3)]! & (0x80 >> (x & 7))) !== 0;

function gray(width: number, height: number, value: (x: number, y: number) => number): GrayImage {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) pixels[y * width + x] = value(x, y);
  return { width, height, pixels };
}

describe('the picture of a label', () => {
  test('a picture is centred on white label stock', () => {
    const label = centreOnLabel(
      gray(2, 2, () => 0),
      6,
      4,
    );
    assert.deepEqual(Array.from(label.pixels.subarray(6, 12)), [255, 255, 0, 0, 255, 255]);
    assert.equal(label.pixels[0], 255);
  });

  test('bars with smoothed edges keep their widths: no dither beside them', () => {
    // Bars 3 dots wide every 6 dots, each edge one grey dot (as a PDF renderer smooths them).
    const bars = gray(96, 32, (x) => [0, 0, 0, 90, 255, 255][x % 6]!);
    const bitmap = labelBitmap(bars);
    for (let y = 0; y < 32; y++) {
      for (let x = 0; x < 96; x++)
        assert.equal(black(bitmap, x, y), x % 6 < 4 && x % 6 !== 3 ? true : x % 6 === 3);
    }
  });

  test('a grey area is dithered to about its share of black dots', () => {
    const bitmap = labelBitmap(gray(64, 64, () => 191));
    let dots = 0;
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) if (black(bitmap, x, y)) dots++;
    const share = dots / (64 * 64);
    assert.ok(share > 0.2 && share < 0.3, `${share} of the dots are black`);
  });

  test('a light grey that a threshold would leave white still prints where it is a tint', () => {
    const tint = labelBitmap(gray(64, 64, () => 160));
    assert.ok(tint.data.some((b) => b !== 0));
  });
});
