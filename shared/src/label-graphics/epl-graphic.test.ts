import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Bitmap } from '../receipt/image.js';
import { decodeEplGraphicWrite, eplGraphicWrite } from './epl-graphic.js';

/** A 16 × 16 dot square outline (1 = black), the example of Zebra's note on GW. */
function box(): Bitmap {
  const data = new Uint8Array(32);
  for (let y = 0; y < 16; y++) {
    const edge = y === 0 || y === 15;
    data[y * 2] = edge ? 0xff : 0x80;
    data[y * 2 + 1] = edge ? 0xff : 0x01;
  }
  return { width: 16, height: 16, rowBytes: 2, data };
}

describe('EPL GW graphics', () => {
  test('bits are inverted as EPL reads them: 0 prints, 1 stays white', () => {
    const bytes = eplGraphicWrite(box(), 100, 100);
    const head = 'GW100,100,2,16,';
    assert.equal(bytes.subarray(0, head.length).toString('latin1'), head);
    const body = bytes
      .subarray(head.length, head.length + 32)
      .toString('hex')
      .toUpperCase();
    assert.equal(body, '0000' + '7FFE'.repeat(14) + '0000');
  });

  test('dots past the width in the last byte of a row stay white', () => {
    const bitmap: Bitmap = { width: 3, height: 1, rowBytes: 1, data: Uint8Array.of(0xff) };
    assert.equal(eplGraphicWrite(bitmap)[10], 0b00011111);
  });

  test('a GW reads back as the picture it was made from', () => {
    const bytes = Buffer.concat([Buffer.from('N\n'), eplGraphicWrite(box(), 8, 16)]);
    const { x, y, bitmap, end } = decodeEplGraphicWrite(bytes, 2);
    assert.deepEqual([x, y], [8, 16]);
    assert.deepEqual(bitmap, box());
    assert.equal(bytes[end], 0x0a);
  });
});
