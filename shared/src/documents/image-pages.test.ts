import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import QRCode from 'qrcode';
import { imageOnLabel } from './image-pages.js';

describe('pictures on a label', () => {
  test('a small picture enlarged 7 times keeps hard edges: no grey for the dithering to scatter', async () => {
    // 29 modules of 4 px (116 px) on an 812-dot label: each module 28 dots.
    const png = await QRCode.toBuffer('SHELF-0042', { margin: 4, scale: 4 });
    const label = await imageOnLabel(png, { width: 812, height: 1218 });
    assert.deepEqual([label.width, label.height], [812, 1218]);
    const grey = label.pixels.filter((v) => v > 24 && v < 231).length;
    assert.equal(grey, 0, `${grey} grey dots`);
  });

  test('a picture shrunk to fit is smoothed: edges that fall between dots are grey', async () => {
    const png = await QRCode.toBuffer('SHELF-0042', { margin: 4, scale: 40 });
    const label = await imageOnLabel(png, { width: 406, height: 203 });
    assert.ok(label.pixels.some((v) => v > 24 && v < 231));
  });
});
