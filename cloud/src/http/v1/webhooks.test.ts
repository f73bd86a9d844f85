import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { storeKinds } from '../../testing/stores.js';
import { startHarness, type Harness } from '../../testing/harness.js';
import { startReceiver, type Receiver } from '../../testing/webhook-receiver.js';

describe('/v1/webhooks', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
  });

  test('a Business organization creates an endpoint and sees its secret only once', async () => {
    const org = await h.org('business');
    const created = await h.call('POST', '/v1/webhooks', {
      key: org.liveKey,
      body: { url: 'http://127.0.0.1:9/hook', events: ['job.printed'], description: 'till' },
    });
    assert.equal(created.status, 201);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(Object.keys(created.body.webhook).sort(), [
      'createdAt',
      'description',
      'disabledReason',
      'enabled',
      'events',
      'id',
      'updatedAt',
      'url',
    ]);
    assert.equal(created.body.webhook.enabled, true);
    const list = await h.call('GET', '/v1/webhooks', { key: org.liveKey });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, { data: [created.body.webhook], nextCursor: null });
    assert.ok(!list.raw.toString().includes(created.body.secret));
  });

  test('below the Business plan every webhook call answers 403 PLAN_REQUIRED', async () => {
    for (const plan of ['free', 'starter'] as const) {
      const org = await h.org(plan);
      const body = { url: 'http://127.0.0.1:9/hook', events: ['job.printed'] };
      const created = await h.call('POST', '/v1/webhooks', { key: org.liveKey, body });
      assert.equal(created.status, 403);
      assert.equal(created.body.error.code, 'PLAN_REQUIRED');
      const list = await h.call('GET', '/v1/webhooks', { key: org.liveKey });
      assert.equal(list.body.error.code, 'PLAN_REQUIRED');
    }
    const enterprise = await h.org('enterprise');
    const ok = await h.call('POST', '/v1/webhooks', {
      key: enterprise.liveKey,
      body: { url: 'http://127.0.0.1:9/hook', events: ['job.printed'] },
    });
    assert.equal(ok.status, 201);
  });

  test('events outside the spec’s list, and webhook.test, are refused', async () => {
    const org = await h.org('business');
    for (const events of [['job.exploded'], ['webhook.test'], []]) {
      const res = await h.call('POST', '/v1/webhooks', {
        key: org.liveKey,
        body: { url: 'http://127.0.0.1:9/hook', events },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.equal(res.body.error.details[0].path, events.length ? 'events[0]' : 'events');
    }
  });

  test('an endpoint belongs to its key’s mode: the other mode neither lists nor deletes it', async () => {
    const org = await h.org('business');
    const created = await h.call('POST', '/v1/webhooks', {
      key: org.testKey,
      body: { url: 'http://127.0.0.1:9/hook', events: ['job.queued'] },
    });
    const id = created.body.webhook.id;
    assert.deepEqual((await h.call('GET', '/v1/webhooks', { key: org.liveKey })).body.data, []);
    const wrongMode = await h.call('DELETE', `/v1/webhooks/${id}`, { key: org.liveKey });
    assert.equal(wrongMode.status, 404);
    const deleted = await h.call('DELETE', `/v1/webhooks/${id}`, { key: org.testKey });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.id, id);
    assert.deepEqual((await h.call('GET', '/v1/webhooks', { key: org.testKey })).body.data, []);
    assert.equal((await h.call('DELETE', `/v1/webhooks/${id}`, { key: org.testKey })).status, 404);
  });

  test('an organization has at most 20 endpoints, and lists page through them', async () => {
    const org = await h.org('business');
    const body = { url: 'http://127.0.0.1:9/hook', events: ['job.printed'] };
    for (let i = 0; i < 20; i++) {
      assert.equal((await h.call('POST', '/v1/webhooks', { key: org.liveKey, body })).status, 201);
    }
    const over = await h.call('POST', '/v1/webhooks', { key: org.liveKey, body });
    assert.equal(over.status, 400);
    assert.match(over.body.error.message, /at most 20 webhook endpoints/);
    const first = await h.call('GET', '/v1/webhooks?limit=15', { key: org.liveKey });
    assert.equal(first.body.data.length, 15);
    const second = await h.call('GET', `/v1/webhooks?limit=15&cursor=${first.body.nextCursor}`, {
      key: org.liveKey,
    });
    assert.equal(second.body.data.length, 5);
    assert.equal(second.body.nextCursor, null);
    const ids = new Set([...first.body.data, ...second.body.data].map((w) => w.id));
    assert.equal(ids.size, 20);
  });

  test('a test job’s events reach a receiver on 127.0.0.1, signed with the endpoint’s secret', async () => {
    const receiver: Receiver = await startReceiver();
    await h.cloud.webhooks.start();
    try {
      const org = await h.org('business');
      const created = await h.call('POST', '/v1/webhooks', {
        key: org.testKey,
        body: { url: receiver.url, events: ['job.queued', 'job.printed'] },
      });
      const { secret } = created.body;
      // A live endpoint of the same organization hears nothing of test-mode jobs.
      await h.call('POST', '/v1/webhooks', {
        key: org.liveKey,
        body: { url: receiver.url, events: ['job.queued', 'job.printed'] },
      });
      const job = await h.call('POST', '/v1/jobs', {
        key: org.testKey,
        body: { type: 'text', data: 'hello' },
      });
      assert.equal(job.status, 201);
      await receiver.waitFor(2);
      const types = receiver.received.map((r) => r.body.type).sort();
      assert.deepEqual(types, ['job.printed', 'job.queued']);
      for (const r of receiver.received) {
        assert.equal(r.headers['user-agent'], 'Printwire-Webhooks/1');
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.headers['printwire-event-id'], r.body.id);
        assert.equal(r.body.organizationId, org.orgId);
        const job2 = r.body.data.job as { id: string; state: string };
        assert.equal(job2.id, job.body.id);
        // The signature, checked with node:crypto rather than our verifier.
        const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['printwire-signature']));
        assert.ok(m, 'signature header form');
        const expected = createHmac('sha256', secret).update(`${m[1]}.${r.raw}`).digest();
        assert.ok(timingSafeEqual(expected, Buffer.from(m[2]!, 'hex')));
      }
      const printed = receiver.received.find((r) => r.body.type === 'job.printed')!;
      const read = await h.call('GET', `/v1/jobs/${job.body.id}`, { key: org.testKey });
      const { events: _events, ...readJob } = read.body;
      assert.deepEqual(printed.body.data.job, readJob);
      // Each event shows the job as it was at that event, though both were written at once.
      const queued = receiver.received.find((r) => r.body.type === 'job.queued')!;
      const queuedJob = queued.body.data.job as { state: string; printedAt: string | null };
      assert.equal(queuedJob.state, 'queued');
      assert.equal(queuedJob.printedAt, null);
      await h.cloud.webhooks.settled();
      await h.cloud.webhooks.worker.drain();
      assert.equal(receiver.received.length, 2);
    } finally {
      await h.cloud.webhooks.stop();
      await receiver.close();
    }
  });
});

