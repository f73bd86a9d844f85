import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { gallery } from '@printwire/shared/gallery/index';
import { renderLabel } from '@printwire/shared/label/index';
import { startHarness, type Harness } from '../testing/harness.js';
import type { BootstrapResult } from '../services/bootstrap.js';

const size = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
const inkAt = (png: Buffer, x: number, y: number): boolean => {
  const image = PNG.sync.read(png);
  return image.data[(y * image.width + x) * 4]! < 128;
};

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

  async function job(body: Record<string, unknown>): Promise<string> {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: { printerId: labelPrinterId, ...body },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.hasPreview, true);
    return res.body.id as string;
  }
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
});
