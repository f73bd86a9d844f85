import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { gallery } from '@printwire/shared/gallery/index';
import { renderLabel } from '@printwire/shared/label/index';
import { skipWithout } from '@printwire/shared/testing/escpos';
import {
  differingBlocks,
  pdftoppmPage,
  pngBitmap,
  zbarRead,
} from '@printwire/shared/testing/label-graphics';
import { startHarness, type Harness } from '../testing/harness.js';
import { LABEL_WARNINGS_HEADER_MAX, labelWarningsHeader } from './label-preview.js';
import type { BootstrapResult } from '../services/bootstrap.js';

const size = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
const inkAt = (png: Buffer, x: number, y: number): boolean => {
  const image = PNG.sync.read(png);
  return image.data[(y * image.width + x) * 4]! < 128;
};

/** A 4 × 6 in carrier label made by Chromium (the agent's fixture): a Code 128 and a QR code. */
const SHIPPING = readFileSync(
  new URL('../../../agent/src/render/fixtures/shipping-label-4x6.pdf', import.meta.url),
);
const TWO_PAGES = readFileSync(
  new URL('../../../agent/src/render/fixtures/two-pages.pdf', import.meta.url),
);

describe('label previews of sandbox jobs', () => {
  let h: Harness;
  let org: BootstrapResult;
  let labelPrinterId: string;
  before(async () => {
    h = await startHarness();
    org = await h.org('starter');
    const printers = (await h.call('GET', '/v1/printers', { key: org.testKey })).body.data;
    labelPrinterId = printers.find((p: { alias: string }) => p.alias === 'label').id;
  });
  after(() => h.close());

  async function job(body: Record<string, unknown>, hasPreview = true): Promise<string> {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: { printerId: labelPrinterId, ...body },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.hasPreview, hasPreview);
    return res.body.id as string;
  }
  const base64 = (bytes: Buffer) => bytes.toString('base64');
  const preview = (id: string, query = '') =>
    h.call('GET', `/v1/jobs/${id}/preview${query}`, { key: org.testKey });

  test('a ZPL job has a preview: every label of its ^PQ batch, counted in a header', async () => {
    const zpl = '^XA^FO50,50^GB200,100,100^FS^FO50,200^A0N,40,40^SN001,1,Y^FS^PQ3^XZ';
    const id = await job({ type: 'zpl', encoding: 'utf8', data: zpl });
    const first = await preview(id);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-type'), 'image/png');
    assert.equal(first.headers.get('printwire-label-count'), '3');
    assert.equal(first.headers.get('printwire-skipped-commands'), '');
    // No ^PW/^LL and no label size on the printer: 4 × 6 in at 203 dpi.
    assert.deepEqual(size(first.raw), { width: 812, height: 1218 });
    assert.ok(inkAt(first.raw, 100, 100), 'the box is drawn');
    assert.ok(first.raw.equals(renderLabel(zpl, { language: 'zpl' }).png));
    const third = await preview(id, '?label=2');
    assert.ok(third.raw.equals(renderLabel(zpl, { language: 'zpl', index: 2 }).png));
    assert.ok(!third.raw.equals(first.raw), 'the serial number advanced');
  });

  test('a label past the last is a 400 naming label; a receipt has no label 1', async () => {
    const id = await job({ type: 'zpl', encoding: 'utf8', data: '^XA^FO9,9^FDx^FS^XZ' });
    const past = await preview(id, '?label=1');
    assert.equal(past.status, 400);
    assert.equal(past.body.error.code, 'VALIDATION_FAILED');
    assert.equal(past.body.error.details[0].path, 'label');
    assert.match(past.body.error.message, /label 1 asked for, the content prints 1/);
    assert.equal((await preview(id, '?label=-1')).status, 400);
    const receipt = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: { type: 'text', data: 'hello\n' },
    });
    assert.equal((await preview(receipt.body.id, '?label=1')).status, 400);
    assert.equal((await preview(receipt.body.id, '?label=0')).status, 200);
  });

  test('the label’s own ^PW/^LL size it; the commands not drawn are named', async () => {
    const id = await job({
      type: 'zpl',
      encoding: 'utf8',
      data: '^XA^PW406^LL203^FO10,10^GB100,50,50^FS^XYZ^XZ',
    });
    const res = await preview(id);
    assert.deepEqual(size(res.raw), { width: 406, height: 203 });
    assert.match(res.headers.get('printwire-skipped-commands') ?? '', /\^XY/);
  });

  test('the label’s warnings come in Printwire-Label-Warnings, percent-encoded JSON; none, no header', async () => {
    // Manual A mode drops what it cannot hold: the warning quotes the data (a quote, é, a newline).
    const zpl = '^XA^CI28^FO40,40^BQN,2,6^FDMM,AB12|"é\ncd^FS^XZ';
    const id = await job({ type: 'zpl', encoding: 'utf8', data: zpl });
    const res = await preview(id);
    assert.equal(res.status, 200);
    const header = res.headers.get('printwire-label-warnings');
    assert.ok(header, 'the header is there');
    assert.match(header, /^[A-Za-z0-9%\-_.!~*'()]+$/, 'only characters safe in a header');
    const warnings = JSON.parse(decodeURIComponent(header)) as string[];
    assert.deepEqual(warnings, renderLabel(zpl, { language: 'zpl' }).warnings);
    assert.match(
      warnings[0]!,
      /\^BQ field at 40,40: manual alphanumeric \(A\) mode .*characters dropped/,
    );
    const clean = await job({ type: 'zpl', encoding: 'utf8', data: '^XA^FO9,9^FDx^FS^XZ' });
    assert.equal((await preview(clean)).headers.get('printwire-label-warnings'), null);
  });

  test('Printwire-Label-Warnings holds whole warnings up to its limit, the last entry counting the rest', () => {
    const many = Array.from({ length: 200 }, (_, i) => `^BQ field at ${i},0: "${'x'.repeat(40)}"`);
    const header = labelWarningsHeader(many)!;
    assert.ok(header.length <= LABEL_WARNINGS_HEADER_MAX, String(header.length));
    const listed = JSON.parse(decodeURIComponent(header)) as string[];
    const kept = listed.length - 1;
    assert.deepEqual(listed.slice(0, kept), many.slice(0, kept));
    assert.equal(listed[kept], `${200 - kept} more warnings not listed`);
    assert.equal(labelWarningsHeader([]), undefined);
    assert.deepEqual(JSON.parse(decodeURIComponent(labelWarningsHeader(['a'])!)), ['a']);
  });

  test('an EPL job is drawn too, sized by its q and Q', async () => {
    const epl = 'N\nq406\nQ203,24\nLO10,10,200,40\nP2\n';
    const id = await job({ type: 'epl', encoding: 'utf8', data: epl });
    const res = await preview(id, '?label=1');
    assert.equal(res.headers.get('printwire-label-count'), '2');
    assert.deepEqual(size(res.raw), { width: 406, height: 203 });
    assert.ok(inkAt(res.raw, 50, 20));
  });

  test('a template job whose template is ZPL is drawn on the template’s label size', async () => {
    const template = await h.store.templates.create(
      org.orgId,
      {
        name: 'Bin label',
        type: 'zpl',
        content: '^XA^FO20,20^A0N,40,40^FD{{bin}}^FS^XZ',
        paper: '2x1in',
      },
      h.clock.now(),
    );
    const id = await job({ templateId: template.id, data: { bin: 'A-12' } });
    const res = await preview(id);
    assert.equal(res.status, 200);
    // No ^PW/^LL in the template: its 2 × 1 in at 203 dpi.
    assert.deepEqual(size(res.raw), { width: 406, height: 203 });
    assert.equal(res.headers.get('printwire-label-count'), '1');
  });

  test('a gallery label template job previews', async () => {
    const shelf = gallery.find((t) => t.id === 'label-shelf')!;
    const template = await h.store.templates.create(
      org.orgId,
      { name: shelf.name, type: 'zpl', content: shelf.content, paper: shelf.paper },
      h.clock.now(),
    );
    const res = await preview(await job({ templateId: template.id, data: shelf.sampleData }));
    assert.deepEqual(size(res.raw), { width: 609, height: 254 });
  });

  test('options.copies multiply each format’s ^PQ: the count and the last label follow', async () => {
    const zpl = '^XA^FO50,50^A0N,40,40^SN001,1,Y^FS^PQ3^XZ';
    const id = await job({ type: 'zpl', encoding: 'utf8', data: zpl, options: { copies: 2 } });
    const first = await preview(id);
    assert.equal(first.headers.get('printwire-label-count'), '6');
    const last = await preview(id, '?label=5');
    assert.equal(last.status, 200);
    // The printer gets ^PQ6: the serial number runs on through the copies, 001 to 006.
    const sent = '^XA^FO50,50^A0N,40,40^SN001,1,Y^FS^PQ6^XZ';
    assert.ok(last.raw.equals(renderLabel(sent, { language: 'zpl', index: 5 }).png));
    const past = await preview(id, '?label=6');
    assert.equal(past.status, 400);
    assert.equal(past.body.error.details[0].path, 'label');
    assert.match(past.body.error.message, /label 6 asked for, the content prints 6/);
  });

  test('EPL copies multiply its P', async () => {
    const epl = 'N\nq406\nQ203,24\nLO10,10,200,40\nP2\n';
    const id = await job({ type: 'epl', encoding: 'utf8', data: epl, options: { copies: 3 } });
    assert.equal((await preview(id)).headers.get('printwire-label-count'), '6');
    assert.equal((await preview(id, '?label=5')).status, 200);
    assert.equal((await preview(id, '?label=6')).status, 400);
  });

  test(
    'a PDF for the label printer previews as the ^GF it gets: pdftoppm’s page, barcodes that read',
    { skip: skipWithout('zbarimg') || skipWithout('pdftoppm') },
    async () => {
      const id = await job({ type: 'pdf', encoding: 'base64', data: base64(SHIPPING) });
      const res = await preview(id);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.equal(res.headers.get('printwire-label-count'), '1');
      assert.equal(res.headers.get('printwire-skipped-commands'), '');
      // The label printer's default label, 4 × 6 in at 203 dpi, which the page fills.
      assert.deepEqual(size(res.raw), { width: 812, height: 1218 });
      const reference = pdftoppmPage(SHIPPING, 203);
      assert.ok(reference, 'pdftoppm drew the page');
      assert.deepEqual([reference.width, reference.height], [812, 1218]);
      const share = differingBlocks(pngBitmap(res.raw), reference);
      assert.ok(
        share < 0.005,
        `${(share * 100).toFixed(2)} % of the preview differs from pdftoppm`,
      );
      assert.deepEqual(zbarRead(res.raw), [
        'CODE-128:1Z999AA10123456784',
        'QR-Code:https://printwire.example/t/1Z999AA10123456784',
      ]);
    },
  );

  test('each page of a PDF is a label, each printed copies times; past the last is a 400', async () => {
    const id = await job({
      type: 'pdf',
      encoding: 'base64',
      data: base64(TWO_PAGES),
      options: { copies: 2 },
    });
    const first = await preview(id);
    assert.equal(first.headers.get('printwire-label-count'), '4');
    const second = await preview(id, '?label=1');
    assert.ok(second.raw.equals(first.raw), 'the first page’s second copy');
    const last = await preview(id, '?label=3');
    assert.equal(last.status, 200);
    assert.ok(!last.raw.equals(first.raw), 'the second page');
    const past = await preview(id, '?label=4');
    assert.equal(past.status, 400);
    assert.equal(past.body.error.details[0].path, 'label');
  });

  test(
    'a picture for the label printer fills the label; its QR code reads back',
    { skip: skipWithout('zbarimg') },
    async () => {
      const png = await QRCode.toBuffer('SHELF-0042', { margin: 4, scale: 4 });
      const id = await job({ type: 'image', encoding: 'base64', data: base64(png) });
      const res = await preview(id);
      assert.deepEqual(size(res.raw), { width: 812, height: 1218 });
      assert.deepEqual(zbarRead(res.raw), ['QR-Code:SHELF-0042']);
    },
  );

  test('a PDF that is no PDF has no picture: the preview says the job is invalid', async () => {
    const id = await job({ type: 'pdf', encoding: 'base64', data: base64(Buffer.from('nope')) });
    const res = await preview(id);
    assert.equal(res.body.error.code, 'INVALID_JOB');
    assert.match(res.body.error.message, /PDF cannot be read/);
  });

  test('HTML for the label printer has no preview, and the 404 says why', async () => {
    const id = await job({ type: 'html', encoding: 'utf8', data: '<p>Hello</p>' }, false);
    const res = await preview(id);
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'NOT_FOUND');
    assert.match(res.body.error.message, /browser.*send the page as a PDF/);
  });

  test('a PDF given by URL has no preview: the sandbox fetches nothing, and the 404 says so', async () => {
    const id = await job(
      { type: 'pdf', encoding: 'url', data: 'https://example.com/label.pdf' },
      false,
    );
    const res = await preview(id);
    assert.equal(res.status, 404);
    assert.match(res.body.error.message, /downloaded by the agent.*send its bytes/);
  });

  test('a PDF for a receipt printer still has no preview', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: { printer: 'receipt-80', type: 'pdf', encoding: 'base64', data: base64(SHIPPING) },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.hasPreview, false);
  });
});
