import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RedisBus } from '../../bus/redis.js';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';
import { openEventStream, type EventStreamReader } from '../../testing/event-stream.js';
import { REDIS_URL, redisReachable } from '../../testing/redis.js';
import { openTestStore } from '../../testing/stores.js';

const receipt = { type: 'receipt', data: { blocks: [{ type: 'text', value: 'Live' }] } };

describe('the dashboard event stream', () => {
  let h: DashboardHarness;
  let owner: Person;
  let orgId: string;
  const streams: EventStreamReader[] = [];
  const open = async (query: string, headers: Record<string, string> = {}) => {
    const s = await openEventStream(`${h.url}/orgs/${orgId}/events${query}`, headers);
    streams.push(s);
    return s;
  };
  before(async () => {
    h = await startDashboard({ events: { heartbeatMs: 50, sessionCheckMs: 50 } });
    owner = await h.person('Streamer');
    orgId = (await h.call('POST', '/orgs', { token: owner.access, body: { name: 'Live' } })).body
      .id;
  });
  after(async () => {
    for (const s of streams) s.close();
    await h.close();
  });

  test('a test job created from the dashboard streams queued, sending and printed to test-mode streams only', async () => {
    const test = await open(`?mode=test&access_token=${owner.access}`);
    const live = await open('', { authorization: `Bearer ${owner.access}` });
    assert.equal(test.status, 200);
    await test.next((e) => e.event === 'ready');
    await live.next((e) => e.event === 'ready');
    const created = await h.call('POST', `/orgs/${orgId}/jobs?mode=test`, {
      token: owner.access,
      body: receipt,
    });
    assert.equal(created.status, 201);
    const jobId = created.body.id as string;
    for (const state of ['queued', 'sending', 'printed']) {
      const e = await test.next((x) => x.event === 'job' && x.data.state === state);
      assert.equal(e.data.jobId, jobId);
      assert.equal(e.data.job.id, jobId);
    }
    // A live stream has seen no test job (the ready event only), and heartbeats keep it open.
    await live.heartbeat();
    assert.deepEqual(
      live.events.map((e) => e.event),
      ['ready'],
    );
  });

  test('printer and device changes reach every stream of the organization', async () => {
    const s = await open(`?access_token=${owner.access}`);
    await s.next((e) => e.event === 'ready');
    await h.bus.publish({
      type: 'printer.paper_out',
      organizationId: orgId,
      deviceId: 'dev_1',
      printerId: 'prn_1',
      at: new Date().toISOString(),
      resource: { id: 'prn_1', status: 'paper_out' },
    });
    const e = await s.next((x) => x.event === 'printer');
    assert.deepEqual(e.data, {
      type: 'printer.paper_out',
      printerId: 'prn_1',
      deviceId: 'dev_1',
      at: e.data.at,
      printer: { id: 'prn_1', status: 'paper_out' },
    });
  });

  test('a printer setting changed in one dashboard tells the other open pages to ask again', async () => {
    const s = await open(`?access_token=${owner.access}`);
    await s.next((e) => e.event === 'ready');
    // What PATCH /orgs/{orgId}/printers/{id} publishes once the agents are to hear of it.
    await h.bus.publish({ type: 'agents.config_changed', organizationId: orgId });
    const e = await s.next((x) => x.event === 'printer');
    assert.deepEqual(e.data, { type: 'printers.settings_changed' });
  });

  test('no token is 401, another organization’s member is 404', async () => {
    assert.equal((await open('')).status, 401);
    assert.equal((await open('?access_token=nope')).status, 401);
    const stranger = await h.person('Stranger');
    assert.equal((await open(`?access_token=${stranger.access}`)).status, 404);
  });

  test('logging out ends the stream with session_ended', async () => {
    const person = await h.login(owner);
    const s = await open(`?access_token=${person.access}`);
    await s.next((e) => e.event === 'ready');
    const out = await h.call('POST', '/auth/logout', {
      token: person.access,
      cookie: person.cookie,
    });
    assert.ok(out.status < 300, `logout ${out.status}`);
    const ended = await s.next((e) => e.event === 'session_ended');
    assert.equal(ended.data.reason, 'session');
    await s.ended;
  });

  test('an access token that expires ends the stream', async () => {
    const person = await h.login(owner);
    const s = await open(`?access_token=${person.access}`);
    await s.next((e) => e.event === 'ready');
    h.clock.advance(16 * 60_000);
    await s.next((e) => e.event === 'session_ended');
    await s.ended;
    owner = await h.login(owner);
  });
});

describe('the event stream across two instances on Redis', async () => {
  const skip = (await redisReachable()) ? false : `Redis is unreachable at ${REDIS_URL}`;
  let a: DashboardHarness;
  let b: DashboardHarness;
  let buses: RedisBus[] = [];
  let cleanup: () => Promise<void> = () => Promise.resolve();
  before(async () => {
    if (skip) return;
    const shared = await openTestStore('sqlite');
    cleanup = shared.cleanup;
    const prefix = `pw-sse-${process.pid}-${Date.now()}:`;
    buses = [RedisBus.connect(REDIS_URL, { prefix }), RedisBus.connect(REDIS_URL, { prefix })];
    a = await startDashboard({ store: shared.store, bus: buses[0] });
    b = await startDashboard({ store: shared.store, bus: buses[1] });
  });
  after(async () => {
    if (skip) return;
    await a.close();
    await b.close();
    await Promise.all(buses.map((bus) => bus.close()));
    await cleanup();
  });

  test('a job created on one instance streams from the other', { skip }, async () => {
    const owner = await a.person('TwoInstances');
    const orgId = (await a.call('POST', '/orgs', { token: owner.access, body: { name: 'Two' } }))
      .body.id as string;
    const s = await openEventStream(
      `${b.url}/orgs/${orgId}/events?mode=test&access_token=${owner.access}`,
    );
    try {
      await s.next((e) => e.event === 'ready');
      const created = await a.call('POST', `/orgs/${orgId}/jobs?mode=test`, {
        token: owner.access,
        body: receipt,
      });
      assert.equal(created.status, 201);
      const printed = await s.next((e) => e.event === 'job' && e.data.state === 'printed');
      assert.equal(printed.data.jobId, created.body.id);
    } finally {
      s.close();
    }
  });
});