describe('/v1/webhooks in production', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ production: true });
  });
  after(async () => {
    await h.close();
  });

  test('refuses at creation every URL that is not https to a public address', async () => {
    const org = await h.org('business');
    for (const url of [
      'http://hooks.example.com/in',
      'https://127.0.0.1/in',
      'https://2130706433/in',
      'https://0177.0.0.1/in',
      'https://0x7f.1/in',
      'https://169.254.169.254/in',
      'https://[::ffff:10.0.0.1]/in',
      'https://[fd00::1]/in',
      'https://u:p@hooks.example.com/in',
    ]) {
      const res = await h.call('POST', '/v1/webhooks', {
        key: org.liveKey,
        body: { url, events: ['job.printed'] },
      });
      assert.equal(res.status, 400, url);
      assert.equal(res.body.error.details[0].path, 'url');
    }
    const ok = await h.call('POST', '/v1/webhooks', {
      key: org.liveKey,
      body: { url: 'https://hooks.example.com/in', events: ['job.printed'] },
    });
    assert.equal(ok.status, 201);
  });
});

describe('webhooks on every store', async () => {
  for (const { kind, skip } of await storeKinds()) {
    test(`endpoints and a signed delivery work on ${kind}`, { skip }, async () => {
      const h = await startHarness({ kind });
      const receiver = await startReceiver();
      await h.cloud.webhooks.start();
      try {
        const org = await h.org('business');
        const created = await h.call('POST', '/v1/webhooks', {
          key: org.testKey,
          body: { url: receiver.url, events: ['job.printed'] },
        });
        assert.equal(created.status, 201);
        const list = await h.call('GET', '/v1/webhooks?limit=1', { key: org.testKey });
        assert.deepEqual(list.body.data, [created.body.webhook]);
        const job = await h.call('POST', '/v1/jobs', {
          key: org.testKey,
          body: { type: 'text', data: 'hello' },
        });
        await receiver.waitFor(1);
        assert.equal(receiver.received[0]!.body.type, 'job.printed');
        assert.equal((receiver.received[0]!.body.data.job as { id: string }).id, job.body.id);
        await h.cloud.webhooks.settled();
        await h.cloud.webhooks.worker.drain();
        const page = await h.cloud.webhooks.deliveries(
          (await h.store.organizations.get(org.orgId))!,
          created.body.webhook.id,
          { limit: 5 },
        );
        assert.equal(page.data[0]!.state, 'succeeded');
        assert.equal(page.data[0]!.responseStatus, 200);
        const del = await h.call('DELETE', `/v1/webhooks/${created.body.webhook.id}`, {
          key: org.testKey,
        });
        assert.equal(del.status, 200);
      } finally {
        await h.cloud.webhooks.stop();
        await receiver.close();
        await h.close();
      }
    });
  }
});
