import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../../testing/harness.js';
import type { BootstrapResult } from '../../services/bootstrap.js';

describe('printers, devices and templates', () => {
  let h: Harness;
  let org: BootstrapResult;
  let deviceIds: string[];
  before(async () => {
    h = await startHarness();
    org = await h.org('starter');
    deviceIds = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      const now = h.clock.now();
      const device = await h.store.inventory.createDevice(
        org.orgId,
        {
          name: `Till ${i}`,
          os: 'windows',
          arch: 'x64',
          agentVersion: '1.0.1',
          status: i === 0 ? 'online' : 'offline',
        },
        now,
      );
      deviceIds.push(device.id);
      await h.store.inventory.createPrinter(
        org.orgId,
        device.id,
        {
          agentPrinterId: `usb-${i}`,
          name: `Printer ${i}`,
          alias: `p${i}`,
          connection: 'usb',
          kind: 'receipt',
          paper: '80mm',
          codepage: 'CP858',
          capabilities: ['escpos', 'cut'],
          status: i === 0 ? 'online' : 'paper_out',
        },
        now,
      );
    }
    await h.store.inventory.createDevice(
      org.orgId,
      { name: 'Pending', os: 'linux', arch: 'x64', agentVersion: '1', activated: false },
      h.clock.now(),
    );
  });
  after(() => h.close());

  test('a printer has every field of the spec with its type', async () => {
    const res = await h.call('GET', '/v1/printers?limit=1', { key: org.liveKey });
    const p = res.body.data[0];
    assert.deepEqual(Object.keys(p).sort(), [
      'agentPrinterId',
      'alias',
      'capabilities',
      'codepage',
      'connection',
      'deviceId',
      'id',
      'isDefault',
      'kind',
      'lastStatusAt',
      'name',
      'paper',
      'status',
    ]);
    assert.equal(p.name, 'Printer 2');
    assert.deepEqual(p.capabilities, ['escpos', 'cut']);
    assert.equal(p.isDefault, false);
    assert.equal(p.codepage, 'CP858');
    const one = await h.call('GET', `/v1/printers/${p.id}`, { key: org.liveKey });
    assert.deepEqual(one.body, p);
    const missing = await h.call('GET', '/v1/printers/prn_nope', { key: org.liveKey });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'NOT_FOUND');
  });

  test('printers filter by status and deviceId and page with cursors', async () => {
    const names = async (q: string, key = org.liveKey) =>
      (await h.call('GET', `/v1/printers${q}`, { key })).body.data.map(
        (p: { name: string }) => p.name,
      );
    assert.deepEqual(await names('?status=online'), ['Printer 0']);
    assert.deepEqual(await names('?status=paper_out'), ['Printer 2', 'Printer 1']);
    assert.deepEqual(await names(`?deviceId=${deviceIds[1]}`), ['Printer 1']);
    const first = await h.call('GET', '/v1/printers?limit=2', { key: org.liveKey });
    assert.equal(first.body.data.length, 2);
    const second = await h.call('GET', `/v1/printers?limit=2&cursor=${first.body.nextCursor}`, {
      key: org.liveKey,
    });
    assert.deepEqual(
      second.body.data.map((p: { name: string }) => p.name),
      ['Printer 0'],
    );
    assert.equal(second.body.nextCursor, null);
    assert.equal(
      (await names('', org.testKey)).length,
      7,
      'test keys see the 4 sandbox printers and the 3 real ones',
    );
    for (const bad of ['0', '101']) {
      assert.equal(
        (await h.call('GET', `/v1/printers?limit=${bad}`, { key: org.liveKey })).status,
        400,
      );
    }
    assert.equal((await h.call('GET', '/v1/printers?limit=100', { key: org.liveKey })).status, 200);
  });

  test('devices list only activated devices, filter by status, and have every field of the spec', async () => {
    const res = await h.call('GET', '/v1/devices', { key: org.liveKey });
    assert.deepEqual(
      res.body.data.map((d: { name: string }) => d.name),
      ['Till 2', 'Till 1', 'Till 0'],
    );
    const d = res.body.data[2];
    assert.deepEqual(Object.keys(d).sort(), [
      'activated',
      'agentVersion',
      'arch',
      'createdAt',
      'groupId',
      'id',
      'lastSeenAt',
      'name',
      'os',
      'status',
    ]);
    assert.equal(d.status, 'online');
    assert.equal(d.activated, true);
    assert.equal(typeof d.createdAt, 'string');
    const online = await h.call('GET', '/v1/devices?status=online', { key: org.liveKey });
    assert.deepEqual(
      online.body.data.map((x: { name: string }) => x.name),
      ['Till 0'],
    );
    assert.equal(
      (await h.call('GET', '/v1/devices?status=asleep', { key: org.liveKey })).status,
      400,
    );
    const page = await h.call('GET', '/v1/devices?limit=1', { key: org.liveKey });
    assert.equal(page.body.data.length, 1);
    assert.equal(typeof page.body.nextCursor, 'string');
    assert.deepEqual((await h.call('GET', `/v1/devices/${d.id}`, { key: org.liveKey })).body, d);
    const missing = await h.call('GET', '/v1/devices/dev_nope', { key: org.liveKey });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'NOT_FOUND');
  });

  test('templates list every template in one page and read one; an unknown one is 404 NOT_FOUND', async () => {
    const now = h.clock.now();
    const t1 = await h.store.templates.create(
      org.orgId,
      { name: 'Label', type: 'zpl', content: '^XA{{x}}^XZ', paper: null },
      now,
    );
    const t2 = await h.store.templates.create(
      org.orgId,
      { name: 'Receipt', type: 'receipt', content: '{"blocks":[]}', paper: '58mm' },
      now,
    );
    const list = await h.call('GET', '/v1/templates', { key: org.testKey });
    assert.equal(list.status, 200);
    assert.equal(list.body.nextCursor, null);
    assert.deepEqual(list.body.data.map((t: { id: string }) => t.id).sort(), [t1.id, t2.id].sort());
    const one = await h.call('GET', `/v1/templates/${t2.id}`, { key: org.liveKey });
    assert.deepEqual(one.body, {
      id: t2.id,
      name: 'Receipt',
      type: 'receipt',
      content: '{"blocks":[]}',
      paper: '58mm',
      createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
    });
    const missing = await h.call('GET', '/v1/templates/tpl_nope', { key: org.liveKey });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'NOT_FOUND');
  });
});
