import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../../testing/harness.js';
import type { BootstrapResult } from '../../services/bootstrap.js';

const receipt = { blocks: [{ type: 'text', value: 'Total 12.00' }, { type: 'cut' }] };

describe('POST /v1/jobs', () => {
  let h: Harness;
  let org: BootstrapResult;
  let deviceId: string;
  let printerId: string;
  before(async () => {
    h = await startHarness();
    org = await h.org('starter');
    const now = h.clock.now();
    const device = await h.store.inventory.createDevice(
      org.orgId,
      { name: 'Till 1', os: 'windows', arch: 'x64', agentVersion: '1.0.1' },
      now,
    );
    deviceId = device.id;
    printerId = (
      await h.store.inventory.createPrinter(
        org.orgId,
        device.id,
        {
          agentPrinterId: 'usb-1',
          name: 'Kitchen',
          alias: 'kitchen',
          connection: 'usb',
          kind: 'receipt',
          paper: '80mm',
          isDefault: true,
        },
        now,
      )
    ).id;
    await h.store.inventory.createPrinter(
      org.orgId,
      device.id,
      {
        agentPrinterId: 'tcp-1',
        name: 'Labels',
        alias: 'labels',
        connection: 'tcp',
        kind: 'label',
      },
      now,
    );
  });
  after(() => h.close());

  const post = (body: unknown, headers: Record<string, string> = {}, key = org.liveKey) =>
    h.call('POST', '/v1/jobs', { key, body, headers });

  test('every type and encoding of the spec is accepted', async () => {
    const b64 = Buffer.from('\x1b@hello\n').toString('base64');
    const cases: Array<Record<string, unknown>> = [
      { type: 'receipt', data: receipt },
      { type: 'receipt', encoding: 'json', data: receipt },
      { type: 'escpos', encoding: 'base64', data: b64 },
      { type: 'raw', data: b64 },
      { type: 'zpl', data: '^XA^FO20,20^FDHi^FS^XZ' },
      { type: 'zpl', encoding: 'base64', data: Buffer.from('^XA^XZ').toString('base64') },
      { type: 'epl', encoding: 'utf8', data: 'N\nA50,0,0,1,1,1,N,"Hi"\nP1\n' },
      { type: 'epl', encoding: 'base64', data: Buffer.from('N\nP1\n').toString('base64') },
      { type: 'text', data: 'hello' },
      { type: 'text', encoding: 'base64', data: b64 },
      { type: 'html', data: '<p>Hi</p>' },
      { type: 'html', encoding: 'base64', data: Buffer.from('<p>Hi</p>').toString('base64') },
      { type: 'pdf', data: Buffer.from('%PDF-1.4').toString('base64') },
      { type: 'pdf', encoding: 'url', data: 'https://example.com/a.pdf' },
      { type: 'image', encoding: 'base64', data: Buffer.from('\x89PNG').toString('base64') },
      { type: 'image', encoding: 'url', data: 'http://example.com/a.png' },
    ];
    for (const body of cases) {
      const res = await post(body);
      assert.equal(res.status, 201, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.type, body.type);
      assert.equal(res.body.state, 'queued');
      assert.equal(res.body.mode, 'live');
      assert.equal(res.body.printerId, printerId);
      assert.equal(res.body.contentRetained, true);
      assert.equal(res.body.hasPreview, false);
      assert.deepEqual(
        res.body.events.map((e: { state: string }) => e.state),
        ['queued'],
      );
    }
  });

  test('the job resource has every field of the spec with its type', async () => {
    const res = await post({ type: 'text', data: 'x', metadata: { order: '1' } });
    const job = res.body;
    for (const key of ['id', 'type', 'createdAt', 'updatedAt'])
      assert.equal(typeof job[key], 'string');
    for (const key of [
      'idempotencyKey',
      'templateId',
      'errorCode',
      'errorMessage',
      'dispatchedAt',
      'printedAt',
    ])
      assert.equal(job[key], null);
    assert.equal(job.source, 'cloud');
    assert.equal(job.attempt, 0);
    assert.equal(job.deviceId, deviceId);
    assert.deepEqual(job.metadata, { order: '1' });
    assert.equal(Date.parse(job.expiresAt) - Date.parse(job.createdAt), 86_400_000);
  });

  test('every rejection is 400 INVALID_JOB with details naming each field', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{ data: 'x' }, ['type']],
      [{ type: 'fax', data: 'x' }, ['type']],
      [{ type: 'text' }, ['data']],
      [{ type: 'receipt', encoding: 'base64', data: 'AAAA' }, ['encoding']],
      [{ type: 'escpos', encoding: 'utf8', data: 'x' }, ['encoding']],
      [{ type: 'escpos', data: 'not base64!' }, ['data']],
      [{ type: 'text', data: '' }, ['data']],
      [{ type: 'text', data: 5 }, ['data']],
      [{ type: 'pdf', encoding: 'url', data: 'ftp://example.com/a.pdf' }, ['data']],
      [
        {
          type: 'receipt',
          data: { blocks: [{ type: 'text', value: 'x', size: 9 }, { type: 'qr' }] },
        },
        ['data.blocks[0].size', 'data.blocks[1]'],
      ],
      [{ type: 'text', data: 'x', colour: 'red' }, ['(root)']],
      [
        { type: 'text', data: 'x', options: { copies: 0, cut: 'half' } },
        ['options.copies', 'options.cut'],
      ],
      [{ type: 'text', data: 'x', printerId: 'prn_nope' }, ['printerId']],
      [{ type: 'text', data: 'x', deviceId: 'dev_nope' }, ['deviceId']],
      [{ type: 'text', data: 'x', deviceId, alias: 'nope' }, ['alias']],
      [{ type: 'text', data: 'x', alias: 'kitchen' }, ['alias']],
      [{ type: 'text', data: 'x', printer: 'nope' }, ['printer']],
      [{ type: 'text', data: 'x', printer: 'x', printerId }, ['printer']],
      [{ templateId: 'tpl_nope', data: {} }, ['templateId']],
      [{ templateId: 'tpl_nope', type: 'zpl', data: {} }, ['type']],
    ];
    for (const [body, paths] of cases) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'INVALID_JOB');
      const got = res.body.error.details.map((d: { path: string }) => d.path);
      for (const p of paths)
        assert.ok(
          got.some((g: string) => g.startsWith(p)),
          `${JSON.stringify(body)}: ${JSON.stringify(got)} lacks ${p}`,
        );
      for (const d of res.body.error.details)
        assert.ok(d.message.startsWith(`${d.path}: `), d.message);
    }
  });

  test('a receipt takes at most 2000 blocks', async () => {
    const blocks = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: 'text', value: `line ${i}` }));
    assert.equal((await post({ type: 'receipt', data: { blocks: blocks(2000) } })).status, 201);
    const over = await post({ type: 'receipt', data: { blocks: blocks(2001) } });
    assert.equal(over.status, 400);
    assert.equal(over.body.error.code, 'INVALID_JOB');
    assert.equal(over.body.error.details[0].path, 'data.blocks');
  });

  test('options are enforced at their edges', async () => {
    const edges: Array<[Record<string, unknown>, boolean]> = [
      [{ copies: 1 }, true],
      [{ copies: 10 }, true],
      [{ copies: 0 }, false],
      [{ copies: 11 }, false],
      [{ copies: 1.5 }, false],
      [{ expireAfter: 60 }, true],
      [{ expireAfter: 604_800 }, true],
      [{ expireAfter: 59 }, false],
      [{ expireAfter: 604_801 }, false],
      [{ maxAttempts: 1 }, true],
      [{ maxAttempts: 10 }, true],
      [{ maxAttempts: 0 }, false],
      [{ maxAttempts: 11 }, false],
      [{ cut: 'partial', openDrawer: true, codepage: 'CP858', paper: '58mm' }, true],
      [{ codepage: 'CP999' }, false],
      [{ speed: 3 }, false],
    ];
    for (const [options, ok] of edges) {
      const res = await post({ type: 'receipt', data: receipt, options });
      assert.equal(
        res.status,
        ok ? 201 : 400,
        `${JSON.stringify(options)}: ${JSON.stringify(res.body)}`,
      );
    }
    const res = await post({ type: 'text', data: 'x', options: { expireAfter: 60 } });
    assert.equal(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt), 60_000);
  });

  test('metadata is bounded: 50 pairs, keys of 40 and values of 500 characters', async () => {
    const pairs = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    assert.equal((await post({ type: 'text', data: 'x', metadata: pairs(50) })).status, 201);
    assert.equal((await post({ type: 'text', data: 'x', metadata: pairs(51) })).status, 400);
    assert.equal(
      (await post({ type: 'text', data: 'x', metadata: { ['k'.repeat(40)]: 'v' } })).status,
      201,
    );
    const longKey = await post({ type: 'text', data: 'x', metadata: { ['k'.repeat(41)]: 'v' } });
    assert.equal(longKey.status, 400);
    assert.equal(
      (await post({ type: 'text', data: 'x', metadata: { k: 'v'.repeat(500) } })).status,
      201,
    );
    const longValue = await post({ type: 'text', data: 'x', metadata: { k: 'v'.repeat(501) } });
    assert.equal(longValue.status, 400);
    assert.equal(longValue.body.error.details[0].path, 'metadata.k');
    assert.equal((await post({ type: 'text', data: 'x', metadata: { k: 5 } })).status, 400);
  });

  test('targets: printerId, deviceId with alias, a printer reference by id, alias or name, or the default', async () => {
    const labels = (
      await h.call('GET', '/v1/printers?status=offline', { key: org.liveKey })
    ).body.data.find((p: { alias: string }) => p.alias === 'labels');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ printerId: labels.id }, labels.id],
      [{ deviceId, alias: 'labels' }, labels.id],
      [{ deviceId }, printerId],
      [{ printer: labels.id }, labels.id],
      [{ printer: 'labels' }, labels.id],
      [{ printer: 'Labels' }, labels.id],
      [{ printer: { alias: 'labels', deviceId } }, labels.id],
      [{ printer: { name: 'Kitchen' } }, printerId],
      [{}, printerId],
    ];
    for (const [target, expected] of cases) {
      const res = await post({ type: 'zpl', data: '^XA^XZ', ...target });
      assert.equal(res.status, 201, JSON.stringify(target));
      assert.equal(res.body.printerId, expected, JSON.stringify(target));
      assert.equal(res.body.deviceId, deviceId);
    }
  });

  test('a live key cannot target the sandbox’s printers', async () => {
    const sandbox = (await h.call('GET', '/v1/printers', { key: org.testKey })).body.data.find(
      (p: { alias: string }) => p.alias === 'receipt-80',
    );
    const res = await post({ type: 'text', data: 'x', printerId: sandbox.id });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.details[0].path, 'printerId');
  });

  test('an organization without a default printer must name one', async () => {
    const other = await h.org('starter');
    const res = await post({ type: 'text', data: 'x' }, {}, other.liveKey);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.details[0].path, 'printer');
    const test = await post({ type: 'text', data: 'x' }, {}, other.testKey);
    assert.equal(test.status, 201, 'test keys default to the sandbox’s 80 mm printer');
  });

  test('templates: the job carries templateId and the rendered content; bad data or templates are INVALID_JOB', async () => {
    const now = h.clock.now();
    const zpl = await h.store.templates.create(
      org.orgId,
      { name: 'Label', type: 'zpl', content: '^XA^FO20,20^FH^FD{{name}}^FS^XZ' },
      now,
    );
    const rec = await h.store.templates.create(
      org.orgId,
      {
        name: 'Receipt',
        type: 'receipt',
        paper: '58mm',
        content: '{"blocks":[{"type":"text","value":"{{total}}"}]}',
      },
      now,
    );
    const broken = await h.store.templates.create(
      org.orgId,
      { name: 'Broken', type: 'zpl', content: '^XA{{#items}}^XZ' },
      now,
    );
    const a = await post({ templateId: zpl.id, data: { name: 'A^B' } }, {}, org.testKey);
    assert.equal(a.status, 201);
    assert.equal(a.body.templateId, zpl.id);
    assert.equal(a.body.type, 'zpl');
    const content = await h.store.jobs.getContent(org.orgId, 'test', a.body.id);
    assert.equal(content?.content.toString(), '^XA^FO20,20^FH^FDA_5EB^FS^XZ');
    const b = await post({ templateId: rec.id, data: { total: '9.99' } }, {}, org.testKey);
    assert.equal(b.status, 201);
    assert.equal(b.body.type, 'receipt');
    assert.equal(b.body.hasPreview, true);
    const bad = await post({ templateId: broken.id, data: {} });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'INVALID_JOB');
    assert.match(bad.body.error.message, /line 1/);
  });

  test('the Idempotency-Key header returns the first job with 200 and overrides the body’s key', async () => {
    const first = await post(
      { type: 'text', data: 'one', idempotencyKey: 'body-key' },
      { 'idempotency-key': 'hdr-1' },
    );
    assert.equal(first.status, 201);
    assert.equal(first.body.idempotencyKey, 'hdr-1');
    const again = await post({ type: 'text', data: 'two' }, { 'idempotency-key': 'hdr-1' });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    const bodyKey = await post({ type: 'text', data: 'three', idempotencyKey: 'body-key' });
    assert.equal(bodyKey.status, 201, 'the body key was overridden, so it names nothing yet');
    const testMode = await post(
      { type: 'text', data: 'four' },
      { 'idempotency-key': 'hdr-1' },
      org.testKey,
    );
    assert.equal(testMode.status, 201, 'modes are separate worlds');
    h.clock.advance(24 * 3_600_000);
    const later = await post({ type: 'text', data: 'five' }, { 'idempotency-key': 'hdr-1' });
    assert.equal(later.status, 201, 'after 24 hours the key names nothing');
    h.clock.advance(-24 * 3_600_000);
    const tooLong = await post({ type: 'text', data: 'x' }, { 'idempotency-key': 'k'.repeat(256) });
    assert.equal(tooLong.status, 400);
    assert.equal(
      (await post({ type: 'text', data: 'x' }, { 'idempotency-key': 'k'.repeat(255) })).status,
      201,
    );
  });

  test('20 concurrent requests with one Idempotency-Key create exactly one job', async () => {
    const before = (await h.call('GET', '/v1/me', { key: org.liveKey })).body.usage.liveJobs;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post({ type: 'text', data: `n${i}` }, { 'idempotency-key': 'race-1' }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 201).length, 1);
    assert.equal(results.filter((r) => r.status === 200).length, 19);
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
    const listed = await h.call('GET', `/v1/jobs?limit=100`, { key: org.liveKey });
    assert.equal(
      listed.body.data.filter((j: { idempotencyKey: string }) => j.idempotencyKey === 'race-1')
        .length,
      1,
    );
    const after = (await h.call('GET', '/v1/me', { key: org.liveKey })).body.usage.liveJobs;
    assert.equal(after, before + 1, 'the quota counts the one job');
  });
});

