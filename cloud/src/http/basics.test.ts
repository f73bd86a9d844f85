import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createApiKey } from '../services/bootstrap.js';
import { startHarness, type Harness } from '../testing/harness.js';
import type { BootstrapResult } from '../services/bootstrap.js';

describe('request ids, error bodies and request bodies', () => {
  let h: Harness;
  let org: BootstrapResult;
  before(async () => {
    h = await startHarness();
    org = await h.org();
  });
  after(() => h.close());

  test('every response carries an x-request-id, and an error body repeats it', async () => {
    const ok = await h.call('GET', '/health/live');
    assert.match(ok.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
    const err = await h.call('GET', '/v1/jobs/job_nope', { key: org.testKey });
    assert.equal(err.status, 404);
    assert.equal(err.body.requestId, err.headers.get('x-request-id'));
    assert.deepEqual(Object.keys(err.body.error).sort(), ['code', 'message', 'retryable']);
    assert.equal(err.body.error.code, 'JOB_NOT_FOUND');
    assert.equal(err.body.error.retryable, false);
  });

  test('a sane incoming x-request-id is kept and an unsafe one replaced', async () => {
    const kept = await h.call('GET', '/health/live', {
      headers: { 'x-request-id': 'client-abc.123' },
    });
    assert.equal(kept.headers.get('x-request-id'), 'client-abc.123');
    const replaced = await h.call('GET', '/health/live', {
      headers: { 'x-request-id': 'a b<script>' },
    });
    assert.notEqual(replaced.headers.get('x-request-id'), 'a b<script>');
    const long = await h.call('GET', '/health/live', {
      headers: { 'x-request-id': 'x'.repeat(129) },
    });
    assert.notEqual(long.headers.get('x-request-id'), 'x'.repeat(129));
    const edge = await h.call('GET', '/health/live', {
      headers: { 'x-request-id': 'y'.repeat(128) },
    });
    assert.equal(edge.headers.get('x-request-id'), 'y'.repeat(128));
  });

  test('an unknown path is 404 NOT_FOUND in the error body shape', async () => {
    const res = await h.call('GET', '/v1/nothing-here', { key: org.testKey });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  });

  test('a path segment that is not percent-encoded UTF-8 is 400 VALIDATION_FAILED, not a 500', async () => {
    for (const id of ['%C0%AF', '%E0%A4%A', '%ED%A0%80']) {
      const res = await h.call('GET', `/v1/jobs/${id}`, { key: org.testKey });
      assert.equal(res.status, 400, id);
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.match(res.body.error.message, /percent-encoded UTF-8/);
      assert.equal(res.body.requestId, res.headers.get('x-request-id'));
    }
  });

  test('a body that claims gzip but is not is 400 VALIDATION_FAILED, not a 500', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: '{}',
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'VALIDATION_FAILED');
    assert.match(res.body.error.message, /could not be read/);
  });

  test('malformed JSON is 400 INVALID_JSON', async () => {
    const res = await h.call('POST', '/v1/jobs', { key: org.testKey, body: '{"type": "text",' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'INVALID_JSON');
  });

  test('a body that is not application/json is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: 'type=text',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 415);
    assert.equal(res.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('every spelling of application/json is read as JSON, and JSON under another type is not', async () => {
    const body = JSON.stringify({ type: 'text', data: 'hello' });
    for (const type of [
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json;charset=UTF-8',
    ]) {
      const res = await h.call('POST', '/v1/jobs', {
        key: org.testKey,
        body,
        headers: { 'content-type': type },
      });
      assert.equal(res.status, 201, type);
    }
    for (const type of ['text/plain', 'application/jsonx', 'text/json']) {
      const res = await h.call('POST', '/v1/jobs', {
        key: org.testKey,
        body,
        headers: { 'content-type': type },
      });
      assert.equal(res.status, 415, type);
    }
  });

  test('a body of exactly 5 MB is accepted and one byte more is 413 PAYLOAD_TOO_LARGE', async () => {
    const limit = 5 * 1024 * 1024;
    const shell = JSON.stringify({ type: 'text', data: '' });
    const atLimit = JSON.stringify({ type: 'text', data: 'x'.repeat(limit - shell.length) });
    assert.equal(Buffer.byteLength(atLimit), limit);
    const ok = await h.call('POST', '/v1/jobs', { key: org.testKey, body: atLimit });
    assert.equal(ok.status, 201);
    const over = JSON.stringify({ type: 'text', data: 'x'.repeat(limit - shell.length + 1) });
    const res = await h.call('POST', '/v1/jobs', { key: org.testKey, body: over });
    assert.equal(res.status, 413);
    assert.equal(res.body.error.code, 'PAYLOAD_TOO_LARGE');
  });
});

describe('API keys and scopes', () => {
  let h: Harness;
  let org: BootstrapResult;
  before(async () => {
    h = await startHarness();
    org = await h.org();
  });
  after(() => h.close());

  test('a missing, malformed or unknown key is 401 UNAUTHORIZED', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer not-a-key' },
      { authorization: `Bearer pw_live_${'A'.repeat(32)}` },
    ];
    for (const headers of cases) {
      const res = await h.call('GET', '/v1/jobs', { headers });
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(res.body.error.code, 'UNAUTHORIZED');
    }
  });

  test('a revoked key is 401 UNAUTHORIZED at once', async () => {
    const key = await createApiKey(h.store, org.orgId, 'live', h.clock.now());
    assert.equal((await h.call('GET', '/v1/me', { key: key.key })).status, 200);
    await h.store.organizations.revokeApiKey(org.orgId, key.id, h.clock.now());
    const res = await h.call('GET', '/v1/me', { key: key.key });
    assert.equal(res.status, 401);
    assert.match(res.body.error.message, /revoked/);
  });

  test('a key without the scope is 403 FORBIDDEN naming the scope, and /v1/me takes any key', async () => {
    const key = await createApiKey(h.store, org.orgId, 'test', h.clock.now(), ['printers:read']);
    const cases: Array<[string, string, string]> = [
      ['GET', '/v1/jobs', 'jobs:read'],
      ['POST', '/v1/jobs', 'jobs:write'],
      ['GET', '/v1/jobs/job_x', 'jobs:read'],
      ['GET', '/v1/jobs/job_x/preview', 'jobs:read'],
      ['POST', '/v1/jobs/job_x/cancel', 'jobs:write'],
      ['POST', '/v1/jobs/job_x/reprint', 'jobs:write'],
      ['GET', '/v1/devices', 'devices:read'],
      ['GET', '/v1/devices/dev_x', 'devices:read'],
      ['GET', '/v1/templates', 'jobs:read'],
      ['GET', '/v1/templates/tpl_x', 'jobs:read'],
      ['POST', '/v1/receipt/preview', 'jobs:write'],
    ];
    for (const [method, path, scope] of cases) {
      const res = await h.call(method, path, { key: key.key });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error.code, 'FORBIDDEN');
      assert.ok(res.body.error.message.includes(scope), res.body.error.message);
    }
    assert.equal((await h.call('GET', '/v1/printers', { key: key.key })).status, 200);
    const me = await h.call('GET', '/v1/me', { key: key.key });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.key.scopes, ['printers:read']);
  });

  test('GET /v1/me shows the organization, the key, the plan and this month’s usage', async () => {
    const res = await h.call('GET', '/v1/me', { key: org.liveKey });
    assert.equal(res.body.organization.id, org.orgId);
    assert.equal(res.body.key.mode, 'live');
    assert.ok(res.body.key.prefix.startsWith('pw_live_'));
    assert.equal(res.body.plan.name, 'free');
    assert.equal(res.body.plan.monthlyJobs, 1000);
    assert.equal(res.body.usage.period, '2026-03');
    const before = res.body.usage.liveJobs;
    await h.store.inventory.createDevice(
      org.orgId,
      { name: 'Till', os: 'linux', arch: 'x64', agentVersion: '1.0.0' },
      h.clock.now(),
    );
    const created = await h.call('POST', '/v1/jobs', {
      key: org.liveKey,
      body: {
        type: 'text',
        data: 'hi',
        deviceId: (await h.call('GET', '/v1/devices', { key: org.liveKey })).body.data[0].id,
      },
    });
    assert.equal(created.status, 201);
    const after = await h.call('GET', '/v1/me', { key: org.liveKey });
    assert.equal(after.body.usage.liveJobs, before + 1);
    assert.equal(after.body.usage.remaining, 1000 - before - 1);
  });
});

