import assert from 'node:assert/strict';
import test from 'node:test';
import { renderLabel } from '../label/index.js';
import { compareLabels, readRgba, writeRgba, type RgbaImage } from './label-compare.js';

/** A white w×h picture with black squares at the given top-left corners. */
function picture(w: number, h: number, squares: [number, number, number][] = []): RgbaImage {
  const data = new Uint8Array(w * h * 4).fill(255);
  for (const [x0, y0, size] of squares) {
    for (let y = y0; y < y0 + size; y++)
      for (let x = x0; x < x0 + size; x++) data.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  }
  return { width: w, height: h, data };
}

test('the same picture differs in no pixel; a square moved differs in the pixels it left and took', () => {
  const a = picture(100, 50, [[10, 10, 10]]);
  assert.equal(compareLabels(a, a).percent, 0);
  const moved = compareLabels(picture(100, 50, [[12, 10, 10]]), a);
  assert.equal(moved.differing, 2 * 2 * 10);
  assert.equal(moved.total, 5000);
  assert.equal(moved.percent, 0.8);
  // The diff picture: red where only the reference has ink, blue where only ours has.
  const at = (x: number, y: number) => [
    ...moved.diff.data.subarray((y * 100 + x) * 4, (y * 100 + x) * 4 + 3),
  ];
  assert.deepEqual(at(10, 12), [230, 0, 0]);
  assert.deepEqual(at(20, 12), [0, 90, 255]);
  assert.deepEqual(at(15, 12), [0, 0, 0]);
  assert.deepEqual(at(50, 40), [255, 255, 255]);
});

test('a channel differing by 32 is the same pixel, by 33 a different one (the Labelize rule)', () => {
  const a = picture(2, 1);
  const b = picture(2, 1);
  b.data[0] = 255 - 32;
  b.data[4 + 1] = 255 - 33;
  assert.equal(compareLabels(a, b).differing, 1);
  const transparent = picture(2, 1);
  transparent.data[3] = 0;
  assert.equal(compareLabels(a, transparent).differing, 1);
});

test('as printed, a grey pixel counts as the dot it would print: darker than half grey is black', () => {
  const ours = picture(4, 1, [[0, 0, 1]]); // black, white, white, white
  const smooth = picture(4, 1);
  smooth.data.fill(100, 0, 3); // dark grey: prints black, as ours
  smooth.data.fill(200, 4, 7); // light grey: prints white, as ours
  smooth.data.fill(127, 8, 11); // just under half grey: prints black, ours is white
  smooth.data.fill(128, 12, 15); // half grey: prints white
  const r = compareLabels(ours, smooth);
  // The channel rule counts every grey pixel; read as printed, only the third differs.
  assert.equal(r.differing, 4);
  assert.equal(r.percentAsPrinted, 25);
  assert.equal(compareLabels(ours, ours).percentAsPrinted, 0);
});

test('pixels one picture has and the other lacks count as differing', () => {
  const r = compareLabels(picture(10, 10), picture(12, 10));
  assert.equal(r.differing, 20);
  assert.equal(r.total, 120);
  assert.equal(r.percentAsPrinted, (20 / 120) * 100);
  assert.equal(r.diff.width, 10);
});

test('a rendered label read back from its 1-bit PNG compares with its RGBA copy as equal, and a box drawn 4 dots off does not', () => {
  const zpl = (x: number) => `^XA^FO${x},20^GB100,60,4^FS^XZ`;
  const size = { dpmm: 8 as const, widthMm: 25, heightMm: 12.5 };
  const ours = readRgba(renderLabel(zpl(20), size).png);
  const again = readRgba(writeRgba(ours));
  assert.equal(compareLabels(ours, again).percent, 0);
  const off = compareLabels(readRgba(renderLabel(zpl(24), size).png), ours);
  // Between the horizontal sides (52 rows), each upright side (4 dots wide) leaves 4 columns and
  // takes 4 others; each horizontal side (4 rows) loses 4 dots at one end and gains 4 at the other.
  assert.equal(off.differing, 2 * (4 + 4) * 52 + 2 * (4 + 4) * 4);
});

test('pictures whose bytes do not match their size are refused, naming which', () => {
  assert.throws(
    () => compareLabels({ width: 2, height: 2, data: new Uint8Array(3) }, picture(2, 2)),
    /actual: must hold width × height × 4 bytes/,
  );
});
