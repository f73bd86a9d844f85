/**
 * Local mode through the gateway, with a fake agent on a real WebSocket: what the agent's
 * configuration carries (templates by the version rule, local settings, public keys), that every
 * change made in the dashboard API is pushed to the organization's agents, and how job.local
 * reports become jobs (upserted, idempotent, counted once, announced once, never dispatched).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@printwire/shared/ids/index';
import {
  PROTOCOL_VERSION,
  type CloudMessageOf,
  type LocalJob,
  type PrinterInfo,
} from '@printwire/shared/protocol/index';
import { bootstrap } from '../services/bootstrap.js';
import {
  printerInfo,
  startGatewayHarness,
  TestAgent,
  type GatewayHarness,
} from '../testing/gateway.js';

type Config = CloudMessageOf<'config'>['config'];

const RECEIPT = '{"blocks":[{"type":"text","text":"{{name}}"}]}';

describe('local mode through the agent gateway', () => {
  let h: GatewayHarness;
  let n = 0;

  before(async () => {
    h = await startGatewayHarness();
  });
  after(() => h.close());

  /** An organization on `plan`, its owner's access token and a device of it. */
  async function shop(plan: 'free' | 'business' = 'business') {
    const email = `local${++n}-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    const org = await bootstrap(
      h.store,
      { email, password, org: `Local ${n}`, plan },
      h.clock.now(),
    );
    const login = await fetch(`${h.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const device = await h.activate(org);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${h.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const o = `/orgs/${org.orgId}`;
    /** One more device of the organization (an activation code is single use). */
    const anotherDevice = async () => {
      const code = await call('POST', `${o}/activation-codes`, {});
      return h.activate({ ...org, activationCode: code.body.code as string });
    };
    return { org, device, call, o, anotherDevice };
  }

  async function online(
    token: string,
    agentVersion = '1.1.0',
    printers: PrinterInfo[] = [printerInfo('prn_a')],
  ) {
    const agent = await TestAgent.connect(h.wsUrl, token);
    agent.send({
      type: 'hello',
      id: 'hello-1',
      protocolVersion: PROTOCOL_VERSION,
      agentVersion,
      os: 'linux',
      arch: 'x64',
      hostname: 'till',
      printers,
    });
    return { agent, welcome: await agent.next('welcome') };
  }

  const names = (config: Config) => (config.templates ?? []).map((t) => t.name).sort();

  describe('the configuration', () => {
    test('welcome carries every template and the local settings, defaults first', async () => {
      const s = await shop();
      for (const [name, type, content] of [
        ['label', 'zpl', '^XA^FD{{sku}}^FS^XZ'],
        ['receipt', 'receipt', RECEIPT],
        ['page', 'html', '<h1>{{title}}</h1>'],
      ] as const) {
        const res = await s.call('POST', `${s.o}/templates`, { name, type, content, paper: null });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      }
      const { agent, welcome } = await online(s.device.deviceToken);
      assert.deepEqual(names(welcome.config), ['label', 'page', 'receipt']);
      const label = welcome.config.templates!.find((t) => t.name === 'label')!;
      const stored = (await h.store.templates.list(s.org.orgId)).find((t) => t.name === 'label')!;
      assert.deepEqual(label, {
        id: stored.id,
        name: 'label',
        type: 'zpl',
        content: '^XA^FD{{sku}}^FS^XZ',
        paper: null,
        updatedAt: new Date(stored.updatedAt).toISOString(),
      });
      assert.deepEqual(welcome.config.local, {
        requireSignature: false,
        unsignedModeEnabled: false,
        devModeEnabled: false,
        allowedOrigins: [],
        signingKeys: [],
        localDownloadsToPrivateNetwork: false,
      });
      assert.equal(welcome.config.printers[0]!.agentPrinterId, 'prn_a');
      await agent.close();
    });

    test('agents before 1.0.1 receive no HTML templates, in welcome and in every push', async () => {
      const s = await shop();
      await s.call('POST', `${s.o}/templates`, { name: 'page', type: 'html', content: '<p>x</p>' });
      await s.call('POST', `${s.o}/templates`, { name: 'label', type: 'epl', content: 'N\nP1\n' });
      const versions: Array<[string, boolean]> = [
        ['1.0.0', false],
        ['0.9.9', false],
        ['1.0.1-beta.1', false],
        ['not a version', false],
        ['1.0.1', true],
        ['1.1.0', true],
        ['2.0.0', true],
      ];
      const agents = [];
      for (const [version, html] of versions) {
        const device = await s.anotherDevice();
        const { agent, welcome } = await online(device.deviceToken, version);
        const expected = html ? ['label', 'page'] : ['label'];
        assert.deepEqual(names(welcome.config), expected, `welcome of ${version}`);
        agents.push({ agent, version, expected });
      }
      const added = await s.call('POST', `${s.o}/templates`, {
        name: 'report',
        type: 'html',
        content: '<h1>r</h1>',
      });
      assert.equal(added.status, 201);
      for (const { agent, version, expected } of agents) {
        const pushed = await agent.next('config');
        const want = expected.includes('page') ? [...expected, 'report'] : expected;
        assert.deepEqual(names(pushed.config), want, `push to ${version}`);
        await agent.close();
      }
    });

    test('creating, changing and deleting a template reach a connected agent', async () => {
      const s = await shop();
      const { agent } = await online(s.device.deviceToken);
      const created = await s.call('POST', `${s.o}/templates`, {
        name: 'label',
        type: 'zpl',
        content: '^XA^FD{{a}}^FS^XZ',
      });
      const id = created.body.id as string;
      let config = (await agent.next('config')).config;
      assert.deepEqual(
        config.templates!.map((t) => [t.id, t.content]),
        [[id, '^XA^FD{{a}}^FS^XZ']],
      );
      h.clock.advance(1000);
      await s.call('PATCH', `${s.o}/templates/${id}`, { content: '^XA^FD{{b}}^FS^XZ' });
      config = (await agent.next('config')).config;
      assert.equal(config.templates![0]!.content, '^XA^FD{{b}}^FS^XZ');
      assert.equal(config.templates![0]!.updatedAt, new Date(h.clock.now()).toISOString());
      const gallery = await s.call('GET', '/gallery/templates');
      const pick = (gallery.body.data as Array<{ id: string; name: string; type: string }>).find(
        (g) => g.type === 'zpl',
      )!;
      assert.equal(
        (await s.call('POST', `${s.o}/templates/from-gallery`, { galleryId: pick.id })).status,
        201,
      );
      config = (await agent.next('config')).config;
      assert.deepEqual(names(config), ['label', pick.name].sort());
      await s.call('DELETE', `${s.o}/templates/${id}`);
      config = (await agent.next('config')).config;
      assert.deepEqual(names(config), [pick.name]);
      assert.deepEqual(
        config.printers.map((p) => p.agentPrinterId),
        ['prn_a'],
      );
      await agent.close();
    });

    test('signing keys, allowedOrigins and the four settings reach a connected agent; a revoked key leaves it', async () => {
      const s = await shop();
      const { agent } = await online(s.device.deviceToken);
      const created = await s.call('POST', `${s.o}/signing-keys`, { name: 'server' });
      assert.equal(created.status, 201);
      const key = created.body.signingKey as { id: string; publicKey: string };
      let local = (await agent.next('config')).config.local!;
      assert.deepEqual(local.signingKeys, [{ id: key.id, publicKey: key.publicKey }]);
      const patched = await s.call('PATCH', s.o, {
        allowedOrigins: ['https://shop.example.com'],
        requireSignature: true,
        devModeEnabled: true,
        localDownloadsToPrivateNetwork: true,
      });
      assert.equal(patched.status, 200);
      local = (await agent.next('config')).config.local!;
      assert.deepEqual(local, {
        requireSignature: true,
        unsignedModeEnabled: false,
        devModeEnabled: true,
        allowedOrigins: ['https://shop.example.com'],
        signingKeys: [{ id: key.id, publicKey: key.publicKey }],
        localDownloadsToPrivateNetwork: true,
      });
      await s.call('PATCH', s.o, { unsignedModeEnabled: true });
      assert.equal((await agent.next('config')).config.local!.unsignedModeEnabled, true);
      assert.equal((await s.call('DELETE', `${s.o}/signing-keys/${key.id}`)).status, 200);
      local = (await agent.next('config')).config.local!;
      assert.deepEqual(local.signingKeys, []);
      // A change agents do not hold (the name) pushes nothing; the next push is the next change.
      await s.call('PATCH', s.o, { name: 'Renamed' });
      await s.call('PATCH', s.o, { allowedOrigins: [] });
      local = (await agent.next('config')).config.local!;
      assert.deepEqual(local.allowedOrigins, []);
      assert.equal(agent.received.filter((m) => m.type === 'config').length, 0);
      await agent.close();
    });

    test('a change in one organization pushes nothing to another organization’s agents', async () => {
      const mine = await shop();
      const theirs = await shop();
      const { agent } = await online(mine.device.deviceToken);
      const other = await online(theirs.device.deviceToken);
      await theirs.call('POST', `${theirs.o}/signing-keys`, { name: 'theirs' });
      assert.equal((await other.agent.next('config')).config.local!.signingKeys.length, 1);
      await mine.call('PATCH', mine.o, { devModeEnabled: true });
      const pushed = await agent.next('config');
      assert.equal(pushed.config.local!.devModeEnabled, true);
      assert.deepEqual(pushed.config.local!.signingKeys, []);
      assert.equal(agent.received.filter((m) => m.type === 'config').length, 0);
      await agent.close();
      await other.agent.close();
    });

    test('every agent of the organization receives the push', async () => {
      const s = await shop();
      const second = await s.anotherDevice();
      const a = await online(s.device.deviceToken);
      const b = await online(second.deviceToken, '1.0.0', [printerInfo('prn_b')]);
      await s.call('PATCH', s.o, { allowedOrigins: ['https://a.example'] });
      const [ca, cb] = await Promise.all([a.agent.next('config'), b.agent.next('config')]);
      assert.deepEqual(ca.config.local!.allowedOrigins, ['https://a.example']);
      assert.deepEqual(cb.config.local!.allowedOrigins, ['https://a.example']);
      assert.deepEqual(
        ca.config.printers.map((p) => p.agentPrinterId),
        ['prn_a'],
      );
      assert.deepEqual(
        cb.config.printers.map((p) => p.agentPrinterId),
        ['prn_b'],
      );
      await a.agent.close();
      await b.agent.close();
    });
  });

  describe('job.local', () => {
    const at = (s: number) =>
      new Date(Date.parse('2026-03-10T10:00:00.000Z') + s * 1000).toISOString();

    function report(id: string, state: LocalJob['state'], extra: Partial<LocalJob> = {}): LocalJob {
      const events: LocalJob['events'] = [{ state: 'queued', errorCode: null, at: at(0) }];
      if (state !== 'queued') events.push({ state: 'sending', errorCode: null, at: at(1) });
      if (state === 'printed' || state === 'failed') {
        events.push({ state, errorCode: state === 'failed' ? 'PAPER_OUT' : null, at: at(2) });
      }
      const last = events.length - 1;
      return {
        id,
        idempotencyKey: null,
        agentPrinterId: 'prn_a',
        type: 'zpl',
        templateId: 'tpl_local',
        metadata: { order: '42' },
        state,
        attempt: state === 'queued' ? 0 : 1,
        errorCode: state === 'failed' ? 'PAPER_OUT' : null,
        errorMessage: state === 'failed' ? 'the printer has no paper' : null,
        createdAt: at(0),
        updatedAt: at(last),
        printedAt: state === 'printed' ? at(2) : null,
        events,
        ...extra,
      };
    }

    async function sendReport(agent: TestAgent, msgId: string, job: LocalJob) {
      agent.send({ type: 'job.local', id: msgId, job });
      const answer = await Promise.race([
        agent.next('ack', (m) => m.id === msgId),
        agent.next('error', (m) => m.replyTo === msgId),
      ]);
      return answer;
    }

    const listJobs = async (key: string) => {
      const res = await fetch(`${h.url}/v1/jobs`, { headers: { authorization: `Bearer ${key}` } });
      return ((await res.json()) as { data: Array<Record<string, unknown>> }).data;
    };

    test('a report is stored as a live local job, acked, listed by live keys only and counted once', async () => {
      const s = await shop();
      const { agent } = await online(s.device.deviceToken);
      const id = newId('job', h.clock.now());
      const queued = report(id, 'queued');
      assert.equal((await sendReport(agent, 'l1', queued)).type, 'ack');
      const printer = (await h.store.devices.listPrinters(s.org.orgId, s.device.deviceId))[0]!;
      const [listed] = await listJobs(s.org.liveKey);
      assert.deepEqual(
        {
          id: listed!.id,
          source: listed!.source,
          mode: listed!.mode,
          state: listed!.state,
          deviceId: listed!.deviceId,
          printerId: listed!.printerId,
          templateId: listed!.templateId,
          metadata: listed!.metadata,
          contentRetained: listed!.contentRetained,
          createdAt: listed!.createdAt,
        },
        {
          id,
          source: 'local',
          mode: 'live',
          state: 'queued',
          deviceId: s.device.deviceId,
          printerId: printer.id,
          templateId: 'tpl_local',
          metadata: { order: '42' },
          contentRetained: false,
          createdAt: at(0),
        },
      );
      assert.deepEqual(await listJobs(s.org.testKey), []);
      assert.equal(await h.store.organizations.liveJobsThisMonth(s.org.orgId, h.clock.now()), 1);
      // The same report again (the agent re-sends what it has no ack for): acked, nothing new.
      assert.equal((await sendReport(agent, 'l1', queued)).type, 'ack');
      assert.equal(await h.store.organizations.liveJobsThisMonth(s.org.orgId, h.clock.now()), 1);
      const printed = report(id, 'printed');
      assert.equal((await sendReport(agent, 'l2', printed)).type, 'ack');
      assert.equal(await h.store.organizations.liveJobsThisMonth(s.org.orgId, h.clock.now()), 1);
      const read = await fetch(`${h.url}/v1/jobs/${id}`, {
        headers: { authorization: `Bearer ${s.org.liveKey}` },
      });
      const job = (await read.json()) as {
        state: string;
        printedAt: string;
        dispatchedAt: string;
        attempt: number;
        events: Array<{ state: string; at: string }>;
      };
      assert.equal(job.state, 'printed');
      assert.equal(job.printedAt, at(2));
      assert.equal(job.dispatchedAt, at(1));
      assert.equal(job.attempt, 1);
      assert.deepEqual(
        job.events.map((e: { state: string; at: string }) => [e.state, e.at]),
        [
          ['queued', at(0)],
          ['sending', at(1)],
          ['printed', at(2)],
        ],
      );
      // Nothing was, or is after a reconnect, sent to the agent: the job is its own.
      await agent.close();
      const again = await online(s.device.deviceToken);
      assert.equal((await sendReport(again.agent, 'l3', printed)).type, 'ack');
      assert.equal(
        [...agent.received, ...again.agent.received].some((m) => m.type === 'job.dispatch'),
        false,
      );
      await again.agent.close();
    });

    test('each state change is announced once, to the bus and to webhooks, however often it is reported', async () => {
      const s = await shop();
      const hook = await fetch(`${h.url}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.org.liveKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: 'http://127.0.0.1:9/hook',
          events: ['job.queued', 'job.printed', 'job.failed'],
        }),
      });
      assert.equal(hook.status, 201);
      const endpointId = ((await hook.json()) as { webhook: { id: string } }).webhook.id;
      const { agent } = await online(s.device.deviceToken);
      const id = newId('job', h.clock.now());
      const seen = h.events.length;
      await sendReport(agent, 'a', report(id, 'queued'));
      await sendReport(agent, 'b', report(id, 'sending'));
      await sendReport(agent, 'b', report(id, 'sending'));
      await sendReport(agent, 'c', report(id, 'failed'));
      await sendReport(agent, 'c', report(id, 'failed'));
      // An older report after the newer one changes nothing.
      await sendReport(agent, 'd', report(id, 'sending'));
      const states = h.events
        .slice(seen)
        .filter((e) => e.type === 'job.state_changed' && e.jobId === id)
        .map((e) => e.state);
      assert.deepEqual(states, ['queued', 'sending', 'failed']);
      await h.cloud.webhooks.intake();
      const deliveries = await h.store.webhooks.listDeliveries(s.org.orgId, endpointId, {
        limit: 10,
      });
      assert.deepEqual(deliveries.map((d) => d.eventType).sort(), ['job.failed', 'job.queued']);
      const failed = deliveries.find((d) => d.eventType === 'job.failed')!;
      const body = JSON.parse(failed.body) as { data: { job: Record<string, unknown> } };
      assert.equal(body.data.job.id, id);
      assert.equal(body.data.job.source, 'local');
      assert.equal(body.data.job.errorCode, 'PAPER_OUT');
      assert.equal(body.data.job.errorMessage, 'the printer has no paper');
      const job = (await h.store.jobs.get(s.org.orgId, 'live', id))!;
      assert.equal(job.state, 'failed');
      assert.deepEqual(
        job.events!.map((e) => e.state),
        ['queued', 'sending', 'failed'],
      );
      await agent.close();
    });

    test('a report first seen finished is stored with its whole history at once', async () => {
      const s = await shop('free');
      const { agent } = await online(s.device.deviceToken);
      const id = newId('job', h.clock.now());
      await sendReport(agent, 'x', report(id, 'printed', { idempotencyKey: 'order-42' }));
      const job = (await h.store.jobs.get(s.org.orgId, 'live', id))!;
      assert.equal(job.state, 'printed');
      assert.equal(job.idempotencyKey, 'order-42');
      assert.equal(job.finishedAt, Date.parse(at(2)));
      assert.deepEqual(
        job.events!.map((e) => e.state),
        ['queued', 'sending', 'printed'],
      );
      await agent.close();
    });

    test('a local job cannot be cancelled through the API while it is unfinished', async () => {
      const s = await shop();
      const { agent } = await online(s.device.deviceToken);
      const id = newId('job', h.clock.now());
      await sendReport(agent, 'q', report(id, 'queued'));
      const res = await h.post(`/v1/jobs/${id}/cancel`, {}, s.org.liveKey);
      assert.equal(res.status, 409);
      assert.match(JSON.stringify(res.body), /cancel it through the agent/);
      assert.equal((await h.store.jobs.get(s.org.orgId, 'live', id))!.state, 'queued');
      await agent.close();
    });

    test('an id that belongs to a cloud job or another device is refused with an error, not acked', async () => {
      const s = await shop();
      const second = await s.anotherDevice();
      const { agent } = await online(s.device.deviceToken);
      const cloudJob = await h.post('/v1/jobs', { type: 'text', data: 'cloud' }, s.org.liveKey);
      const cloudId = (cloudJob.body as { id: string }).id;
      await agent.next('job.dispatch');
      const refused = await sendReport(agent, 'taken', report(cloudId, 'printed'));
      assert.equal(refused.type, 'error');
      assert.match((refused as CloudMessageOf<'error'>).message, /is taken by another job/);
      assert.equal((await h.store.jobs.get(s.org.orgId, 'live', cloudId))!.source, 'cloud');
      const other = await online(second.deviceToken, '1.1.0', [printerInfo('prn_a')]);
      const id = newId('job', h.clock.now());
      assert.equal((await sendReport(other.agent, 'o', report(id, 'queued'))).type, 'ack');
      assert.equal((await sendReport(agent, 'm', report(id, 'printed'))).type, 'error');
      assert.equal((await h.store.jobs.get(s.org.orgId, 'live', id))!.state, 'queued');
      await agent.close();
      await other.agent.close();
    });

    test('a malformed report gets an error naming the field and stores nothing', async () => {
      const s = await shop();
      const { agent } = await online(s.device.deviceToken);
      const bad = { ...report('job_short', 'queued') };
      agent.sendRaw(JSON.stringify({ type: 'job.local', id: 'bad', job: bad }));
      const error = await agent.next('error', (m) => m.replyTo === 'bad');
      assert.match(error.message, /job\.id/);
      assert.equal((await listJobs(s.org.liveKey)).length, 0);
      await agent.close();
    });
  });
});