describe('rate limit', () => {
  let h: Harness;
  let org: BootstrapResult;
  before(async () => {
    h = await startHarness({ limits: { rateLimitPerSecond: 5, rateLimitBurst: 5 } });
    org = await h.org();
  });
  after(() => h.close());

  test('a key gets its rate per second, then 429 RATE_LIMITED with Retry-After, and again once time passes', async () => {
    for (let i = 0; i < 5; i++)
      assert.equal((await h.call('GET', '/v1/me', { key: org.testKey })).status, 200);
    const limited = await h.call('GET', '/v1/me', { key: org.testKey });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'RATE_LIMITED');
    assert.equal(limited.body.error.retryable, true);
    assert.equal(limited.headers.get('retry-after'), '1');
    const otherKey = await h.call('GET', '/v1/me', { key: org.liveKey });
    assert.equal(otherKey.status, 200, 'each key has its own bucket');
    h.clock.advance(200);
    assert.equal((await h.call('GET', '/v1/me', { key: org.testKey })).status, 200);
    assert.equal((await h.call('GET', '/v1/me', { key: org.testKey })).status, 429);
  });
});

describe('health', () => {
  test('ready is 200 while the store and the cache answer, and 503 naming the cache store when it does not', async () => {
    let cacheUp = true;
    const cache = {
      takeToken: async () => ({ allowed: true, remaining: 1, retryAfterMs: 0 }),
      ping: async () => {
        if (!cacheUp) throw new Error('down');
      },
      close: async () => undefined,
    };
    const h = await startHarness({ cache });
    try {
      assert.equal((await h.call('GET', '/health/live')).status, 200);
      const ready = await h.call('GET', '/health/ready');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body.checks, { database: 'ok', cache: 'ok' });
      cacheUp = false;
      const down = await h.call('GET', '/health/ready');
      assert.equal(down.status, 503);
      assert.equal(down.body.error.code, 'UNAVAILABLE');
      assert.match(down.body.error.message, /cache store/);
      assert.doesNotMatch(down.body.error.message, /database/);
    } finally {
      await h.close();
    }
  });
});