describe('quota and footer', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  async function useUp(orgId: string, liveJobs: number) {
    await h.store.write((trx) =>
      trx
        .insertInto('usageCounters')
        .values({ organizationId: orgId, period: '2026-03', liveJobs })
        .execute(),
    );
  }

  test('the free plan’s 1,000th live job is accepted and the 1,001st is 402 LICENSE_LIMIT; test jobs still work', async () => {
    const org = await h.org('free');
    await useUp(org.orgId, 999);
    const body = { type: 'text', data: 'x', printer: 'receipt-80' };
    const device = await h.store.inventory.createDevice(
      org.orgId,
      { name: 'T', os: 'linux', arch: 'x64', agentVersion: '1' },
      h.clock.now(),
    );
    const last = await h.call('POST', '/v1/jobs', {
      key: org.liveKey,
      body: { type: 'text', data: 'x', deviceId: device.id },
    });
    assert.equal(last.status, 201);
    const over = await h.call('POST', '/v1/jobs', {
      key: org.liveKey,
      body: { type: 'text', data: 'x', deviceId: device.id },
    });
    assert.equal(over.status, 402);
    assert.equal(over.body.error.code, 'LICENSE_LIMIT');
    assert.equal((await h.call('POST', '/v1/jobs', { key: org.testKey, body })).status, 201);
    h.clock.set(Date.parse('2026-04-01T00:00:00.000Z'));
    const nextMonth = await h.call('POST', '/v1/jobs', {
      key: org.liveKey,
      body: { type: 'text', data: 'x', deviceId: device.id },
    });
    assert.equal(nextMonth.status, 201);
    h.clock.set(Date.parse('2026-03-10T10:00:00.000Z'));
  });

  test('the starter plan allows 10,000, business 100,000 and enterprise has no limit', async () => {
    for (const [plan, quota] of [
      ['starter', 10_000],
      ['business', 100_000],
      ['enterprise', null],
    ] as const) {
      const org = await h.org(plan);
      const device = await h.store.inventory.createDevice(
        org.orgId,
        { name: 'T', os: 'linux', arch: 'x64', agentVersion: '1' },
        h.clock.now(),
      );
      await useUp(org.orgId, quota ?? 5_000_000);
      const res = await h.call('POST', '/v1/jobs', {
        key: org.liveKey,
        body: { type: 'text', data: 'x', deviceId: device.id },
      });
      assert.equal(res.status, quota === null ? 201 : 402, plan);
    }
  });
});
