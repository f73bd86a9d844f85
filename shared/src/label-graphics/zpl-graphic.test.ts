import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Bitmap } from '../receipt/image.js';
import {
  decodeZplGraphicField,
  z64Crc,
  zplGraphicData,
  zplGraphicField,
  ZplGraphicError,
} from './zpl-graphic.js';

function bitmapOf(rows: string[]): Bitmap {
  const width = rows[0]!.length;
  const rowBytes = (width + 7) >> 3;
  const data = new Uint8Array(rowBytes * rows.length);
  rows.forEach((row, y) => {
    for (let x = 0; x < width; x++) {
      if (row[x] === '#') data[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  });
  return { width: rowBytes * 8, height: rows.length, rowBytes, data };
}

/** A picture with runs, repeated rows, white and black tails: what a label's page looks like. */
function samplePicture(seed: number): Bitmap {
  const width = 203;
  const height = 150;
  const rowBytes = (width + 7) >> 3;
  const data = new Uint8Array(rowBytes * height);
  let s = seed;
  const random = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let y = 0; y < height; y++) {
    if (y > 0 && random() < 0.3) {
      data.copyWithin(y * rowBytes, (y - 1) * rowBytes, y * rowBytes);
      continue;
    }
    const kind = random();
    for (let i = 0; i < rowBytes; i++) {
      const r = random();
      data[y * rowBytes + i] =
        kind < 0.2 ? 0 : kind < 0.3 ? 0xff : r < 0.5 ? 0 : r < 0.7 ? 0xff : (r * 256) | 0;
    }
  }
  return { width: rowBytes * 8, height, rowBytes, data };
}

describe('^GF graphic fields', () => {
  test('the field names its byte count, bytes per row and data', () => {
    const field = zplGraphicField(bitmapOf(['########', '#......#']), 'hex');
    assert.equal(field, '^GFA,2,2,1,FF\n81');
  });

  test('ASCII compression writes runs as counts: 45 zeros are hK0, a white tail a comma', () => {
    const row = new Uint8Array(40); // 80 hex digits
    row.fill(0xab, 0, 1);
    row.fill(0x00, 1, 24); // 46 zeros, then 32 more F digits follow
    row.fill(0xff, 24, 40);
    const bitmap: Bitmap = { width: 320, height: 1, rowBytes: 40, data: row };
    // AB, 46 zeros = h (40) + L (6) + 0, then 32 F digits as the black tail '!'.
    assert.equal(zplGraphicData(bitmap, 'acs'), 'ABhL0!');
  });

  test('ASCII compression writes a white row as a comma and a repeated row as a colon', () => {
    const bitmap = bitmapOf(['........', '#.......', '#.......']);
    assert.equal(zplGraphicData(bitmap, 'acs'), ',8,:');
  });

  test('runs longer than 400 digits are written in pieces of 400', () => {
    // 599 fives: 400 (z), then 199 (o = 180, Y = 19), then a 7.
    const data = new Uint8Array(300).fill(0x55);
    data[299] = 0x57;
    assert.equal(zplGraphicData({ width: 2400, height: 1, rowBytes: 300, data }, 'acs'), 'z5oY57');
  });

  test('Z64 is zlib in base64 with the CRC-16/XMODEM of the text', () => {
    assert.equal(z64Crc('123456789'), '31C3');
    const data = zplGraphicData(bitmapOf(['########', '#......#']), 'z64');
    assert.match(data, /^:Z64:[A-Za-z0-9+/=]+:[0-9A-F]{4}$/);
  });

  for (const compression of ['hex', 'acs', 'z64'] as const) {
    test(`a picture comes back dot for dot from ${compression}`, () => {
      for (const seed of [1, 2, 3]) {
        const picture = samplePicture(seed);
        const back = decodeZplGraphicField(zplGraphicField(picture, compression) + '^FS');
        assert.deepEqual(back, picture);
      }
    });
  }

  test('ASCII compression is much smaller than hex on a label with margins', () => {
    const picture = samplePicture(7);
    const label: Bitmap = {
      width: 812,
      height: 1218,
      rowBytes: 102,
      data: new Uint8Array(102 * 1218),
    };
    for (let y = 0; y < picture.height; y++) {
      label.data.set(
        picture.data.subarray(y * picture.rowBytes, (y + 1) * picture.rowBytes),
        (y + 500) * 102 + 30,
      );
    }
    const acs = zplGraphicField(label, 'acs').length;
    const hex = zplGraphicField(label, 'hex').length;
    assert.ok(acs * 5 < hex, `acs ${acs} characters, hex ${hex}`);
  });

  test('a wrong CRC or a stray character is refused with the reason', () => {
    const good = zplGraphicField(bitmapOf(['########']), 'z64');
    const bad = good.replace(/:[0-9A-F]{4}$/, ':0000');
    assert.throws(() => decodeZplGraphicField(bad), ZplGraphicError);
    assert.throws(() => decodeZplGraphicField('^GFA,1,1,1,Q?^FS'), /'\?' in \^GF data/);
  });
});
