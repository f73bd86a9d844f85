import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { interpretEscpos } from '@printwire/shared/escpos/index';
import { encodeReceiptWithReport } from '@printwire/shared/receipt/index';
import { Downloader } from './downloader.js';
import { prefetchReceiptImages, receiptImageUrls } from './receipt-images.js';

describe('receipt images by URL', () => {
  let logo: Buffer;
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url!);
    if (req.url === '/logo.png') res.end(logo);
    else if (req.url === '/big.png') res.end(Buffer.alloc(2 * 1024 * 1024 + 1));
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  let base = '';
  before(async () => {
    logo = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  test('image URLs are collected once each; inline images are not', () => {
    const doc = {
      blocks: [
        { type: 'image', src: 'https://a.example/x.png' },
        { type: 'text', text: 'hi' },
        { type: 'image', src: 'https://a.example/x.png' },
        { type: 'image', src: 'data:image/png;base64,AAAA' },
      ],
    };
    assert.deepEqual(receiptImageUrls(doc), ['https://a.example/x.png']);
    assert.deepEqual(receiptImageUrls('not a document'), []);
  });

  test('a fetched image prints; one over 2 MB is a crossed box and a failure', async () => {
    const doc = {
      blocks: [
        { type: 'image', src: `${base}/logo.png` },
        { type: 'image', src: `${base}/big.png`, width: 50 },
      ],
    };
    const images = await prefetchReceiptImages(
      doc,
      new Downloader({ cacheDir: null, production: false }),
    );
    assert.deepEqual(
      images.failures.map((f) => [f.url, f.code]),
      [[`${base}/big.png`, 'DOWNLOAD_TOO_LARGE']],
    );
    const { bytes, warnings } = encodeReceiptWithReport(doc, 'generic-80mm', {
      resolveImage: images.resolveImage,
    });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /big\.png was not fetched/);
    const page = interpretEscpos(bytes, { paper: '80mm' });
    // Heights tell the pictures apart (images are centred, so widths include the left margin).
    const rasters = page.graphics.filter((g) => g.kind === 'raster');
    assert.deepEqual(
      rasters.map((g) => g.height),
      [32, 50],
    );
    const logoTop = rasters[0]!.y;
    assert.equal(page.pixels[(logoTop + 16) * 576 + 288], 1, 'the logo is black in the middle');
  });

  test('http image URLs are refused in production', async () => {
    const before = hits.length;
    const images = await prefetchReceiptImages(
      { blocks: [{ type: 'image', src: `${base}/logo.png` }] },
      new Downloader({ cacheDir: null, production: true }),
    );
    assert.equal(images.failures[0]?.code, 'DOWNLOAD_FAILED');
    assert.equal(hits.length, before);
  });
});