describe('unexpected failures', () => {
  test('an internal failure is 500 INTERNAL without its details, and logged', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line));
        done();
      },
    });
    const h = await startHarness({ logger: pino({ level: 'error' }, sink) });
    const org = await h.org();
    const list = h.store.jobs.list.bind(h.store.jobs);
    h.store.jobs.list = async () => {
      throw new Error('disk I/O error at /secret/path/printwire.db');
    };
    try {
      const res = await h.call('GET', '/v1/jobs', { key: org.testKey });
      assert.equal(res.status, 500);
      assert.equal(res.body.error.code, 'INTERNAL');
      assert.equal(res.body.error.retryable, true);
      assert.doesNotMatch(JSON.stringify(res.body), /secret|disk/);
      assert.ok(
        lines.some(
          (l) => l.requestId === res.body.requestId && JSON.stringify(l).includes('disk I/O'),
        ),
      );
    } finally {
      h.store.jobs.list = list;
      await h.close();
    }
  });
});

describe('logs', () => {
  test('each request is logged as one JSON line carrying its request id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line));
        done();
      },
    });
    const h = await startHarness({ logger: pino({ level: 'info' }, sink) });
    try {
      const res = await h.call('GET', '/v1/jobs', { headers: { 'x-request-id': 'trace-42' } });
      assert.equal(res.status, 401);
      const line = lines.find((l) => l.requestId === 'trace-42');
      assert.ok(line, JSON.stringify(lines));
      assert.equal(line.status, 401);
      assert.equal(line.path, '/v1/jobs');
    } finally {
      await h.close();
    }
  });
});
