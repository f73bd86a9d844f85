import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrintwireError } from '@printwire/shared/errors/index';
import { interpretEscpos } from '@printwire/shared/escpos/index';
import { eplLabels, isBlack, zplLabels } from '@printwire/shared/testing/label-graphics';
import { cupsQueueForTests, type CupsTestQueue } from '../../../test/cups.js';
import { parsePrinterUri } from '../config/printer-uri.js';
import { Downloader } from '../download/downloader.js';
import { CupsSpooler } from '../transports/system/cups-spooler.js';
import { systemTransportFactory } from '../transports/system/system-transport.js';
import { findBrowser, HtmlRenderer } from './html.js';
import { renderMediaJob, resolveUrlContent, type MediaPrinter } from './media-job.js';

const PDF = readFileSync(new URL('./fixtures/rectangle.pdf', import.meta.url));
const QUEUE = `printwire_media_${process.pid}`;
const THERMAL: MediaPrinter = { connection: 'tcp', language: 'escpos', paper: '80mm', cut: null };
const SYSTEM: MediaPrinter = { connection: 'system', language: 'escpos', paper: '80mm', cut: null };

describe('pdf, image and html jobs end to end', () => {
  const work = mkdtempSync(join(tmpdir(), 'pw-media-'));
  const server = createServer((req, res) => {
    if (req.url === '/menu.pdf') res.end(PDF);
    else if (req.url === '/huge.pdf') res.end(Buffer.alloc(2 * 1024 * 1024 + 1));
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  let base = '';
  let queue: CupsTestQueue | null = null;
  let cupsSkip = '';
  let html: HtmlRenderer | null = null;
  let browserSkip = '';
  const downloader = new Downloader({ cacheDir: join(work, 'cache'), production: false });

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ queue, skipReason: cupsSkip } = await cupsQueueForTests(QUEUE));
    try {
      html = new HtmlRenderer({ executablePath: findBrowser() });
    } catch (error) {
      if (process.env.CI) throw error;
      browserSkip = (error as Error).message;
    }
  });
  after(async () => {
    server.close();
    await html?.close();
    await queue?.remove();
    rmSync(work, { recursive: true, force: true });
  });

  /** Prints on the CUPS test queue and returns what its backend wrote. */
  async function printOnCups(bytes: Uint8Array): Promise<Buffer> {
    const spooler = new CupsSpooler();
    let jobId = '';
    const submit = spooler.submit.bind(spooler);
    spooler.submit = async (...args) => (jobId = await submit(...args));
    const transport = systemTransportFactory(spooler)(parsePrinterUri(`system:${QUEUE}`).target, {
      pollIntervalMs: 50,
    });
    await transport.open();
    await transport.write(bytes);
    return queue!.output(Number(jobId.split('-').pop()));
  }

  function pdfText(pdf: Buffer): string {
    const file = join(work, `${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  }

  test('a pdf job by URL reaches the CUPS queue as that PDF', async (t) => {
    if (!queue) return t.skip(cupsSkip);
    const job = await resolveUrlContent(
      { type: 'pdf', encoding: 'url', content: `${base}/menu.pdf`, options: {} },
      downloader,
    );
    const out = await printOnCups(
      await renderMediaJob(job, SYSTEM, { html: html!, production: false }),
    );
    assert.equal(Buffer.compare(out, PDF), 0);
  });

  test('an html job reaches the CUPS queue as a PDF whose text is the page text', async (t) => {
    if (!queue) return t.skip(cupsSkip);
    if (!html) return t.skip(browserSkip);
    const bytes = await renderMediaJob(
      {
        type: 'html',
        encoding: 'utf8',
        content: '<style>@page { size: A5; margin: 10mm }</style><p>Table 12: two soups</p>',
        options: {},
      },
      SYSTEM,
      { html, production: false },
    );
    const out = await printOnCups(bytes);
    assert.equal(out.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.match(pdfText(out), /Table 12: two soups/);
  });

  test('an html job on a receipt printer is a page as wide as the paper, printed as raster', async (t) => {
    if (!html) return t.skip(browserSkip);
    const bytes = await renderMediaJob(
      {
        type: 'html',
        encoding: 'utf8',
        content:
          '<body style="margin:0"><div style="width:40mm;height:20mm;background:#000"></div></body>',
        options: {},
      },
      THERMAL,
      { html, production: false },
    );
    const page = interpretEscpos(bytes, { paper: '80mm' });
    const top = page.graphics[0]!.y;
    // 80 mm wide page on 576 dots: the 40 mm box covers the left half, 20 mm ≈ 144 dots high.
    let black = 0;
    for (let y = top + 10; y < top + 130; y++)
      for (let x = 10; x < 280; x++) black += page.pixels[y * 576 + x]!;
    assert.ok(black / (120 * 270) > 0.98, 'the box is black');
    let right = 0;
    for (let y = top + 10; y < top + 130; y++)
      for (let x = 300; x < 576; x++) right += page.pixels[y * 576 + x]!;
    assert.equal(right, 0);
    const height = page.graphics.reduce((sum, g) => sum + g.height, 0);
    assert.ok(height >= 140 && height < 200, `one page about as long as the content: ${height}`);
  });

  test('an image job on a receipt printer is raster with the job copies and cut', async () => {
    const { default: sharp } = await import('sharp');
    const png = await sharp({ create: { width: 100, height: 40, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const bytes = await renderMediaJob(
      {
        type: 'image',
        encoding: 'base64',
        content: png.toString('base64'),
        options: { copies: 2, cut: 'partial' },
      },
      THERMAL,
      { html: html ?? new HtmlRenderer(), production: false },
    );
    const page = interpretEscpos(bytes, { paper: '80mm' });
    assert.equal(page.graphics.length, 2);
    assert.deepEqual(
      page.cuts.map((c) => c.mode),
      ['partial', 'partial'],
    );
  });

  test('a PDF on a ZPL printer without a label size is a 4 × 6 in label at 203 dpi', async () => {
    const bytes = await renderMediaJob(
      { type: 'pdf', encoding: 'base64', content: PDF.toString('base64'), options: { copies: 2 } },
      { ...THERMAL, language: 'zpl' },
      { html: html ?? new HtmlRenderer(), production: false },
    );
    const [label, more] = zplLabels(bytes);
    assert.equal(more, undefined);
    assert.deepEqual([label!.width, label!.height, label!.copies], [812, 1218, 2]);
  });

  test('an HTML job on a label printer is laid out on the label by the browser', async (t) => {
    if (!html) return t.skip(browserSkip);
    const page =
      '<body style="margin:0"><div style="width:50mm;height:25mm;background:#000"></div></body>';
    const bytes = await renderMediaJob(
      { type: 'html', encoding: 'utf8', content: page, options: {} },
      { ...THERMAL, language: 'epl', label: { size: '50x25mm', dpi: 203 } },
      { html, production: false },
    );
    const labels = eplLabels(bytes);
    assert.equal(labels.length, 1, 'one page of the label size, one label');
    const [label] = labels;
    assert.deepEqual([label!.width, label!.height], [400, 200]);
    // The box fills the page: black from corner to corner.
    assert.ok(isBlack(label!.bitmap, 3, 3) && isBlack(label!.bitmap, 396, 196));
  });

  test('a URL over 2 MB fails the job with DOWNLOAD_TOO_LARGE', async () => {
    await assert.rejects(
      resolveUrlContent(
        { type: 'pdf', encoding: 'url', content: `${base}/huge.pdf`, options: {} },
        downloader,
      ),
      (e: unknown) =>
        e instanceof PrintwireError && e.code === 'DOWNLOAD_TOO_LARGE' && !e.retryable,
    );
  });
});
