import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postgresReachable, POSTGRES_URL } from '../testing/stores.js';
import { startHarness, type Harness } from '../testing/harness.js';
import type { BootstrapResult } from '../services/bootstrap.js';

const skip = (await postgresReachable())
  ? false
  : `PostgreSQL not reachable at ${POSTGRES_URL} (set DATABASE_URL)`;

describe('the API on PostgreSQL', { skip }, () => {
  let h: Harness;
  let org: BootstrapResult;
  let deviceId: string;
  before(async () => {
    h = await startHarness({ kind: 'postgres' });
    org = await h.org('free');
    deviceId = (
      await h.store.inventory.createDevice(
        org.orgId,
        { name: 'Till', os: 'linux', arch: 'x64', agentVersion: '1' },
        h.clock.now(),
      )
    ).id;
  });
  after(() => h?.close());

  test('a sandbox receipt prints, has a PNG preview, and can be found by metadata', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: {
        type: 'receipt',
        data: { blocks: [{ type: 'text', value: 'pg' }] },
        metadata: { till: '9' },
      },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.state, 'printed');
    const preview = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, { key: org.testKey });
    assert.equal(preview.status, 200);
    assert.equal(preview.raw.subarray(1, 4).toString(), 'PNG');
    const found = await h.call('GET', '/v1/jobs?metadata.till=9', { key: org.testKey });
    assert.deepEqual(
      found.body.data.map((j: { id: string }) => j.id),
      [res.body.id],
    );
  });

  test('20 concurrent requests with one Idempotency-Key create exactly one job', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.call('POST', '/v1/jobs', {
          key: org.liveKey,
          body: { type: 'text', data: 'x', deviceId },
          headers: { 'idempotency-key': 'pg-race' },
        }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 201).length, 1);
    assert.equal(results.filter((r) => r.status === 200).length, 19);
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
    const me = await h.call('GET', '/v1/me', { key: org.liveKey });
    assert.equal(me.body.usage.liveJobs, 1);
  });

  test('cancel, reprint, expiry and the quota behave as on SQLite', async () => {
    const job = await h.call('POST', '/v1/jobs', {
      key: org.liveKey,
      body: { type: 'text', data: 'x', deviceId },
    });
    const reprint = await h.call('POST', `/v1/jobs/${job.body.id}/reprint`, { key: org.liveKey });
    assert.equal(reprint.status, 201);
    assert.equal(reprint.body.metadata.reprintOf, job.body.id);
    assert.equal(
      (await h.call('POST', `/v1/jobs/${job.body.id}/cancel`, { key: org.liveKey })).body.state,
      'cancelled',
    );
    assert.equal(
      (await h.call('POST', `/v1/jobs/${job.body.id}/cancel`, { key: org.liveKey })).status,
      409,
    );
    h.clock.advance(86_400_000);
    await h.cloud.sweeper.sweep();
    const expired = await h.call('GET', `/v1/jobs/${reprint.body.id}`, { key: org.liveKey });
    assert.equal(expired.body.errorCode, 'EXPIRED');
    h.clock.advance(-86_400_000);
    await h.store.write((trx) =>
      trx
        .updateTable('usageCounters')
        .set({ liveJobs: 1000 })
        .where('organizationId', '=', org.orgId)
        .execute(),
    );
    const over = await h.call('POST', '/v1/jobs', {
      key: org.liveKey,
      body: { type: 'text', data: 'x', deviceId },
    });
    assert.equal(over.status, 402);
  });
});
