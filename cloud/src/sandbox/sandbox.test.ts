import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { interpretEscpos, renderEscposToPng } from '@printwire/shared/escpos/index';
import { encodeReceipt, FOOTER_TEXT } from '@printwire/shared/receipt/index';
import { startHarness, type Harness } from '../testing/harness.js';
import type { BootstrapResult } from '../services/bootstrap.js';

const doc = {
  blocks: [
    { type: 'text', value: 'Café du Port', align: 'center', bold: true, size: 2 },
    { type: 'pair', left: 'Croissant', right: '2.50' },
    { type: 'line', style: 'dashed' },
    { type: 'qr', value: 'https://example.com/r/1' },
    { type: 'cut' },
  ],
};

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe('the sandbox', () => {
  let h: Harness;
  let free: BootstrapResult;
  let starter: BootstrapResult;
  let printers: Array<{ id: string; alias: string; status: string; paper: string | null }>;
  before(async () => {
    h = await startHarness();
    free = await h.org('free');
    starter = await h.org('starter');
    printers = (await h.call('GET', '/v1/printers', { key: free.testKey })).body.data;
  });
  after(() => h.close());

  const byAlias = (alias: string) => printers.find((p) => p.alias === alias)!;

  test('test keys see the sandbox device and its four virtual printers; live keys do not', async () => {
    assert.deepEqual(printers.map((p) => p.alias).sort(), [
      'label',
      'paper-out',
      'receipt-58',
      'receipt-80',
    ]);
    assert.equal(byAlias('paper-out').status, 'paper_out');
    const devices = (await h.call('GET', '/v1/devices', { key: free.testKey })).body.data;
    assert.equal(devices.length, 1);
    assert.equal(devices[0].status, 'online');
    assert.equal(devices[0].activated, true);
    assert.deepEqual((await h.call('GET', '/v1/printers', { key: free.liveKey })).body.data, []);
    assert.deepEqual((await h.call('GET', '/v1/devices', { key: free.liveKey })).body.data, []);
    assert.equal(
      (await h.call('GET', `/v1/printers/${byAlias('receipt-80').id}`, { key: free.liveKey }))
        .status,
      404,
    );
    assert.equal(
      (await h.call('GET', `/v1/devices/${devices[0].id}`, { key: free.liveKey })).status,
      404,
    );
  });

  test('a test receipt goes queued → sending → printed at once, on the 80 mm printer by default', async () => {
    const seen = h.events.length;
    const res = await h.call('POST', '/v1/jobs', {
      key: free.testKey,
      body: { type: 'receipt', data: doc },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.mode, 'test');
    assert.equal(res.body.state, 'printed');
    assert.equal(res.body.printerId, byAlias('receipt-80').id);
    assert.equal(res.body.attempt, 1);
    assert.ok(res.body.printedAt);
    assert.equal(res.body.hasPreview, true);
    assert.deepEqual(
      res.body.events.map((e: { state: string }) => e.state),
      ['queued', 'sending', 'printed'],
    );
    const published = h.events.slice(seen).filter((e) => e.jobId === res.body.id);
    assert.deepEqual(
      published.map((e) => e.state),
      ['queued', 'sending', 'printed'],
    );
    assert.ok(published.every((e) => e.mode === 'test' && e.organizationId === free.orgId));
  });

  test('the preview is the PNG the shared virtual printer draws from the job’s bytes, footer included on the free plan', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: free.testKey,
      body: { type: 'receipt', data: doc },
    });
    const preview = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, { key: free.testKey });
    assert.equal(preview.status, 200);
    assert.equal(preview.headers.get('content-type'), 'image/png');
    const bytes = encodeReceipt(doc, 'generic-80mm', { paper: '80mm', footer: true });
    const expected = await renderEscposToPng(bytes, { paper: '80mm' });
    assert.ok(
      preview.raw.equals(expected),
      'preview differs from the virtual printer’s rendering of the bytes',
    );
    assert.equal(pngSize(preview.raw).width, 576);
    const printed = await h.cloud.jobs.printedBytes(
      { organization: (await h.store.organizations.get(free.orgId))!, mode: 'test' },
      res.body.id,
    );
    const page = interpretEscpos(printed!.bytes, { paper: '80mm' });
    assert.ok(page.textRuns.some((r) => r.text.includes(FOOTER_TEXT)));
    const second = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, { key: free.testKey });
    assert.ok(second.raw.equals(preview.raw), 'the stored preview is served again');
  });

  test('a paid plan’s receipts have no footer', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: starter.testKey,
      body: { type: 'receipt', data: doc },
    });
    const printed = await h.cloud.jobs.printedBytes(
      { organization: (await h.store.organizations.get(starter.orgId))!, mode: 'test' },
      res.body.id,
    );
    const page = interpretEscpos(printed!.bytes, { paper: '80mm' });
    assert.ok(!page.textRuns.some((r) => r.text.includes(FOOTER_TEXT)));
    assert.ok(page.textRuns.some((r) => r.text.includes('Croissant')));
  });

  test('the 58 mm printer prints 384 dots wide, and job options reach the print', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: starter.testKey,
      body: {
        type: 'receipt',
        data: doc,
        printer: 'receipt-58',
        options: { copies: 2, openDrawer: true },
      },
    });
    const preview = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, {
      key: starter.testKey,
    });
    assert.equal(pngSize(preview.raw).width, 384);
    const printed = await h.cloud.jobs.printedBytes(
      { organization: (await h.store.organizations.get(starter.orgId))!, mode: 'test' },
      res.body.id,
    );
    const page = interpretEscpos(printed!.bytes, { paper: '58mm' });
    assert.equal(page.textRuns.filter((r) => r.text.includes('Croissant')).length, 2);
    assert.equal(page.drawerPulses.length, 1);
  });

  test('escpos, raw and text jobs have previews of their bytes', async () => {
    const escpos = Buffer.from('\x1b@Hello sandbox\n\x1dV\x00', 'latin1');
    for (const body of [
      { type: 'escpos', data: escpos.toString('base64') },
      { type: 'raw', data: escpos.toString('base64') },
      { type: 'text', data: 'Hello sandbox\n' },
    ]) {
      const res = await h.call('POST', '/v1/jobs', { key: starter.testKey, body });
      assert.equal(res.body.hasPreview, true, body.type);
      const preview = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, {
        key: starter.testKey,
      });
      assert.equal(preview.status, 200, body.type);
      const expected = await renderEscposToPng(
        body.type === 'text' ? Buffer.from('Hello sandbox\n') : escpos,
        { paper: '80mm' },
      );
      assert.ok(preview.raw.equals(expected), body.type);
    }
  });

  test('the paper-out printer fails test jobs with PAPER_OUT and prints nothing', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: free.testKey,
      body: { type: 'receipt', data: doc, printer: { alias: 'paper-out' } },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.state, 'failed');
    assert.equal(res.body.errorCode, 'PAPER_OUT');
    assert.ok(res.body.errorMessage);
    assert.equal(res.body.hasPreview, false);
    assert.deepEqual(
      res.body.events.map((e: { state: string; errorCode: string | null }) => [
        e.state,
        e.errorCode,
      ]),
      [
        ['queued', null],
        ['sending', null],
        ['failed', 'PAPER_OUT'],
      ],
    );
    const preview = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, { key: free.testKey });
    assert.equal(preview.status, 404);
    assert.equal(preview.body.error.code, 'NOT_FOUND');
  });

  test('pdf and html test jobs on a receipt printer print without a preview (404 NOT_FOUND)', async () => {
    for (const body of [
      { type: 'pdf', data: Buffer.from('%PDF').toString('base64') },
      { type: 'html', data: '<p>x</p>' },
    ]) {
      const res = await h.call('POST', '/v1/jobs', { key: free.testKey, body });
      assert.equal(res.body.state, 'printed', body.type);
      assert.equal(res.body.hasPreview, false);
      const preview = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, { key: free.testKey });
      assert.equal(preview.status, 404);
      assert.equal(preview.body.error.code, 'NOT_FOUND');
    }
  });

  test('a live job has no preview (NOT_FOUND) and an unknown id is JOB_NOT_FOUND', async () => {
    const device = await h.store.inventory.createDevice(
      free.orgId,
      { name: 'T', os: 'linux', arch: 'x64', agentVersion: '1' },
      h.clock.now(),
    );
    const live = await h.call('POST', '/v1/jobs', {
      key: free.liveKey,
      body: { type: 'receipt', data: doc, deviceId: device.id },
    });
    assert.equal(live.body.state, 'queued');
    const preview = await h.call('GET', `/v1/jobs/${live.body.id}/preview`, { key: free.liveKey });
    assert.equal(preview.status, 404);
    assert.equal(preview.body.error.code, 'NOT_FOUND');
    const none = await h.call('GET', '/v1/jobs/job_nope/preview', { key: free.testKey });
    assert.equal(none.status, 404);
    assert.equal(none.body.error.code, 'JOB_NOT_FOUND');
  });

  test('a test job aimed at a real printer is printed virtually with that printer’s paper', async () => {
    const now = h.clock.now();
    const device = await h.store.inventory.createDevice(
      starter.orgId,
      { name: 'Bar', os: 'linux', arch: 'x64', agentVersion: '1' },
      now,
    );
    const printer = await h.store.inventory.createPrinter(
      starter.orgId,
      device.id,
      {
        agentPrinterId: 'p58',
        name: 'Bar printer',
        connection: 'usb',
        kind: 'receipt',
        paper: '58mm',
        status: 'offline',
      },
      now,
    );
    const res = await h.call('POST', '/v1/jobs', {
      key: starter.testKey,
      body: { type: 'receipt', data: doc, printerId: printer.id },
    });
    assert.equal(res.body.state, 'printed');
    assert.equal(res.body.printerId, printer.id);
    const preview = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, {
      key: starter.testKey,
    });
    assert.equal(pngSize(preview.raw).width, 384);
    const live = await h.store.jobs.listQueuedForDevice(starter.orgId, device.id);
    assert.deepEqual(live, [], 'test jobs never reach an agent');
  });

  test('reprinting a test job prints it again in the sandbox', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: starter.testKey,
      body: { type: 'receipt', data: doc },
    });
    const again = await h.call('POST', `/v1/jobs/${res.body.id}/reprint`, { key: starter.testKey });
    assert.equal(again.status, 201);
    assert.equal(again.body.state, 'printed');
    assert.equal(again.body.metadata.reprintOf, res.body.id);
    const a = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, { key: starter.testKey });
    const b = await h.call('GET', `/v1/jobs/${again.body.id}/preview`, { key: starter.testKey });
    assert.ok(a.raw.equals(b.raw));
  });
});
