import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../testing/harness.js';
import type { BootstrapResult } from '../services/bootstrap.js';

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`tenant isolation (${kind})`, async () => {
    const { postgresReachable } = await import('../testing/stores.js');
    const skip =
      kind === 'postgres' && !(await postgresReachable()) ? 'PostgreSQL not reachable' : false;
    let h: Harness;
    let a: BootstrapResult;
    let b: BootstrapResult;
    const ids: Record<string, string> = {};

    before(async () => {
      if (skip) return;
      h = await startHarness({ kind });
      a = await h.org('starter');
      b = await h.org('starter');
      const now = h.clock.now();
      const device = await h.store.inventory.createDevice(
        a.orgId,
        { name: 'A till', os: 'linux', arch: 'x64', agentVersion: '1' },
        now,
      );
      const printer = await h.store.inventory.createPrinter(
        a.orgId,
        device.id,
        {
          agentPrinterId: 'p',
          name: 'A printer',
          alias: 'a-printer',
          connection: 'usb',
          kind: 'receipt',
          paper: '80mm',
          isDefault: true,
        },
        now,
      );
      const template = await h.store.templates.create(
        a.orgId,
        { name: 'A tpl', type: 'zpl', content: '^XA{{x}}^XZ' },
        now,
      );
      const live = await h.call('POST', '/v1/jobs', {
        key: a.liveKey,
        body: { type: 'text', data: 'secret' },
      });
      const sandbox = await h.call('POST', '/v1/jobs', {
        key: a.testKey,
        body: { type: 'receipt', data: { blocks: [{ type: 'text', value: 'secret' }] } },
      });
      const sandboxPrinter = (await h.call('GET', '/v1/printers', { key: a.testKey })).body.data[0]
        .id;
      const sandboxDevice = (await h.call('GET', '/v1/devices', { key: a.testKey })).body.data.find(
        (d: { os: string }) => d.os === 'sandbox',
      ).id;
      Object.assign(ids, {
        device: device.id,
        printer: printer.id,
        template: template.id,
        liveJob: live.body.id,
        testJob: sandbox.body.id,
        sandboxPrinter,
        sandboxDevice,
      });
    });
    after(async () => {
      if (!skip) await h.close();
    });

    test(
      'no id-taking endpoint reads or changes another organization’s rows',
      { skip },
      async () => {
        const cases: Array<[string, string, string, number, string]> = [
          [b.liveKey, 'GET', `/v1/jobs/${ids.liveJob}`, 404, 'JOB_NOT_FOUND'],
          [b.testKey, 'GET', `/v1/jobs/${ids.testJob}`, 404, 'JOB_NOT_FOUND'],
          [b.testKey, 'GET', `/v1/jobs/${ids.testJob}/preview`, 404, 'JOB_NOT_FOUND'],
          [b.liveKey, 'POST', `/v1/jobs/${ids.liveJob}/cancel`, 404, 'JOB_NOT_FOUND'],
          [b.liveKey, 'POST', `/v1/jobs/${ids.liveJob}/reprint`, 404, 'JOB_NOT_FOUND'],
          [b.testKey, 'POST', `/v1/jobs/${ids.testJob}/reprint`, 404, 'JOB_NOT_FOUND'],
          [b.liveKey, 'GET', `/v1/printers/${ids.printer}`, 404, 'NOT_FOUND'],
          [b.testKey, 'GET', `/v1/printers/${ids.sandboxPrinter}`, 404, 'NOT_FOUND'],
          [b.liveKey, 'GET', `/v1/devices/${ids.device}`, 404, 'NOT_FOUND'],
          [b.testKey, 'GET', `/v1/devices/${ids.sandboxDevice}`, 404, 'NOT_FOUND'],
          [b.liveKey, 'GET', `/v1/templates/${ids.template}`, 404, 'NOT_FOUND'],
        ];
        for (const [key, method, path, status, code] of cases) {
          const res = await h.call(method, path, { key });
          assert.equal(res.status, status, `${method} ${path}`);
          assert.equal(res.body.error.code, code, `${method} ${path}`);
        }
        const jobA = await h.call('GET', `/v1/jobs/${ids.liveJob}`, { key: a.liveKey });
        assert.equal(jobA.body.state, 'queued', 'the other organization’s cancel changed nothing');
      },
    );

    test(
      'jobs cannot target another organization’s printers, devices or templates',
      { skip },
      async () => {
        const bodies: Array<[Record<string, unknown>, string]> = [
          [{ type: 'text', data: 'x', printerId: ids.printer }, 'printerId'],
          [{ type: 'text', data: 'x', deviceId: ids.device }, 'deviceId'],
          [{ type: 'text', data: 'x', printer: 'a-printer' }, 'printer'],
          [{ type: 'text', data: 'x', printer: { id: ids.printer } }, 'printer'],
          [{ templateId: ids.template, data: { x: 1 } }, 'templateId'],
        ];
        for (const [body, path] of bodies) {
          const res = await h.call('POST', '/v1/jobs', { key: b.liveKey, body });
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.equal(res.body.error.details[0].path, path);
        }
        const sandbox = await h.call('POST', '/v1/jobs', {
          key: b.testKey,
          body: { type: 'text', data: 'x', printerId: ids.sandboxPrinter },
        });
        assert.equal(sandbox.status, 400);
      },
    );

    test('lists show only the caller’s organization and mode', { skip }, async () => {
      const jobs = await h.call('GET', '/v1/jobs?limit=100', { key: b.liveKey });
      assert.deepEqual(jobs.body.data, []);
      const filtered = await h.call('GET', `/v1/jobs?printerId=${ids.printer}`, { key: b.liveKey });
      assert.deepEqual(filtered.body.data, []);
      assert.deepEqual((await h.call('GET', '/v1/printers', { key: b.liveKey })).body.data, []);
      assert.deepEqual(
        (await h.call('GET', `/v1/printers?deviceId=${ids.device}`, { key: b.testKey })).body.data,
        [],
      );
      assert.deepEqual((await h.call('GET', '/v1/devices', { key: b.liveKey })).body.data, []);
      assert.deepEqual((await h.call('GET', '/v1/templates', { key: b.liveKey })).body.data, []);
      const aLive = (await h.call('GET', '/v1/jobs', { key: a.liveKey })).body.data.map(
        (j: { id: string }) => j.id,
      );
      const aTest = (await h.call('GET', '/v1/jobs', { key: a.testKey })).body.data.map(
        (j: { id: string }) => j.id,
      );
      assert.deepEqual(aLive, [ids.liveJob]);
      assert.deepEqual(aTest, [ids.testJob]);
    });
  });
}
