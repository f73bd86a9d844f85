import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { PrintwireError } from '@printwire/shared/errors/index';
import { interpretEscpos, type PrintedPage } from '@printwire/shared/escpos/index';
import { IMAGE_LIMITS, imageToGray, renderImageForThermal } from './image.js';

/** A white picture with a black box, as PNG or JPEG. */
async function picture(
  width: number,
  height: number,
  box: { left: number; top: number; width: number; height: number },
  format: 'png' | 'jpeg' = 'png',
): Promise<Buffer> {
  const black = await sharp({
    create: { width: box.width, height: box.height, channels: 3, background: '#000' },
  })
    .png()
    .toBuffer();
  const base = sharp({ create: { width, height, channels: 3, background: '#fff' } }).composite([
    { input: black, left: box.left, top: box.top },
  ]);
  return format === 'png' ? base.png().toBuffer() : base.jpeg({ quality: 95 }).toBuffer();
}

function blackShare(page: PrintedPage, x0: number, y0: number, x1: number, y1: number): number {
  let black = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) black += page.pixels[y * page.width + x]!;
  }
  return black / ((x1 - x0) * (y1 - y0));
}

async function rejectsInvalid(promise: Promise<unknown>, message: RegExp) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof PrintwireError, String(e));
    assert.equal(e.code, 'INVALID_JOB');
    assert.match(e.message, message);
    return true;
  });
}

describe('images on a thermal printer', () => {
  test('a wide PNG is scaled to 576 dots and prints its black box where it is', async () => {
    // 1152 × 400 halves to 576 × 200; the box 200-600 × 100-300 becomes 100-300 × 50-150.
    const png = await picture(1152, 400, { left: 200, top: 100, width: 400, height: 200 });
    const page = interpretEscpos(await renderImageForThermal(png, { paper: '80mm' }), {
      paper: '80mm',
    });
    assert.deepEqual(page.warnings, []);
    const top = page.graphics[0]!.y;
    assert.equal(page.graphics[0]!.height, 200);
    assert.ok(blackShare(page, 104, top + 54, 296, top + 146) > 0.99);
    assert.ok(blackShare(page, 310, top, 576, top + 200) < 0.01);
    assert.ok(blackShare(page, 0, top, 96, top + 200) < 0.01);
    assert.equal(page.cuts.length, 1);
  });

  test('a JPEG prints like the PNG', async () => {
    const jpeg = await picture(576, 100, { left: 0, top: 0, width: 288, height: 100 }, 'jpeg');
    const page = interpretEscpos(await renderImageForThermal(jpeg, { paper: '80mm' }), {
      paper: '80mm',
    });
    const top = page.graphics[0]!.y;
    assert.ok(blackShare(page, 4, top + 4, 284, top + 96) > 0.98);
    assert.ok(blackShare(page, 292, top + 4, 572, top + 96) < 0.02);
  });

  test('a narrow picture keeps its size, one pixel a dot, centred on the paper', async () => {
    const png = await picture(100, 50, { left: 0, top: 0, width: 100, height: 50 });
    const page = interpretEscpos(await renderImageForThermal(png, { paper: '58mm' }), {
      paper: '58mm',
    });
    const top = page.graphics[0]!.y;
    // (384 - 100) / 2 = 142: black from 142 to 242.
    assert.ok(blackShare(page, 142, top, 242, top + 50) > 0.99);
    assert.ok(blackShare(page, 0, top, 142, top + 50) === 0);
    assert.ok(blackShare(page, 242, top, 384, top + 50) === 0);
  });

  test('mid gray is dithered to about half the dots; threshold makes it one colour', async () => {
    const gray = await sharp({
      create: { width: 200, height: 200, channels: 3, background: '#808080' },
    })
      .png()
      .toBuffer();
    const dithered = interpretEscpos(await renderImageForThermal(gray, { paper: '80mm' }), {
      paper: '80mm',
    });
    const top = dithered.graphics[0]!.y;
    const share = blackShare(dithered, 188, top, 388, top + 200);
    assert.ok(share > 0.4 && share < 0.6, `black share ${share}`);
    const flat = interpretEscpos(
      await renderImageForThermal(gray, { paper: '80mm', dithering: 'threshold' }),
      { paper: '80mm' },
    );
    const flatShare = blackShare(flat, 188, flat.graphics[0]!.y, 388, flat.graphics[0]!.y + 200);
    assert.ok(flatShare === 0 || flatShare === 1);
  });

  test('the printed length limit is enforced at its edge', async () => {
    const tall = await picture(10, 300, { left: 0, top: 0, width: 10, height: 10 });
    assert.equal((await imageToGray(tall, 576, { maxHeightDots: 300 })).height, 300);
    await rejectsInvalid(imageToGray(tall, 576, { maxHeightDots: 299 }), /at most 299/);
    assert.equal(IMAGE_LIMITS.maxHeightDots, 20_000);
  });

  test('the decoded pixel limit is enforced at its edge', async () => {
    const png = await picture(100, 100, { left: 0, top: 0, width: 1, height: 1 });
    assert.equal((await imageToGray(png, 576, { maxInputPixels: 10_000 })).width, 100);
    await rejectsInvalid(imageToGray(png, 576, { maxInputPixels: 9_999 }), /cannot be decoded/);
  });

  test('content that is not a PNG or JPEG fails with INVALID_JOB', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
    await rejectsInvalid(renderImageForThermal(gif, { paper: '80mm' }), /not a PNG or JPEG/);
    const broken = Buffer.concat([
      (await picture(10, 10, { left: 0, top: 0, width: 1, height: 1 })).subarray(0, 30),
    ]);
    await rejectsInvalid(renderImageForThermal(broken, { paper: '80mm' }), /cannot be decoded/);
  });
});
