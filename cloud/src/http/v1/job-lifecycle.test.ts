import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../../testing/harness.js';
import type { BootstrapResult } from '../../services/bootstrap.js';

describe('listing, reading, cancelling and reprinting jobs', () => {
  let h: Harness;
  let org: BootstrapResult;
  let deviceId: string;
  before(async () => {
    h = await startHarness();
    org = await h.org('starter');
    deviceId = (
      await h.store.inventory.createDevice(
        org.orgId,
        { name: 'Till', os: 'linux', arch: 'arm64', agentVersion: '1.0.0' },
        h.clock.now(),
      )
    ).id;
  });
  after(() => h.close());

  const create = async (extra: Record<string, unknown> = {}, key = org.liveKey) => {
    const res = await h.call('POST', '/v1/jobs', {
      key,
      body: { type: 'text', data: 'hello', deviceId, ...extra },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };

  test('limit takes 1-100 and defaults to 25; anything else is 400 VALIDATION_FAILED naming limit', async () => {
    const fresh = await h.org('starter');
    const dev = (
      await h.store.inventory.createDevice(
        fresh.orgId,
        { name: 'T', os: 'linux', arch: 'x64', agentVersion: '1' },
        h.clock.now(),
      )
    ).id;
    for (let i = 0; i < 101; i++) {
      h.clock.advance(20); // keeps the key under its 100 requests per second
      await h.call('POST', '/v1/jobs', {
        key: fresh.liveKey,
        body: { type: 'text', data: `j${i}`, deviceId: dev },
      });
    }
    const list = (q: string) => h.call('GET', `/v1/jobs${q}`, { key: fresh.liveKey });
    assert.equal((await list('')).body.data.length, 25);
    assert.equal((await list('?limit=1')).body.data.length, 1);
    const hundred = await list('?limit=100');
    assert.equal(hundred.body.data.length, 100);
    assert.equal(typeof hundred.body.nextCursor, 'string');
    for (const bad of ['0', '101', 'abc', '1.5', '-1', '']) {
      const res = await list(`?limit=${bad}`);
      assert.equal(res.status, 400, `limit=${bad}`);
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.equal(res.body.error.details[0].path, 'limit');
    }
    const bogusCursor = await list('?cursor=bm90LWEtY3Vyc29y');
    assert.equal(bogusCursor.status, 400);
  });

  test('pages come newest first and a cursor stays correct while new jobs arrive', async () => {
    const fresh = await h.org('starter');
    const dev = (
      await h.store.inventory.createDevice(
        fresh.orgId,
        { name: 'T', os: 'linux', arch: 'x64', agentVersion: '1' },
        h.clock.now(),
      )
    ).id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      h.clock.advance(1000);
      ids.push(
        (
          await h.call('POST', '/v1/jobs', {
            key: fresh.liveKey,
            body: { type: 'text', data: `j${i}`, deviceId: dev },
          })
        ).body.id,
      );
    }
    const page1 = await h.call('GET', '/v1/jobs?limit=2', { key: fresh.liveKey });
    assert.deepEqual(
      page1.body.data.map((j: { id: string }) => j.id),
      [ids[4], ids[3]],
    );
    h.clock.advance(1000);
    await h.call('POST', '/v1/jobs', {
      key: fresh.liveKey,
      body: { type: 'text', data: 'new', deviceId: dev },
    });
    const page2 = await h.call('GET', `/v1/jobs?limit=2&cursor=${page1.body.nextCursor}`, {
      key: fresh.liveKey,
    });
    assert.deepEqual(
      page2.body.data.map((j: { id: string }) => j.id),
      [ids[2], ids[1]],
    );
    const page3 = await h.call('GET', `/v1/jobs?limit=2&cursor=${page2.body.nextCursor}`, {
      key: fresh.liveKey,
    });
    assert.deepEqual(
      page3.body.data.map((j: { id: string }) => j.id),
      [ids[0]],
    );
    assert.equal(page3.body.nextCursor, null);
  });

  test('jobs filter by from, to, printerId, deviceId, state and metadata.<key>', async () => {
    const fresh = await h.org('starter');
    const now = h.clock.now();
    const dev = await h.store.inventory.createDevice(
      fresh.orgId,
      { name: 'T', os: 'linux', arch: 'x64', agentVersion: '1' },
      now,
    );
    const p1 = await h.store.inventory.createPrinter(
      fresh.orgId,
      dev.id,
      { agentPrinterId: 'a', name: 'A', connection: 'usb', kind: 'receipt' },
      now,
    );
    const key = fresh.liveKey;
    const mk = (body: Record<string, unknown>) =>
      h.call('POST', '/v1/jobs', { key, body: { type: 'text', data: 'x', ...body } });
    const a = (await mk({ printerId: p1.id, metadata: { order: '42', shop: 'north' } })).body;
    h.clock.advance(60_000);
    const b = (await mk({ deviceId: dev.id, metadata: { order: '43', shop: 'north' } })).body;
    await h.call('POST', `/v1/jobs/${b.id}/cancel`, { key });
    const ids = async (q: string) => {
      const res = await h.call('GET', `/v1/jobs?${q}`, { key });
      assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
      return res.body.data.map((j: { id: string }) => j.id);
    };
    assert.deepEqual(await ids('metadata.order=42'), [a.id]);
    assert.deepEqual(await ids('metadata.shop=north'), [b.id, a.id]);
    assert.deepEqual(await ids('metadata.shop=north&metadata.order=43'), [b.id]);
    assert.deepEqual(await ids('metadata.order=44'), []);
    assert.deepEqual(await ids(`printerId=${p1.id}`), [a.id]);
    assert.deepEqual(await ids(`deviceId=${dev.id}`), [b.id, a.id]);
    assert.deepEqual(await ids('state=cancelled'), [b.id]);
    assert.deepEqual(await ids('state=queued'), [a.id]);
    assert.deepEqual(await ids(`from=${encodeURIComponent(b.createdAt)}`), [b.id]);
    assert.deepEqual(await ids(`to=${encodeURIComponent(b.createdAt)}`), [a.id]);
    assert.equal((await h.call('GET', '/v1/jobs?state=done', { key })).status, 400);
    assert.equal((await h.call('GET', '/v1/jobs?from=yesterday', { key })).status, 400);
  });

  test('GET /v1/jobs/{id} returns the job with its events, and 404 JOB_NOT_FOUND for no job', async () => {
    const job = await create();
    const res = await h.call('GET', `/v1/jobs/${job.id}`, { key: org.liveKey });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, job);
    const missing = await h.call('GET', '/v1/jobs/job_00000000000000000000000000', {
      key: org.liveKey,
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'JOB_NOT_FOUND');
    const otherMode = await h.call('GET', `/v1/jobs/${job.id}`, { key: org.testKey });
    assert.equal(otherMode.status, 404, 'a test key does not see live jobs');
  });

  test('cancel moves a queued job to cancelled with job.cancelled recorded; a finished job is 409 JOB_ALREADY_FINISHED', async () => {
    const job = await create();
    const seen = h.events.length;
    const res = await h.call('POST', `/v1/jobs/${job.id}/cancel`, { key: org.liveKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.state, 'cancelled');
    assert.deepEqual(
      res.body.events.map((e: { state: string }) => e.state),
      ['queued', 'cancelled'],
    );
    const published = h.events.slice(seen).filter((e) => e.jobId === job.id);
    assert.deepEqual(
      published.map((e) => e.state),
      ['cancelled'],
    );
    const again = await h.call('POST', `/v1/jobs/${job.id}/cancel`, { key: org.liveKey });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'JOB_ALREADY_FINISHED');
    const sandbox = await create({ deviceId: undefined }, org.testKey);
    const printed = await h.call('POST', `/v1/jobs/${sandbox.id}/cancel`, { key: org.testKey });
    assert.equal(printed.status, 409);
    assert.equal(printed.body.error.code, 'JOB_ALREADY_FINISHED');
    const missing = await h.call('POST', '/v1/jobs/job_nope/cancel', { key: org.liveKey });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'JOB_NOT_FOUND');
  });

  test('a job being sent cannot be cancelled (409 CONFLICT)', async () => {
    const job = await create();
    await h.cloud.jobs.transition(org.orgId, job.id, 'sending', {});
    const res = await h.call('POST', `/v1/jobs/${job.id}/cancel`, { key: org.liveKey });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'CONFLICT');
  });

  test('reprint creates a new job with metadata.reprintOf and the same content; Idempotency-Key is honoured', async () => {
    const job = await create({ metadata: { order: '7' } });
    const res = await h.call('POST', `/v1/jobs/${job.id}/reprint`, {
      key: org.liveKey,
      headers: { 'idempotency-key': 'rp-1' },
    });
    assert.equal(res.status, 201);
    assert.notEqual(res.body.id, job.id);
    assert.deepEqual(res.body.metadata, { order: '7', reprintOf: job.id });
    assert.equal(res.body.state, 'queued');
    assert.equal(res.body.deviceId, deviceId);
    const original = await h.store.jobs.getContent(org.orgId, 'live', job.id);
    const copy = await h.store.jobs.getContent(org.orgId, 'live', res.body.id);
    assert.deepEqual(copy?.content, original?.content);
    const again = await h.call('POST', `/v1/jobs/${job.id}/reprint`, {
      key: org.liveKey,
      headers: { 'idempotency-key': 'rp-1' },
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, res.body.id);
    const missing = await h.call('POST', '/v1/jobs/job_nope/reprint', { key: org.liveKey });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'JOB_NOT_FOUND');
  });

  test('a queued job past expiresAt fails with EXPIRED when the sweeper runs', async () => {
    const job = await create({ options: { expireAfter: 60 } });
    h.clock.advance(59_999);
    await h.cloud.sweeper.sweep();
    assert.equal(
      (await h.call('GET', `/v1/jobs/${job.id}`, { key: org.liveKey })).body.state,
      'queued',
    );
    h.clock.advance(1);
    await h.cloud.sweeper.sweep();
    const res = await h.call('GET', `/v1/jobs/${job.id}`, { key: org.liveKey });
    assert.equal(res.body.state, 'failed');
    assert.equal(res.body.errorCode, 'EXPIRED');
    assert.deepEqual(
      res.body.events.map((e: { state: string; errorCode: string | null }) => [
        e.state,
        e.errorCode,
      ]),
      [
        ['queued', null],
        ['failed', 'EXPIRED'],
      ],
    );
    assert.ok(
      h.events.some((e) => e.jobId === job.id && e.state === 'failed' && e.errorCode === 'EXPIRED'),
    );
  });

  test('content is kept for the organization’s retention days after the job finishes, then reprint is 409 CONFLICT', async () => {
    await h.store.organizations.update(org.orgId, { retentionDays: 1 }, h.clock.now());
    const job = await create({}, org.testKey);
    assert.equal(job.contentRetained, true);
    h.clock.advance(86_400_000 - 1);
    await h.cloud.sweeper.sweep();
    assert.equal(
      (await h.call('GET', `/v1/jobs/${job.id}`, { key: org.testKey })).body.contentRetained,
      true,
    );
    h.clock.advance(1);
    await h.cloud.sweeper.sweep();
    const res = await h.call('GET', `/v1/jobs/${job.id}`, { key: org.testKey });
    assert.equal(res.body.contentRetained, false);
    assert.equal(res.body.hasPreview, false);
    const preview = await h.call('GET', `/v1/jobs/${job.id}/preview`, { key: org.testKey });
    assert.equal(preview.status, 404);
    assert.equal(preview.body.error.code, 'NOT_FOUND');
    const reprint = await h.call('POST', `/v1/jobs/${job.id}/reprint`, { key: org.testKey });
    assert.equal(reprint.status, 409);
    assert.equal(reprint.body.error.code, 'CONFLICT');
  });

  test('with retention 0 the content is deleted as soon as the job finishes', async () => {
    const fresh = await h.org('starter');
    await h.store.organizations.update(fresh.orgId, { retentionDays: 0 }, h.clock.now());
    const res = await h.call('POST', '/v1/jobs', {
      key: fresh.testKey,
      body: { type: 'receipt', data: { blocks: [{ type: 'text', value: 'x' }] } },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.state, 'printed');
    assert.equal(res.body.contentRetained, false);
    assert.equal(res.body.hasPreview, false);
    assert.equal(
      (await h.call('GET', `/v1/jobs/${res.body.id}/preview`, { key: fresh.testKey })).status,
      404,
    );
    assert.equal(
      (await h.call('POST', `/v1/jobs/${res.body.id}/reprint`, { key: fresh.testKey })).status,
      409,
    );
    const dev = (
      await h.store.inventory.createDevice(
        fresh.orgId,
        { name: 'T', os: 'linux', arch: 'x64', agentVersion: '1' },
        h.clock.now(),
      )
    ).id;
    const live = await h.call('POST', '/v1/jobs', {
      key: fresh.liveKey,
      body: { type: 'text', data: 'x', deviceId: dev },
    });
    assert.equal(
      live.body.contentRetained,
      true,
      'a queued job keeps its content until it finishes',
    );
    const cancelled = await h.call('POST', `/v1/jobs/${live.body.id}/cancel`, {
      key: fresh.liveKey,
    });
    assert.equal(cancelled.body.contentRetained, false);
  });
});
