import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_CLOSE_CODES } from '@printwire/shared/protocol/index';
import type { BootstrapResult } from '../services/bootstrap.js';
import { hashSecret } from '../services/api-keys.js';
import type { Job } from '../storage/types.js';
import {
  printerInfo,
  startGatewayHarness,
  TestAgent,
  until,
  type GatewayHarness,
} from '../testing/gateway.js';

describe('the agent gateway', () => {
  let h: GatewayHarness;
  const HEARTBEAT = 10_000;
  const MARGIN = 3_000;

  before(async () => {
    h = await startGatewayHarness({
      gateway: {
        heartbeatIntervalMs: HEARTBEAT,
        livenessMarginMs: MARGIN,
        maxBadMessages: 3,
        maxMessageBytes: 64 * 1024,
      },
    });
  });
  after(() => h.close());

  const jobOf = async (org: BootstrapResult, id: string): Promise<Job> =>
    (await h.store.jobs.get(org.orgId, 'live', id))!;
  const untilState = (org: BootstrapResult, id: string, state: string) =>
    until(`job ${id} ${state}`, async () => {
      const job = await jobOf(org, id);
      return job.state === state ? job : undefined;
    });
  const createJob = async (org: BootstrapResult, text: string, extra: object = {}) => {
    const res = await h.post('/v1/jobs', { type: 'text', data: text, ...extra }, org.liveKey);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string };
  };

  describe('activation', () => {
    test('an activation code gives one device token, stored only as a hash', async () => {
      const org = await h.org();
      const seen = h.events.length;
      const device = await h.activate(org);
      assert.match(device.deviceToken, /^pwd_/);
      const row = await h.store.devices.findByTokenHash(hashSecret(device.deviceToken));
      assert.equal(row?.id, device.deviceId);
      assert.equal(row?.activated, true);
      assert.deepEqual(
        h.events.slice(seen).map((e) => [e.type, 'deviceId' in e ? e.deviceId : null]),
        [['device.activated', device.deviceId]],
      );
      const again = await h.post('/agent/v1/activate', {
        code: org.activationCode,
        name: 'till-2',
        os: 'linux',
        arch: 'x64',
        agentVersion: '0.1.0',
      });
      assert.equal(again.status, 401);
      assert.equal((again.body as { error: { code: string } }).error.code, 'UNAUTHORIZED');
    });

    test('an activation code is refused once its 24 hours are over, and a body missing fields is 400', async () => {
      const org = await h.org();
      const body = { code: org.activationCode, name: 'x', os: 'linux', arch: 'x64' };
      assert.equal((await h.post('/agent/v1/activate', body)).status, 400);
      h.clock.advance(24 * 3_600_000);
      const late = await h.post('/agent/v1/activate', { ...body, agentVersion: '0.1.0' });
      assert.equal(late.status, 401);
    });
  });

  describe('connection', () => {
    test('a handshake without a known token is refused with 401, another path with 404', async () => {
      await assert.rejects(TestAgent.connect(h.wsUrl, 'pwd_unknown'), { status: 401 });
      await assert.rejects(TestAgent.connect(h.wsUrl, ''), { status: 401 });
      const org = await h.org();
      const { deviceToken } = await h.activate(org);
      await assert.rejects(TestAgent.connect(h.wsUrl.replace('connect', 'other'), deviceToken), {
        status: 404,
      });
    });

    test('hello is welcomed with the device id, the heartbeat interval and the printers’ cloud ids; the device and printer show online', async () => {
      const org = await h.org();
      const { deviceId, deviceToken } = await h.activate(org);
      const seen = h.events.length;
      const { agent, welcome } = await TestAgent.online(h.wsUrl, deviceToken, [
        printerInfo('prn_k', { alias: 'kitchen', paper: '58mm' }),
      ]);
      assert.equal(welcome.deviceId, deviceId);
      assert.equal(welcome.replyTo, 'hello-1');
      assert.equal(welcome.heartbeatIntervalMs, HEARTBEAT);
      const printers = await h.store.devices.listPrinters(org.orgId, deviceId);
      assert.deepEqual(welcome.config.printers, [
        {
          agentPrinterId: 'prn_k',
          printerId: printers[0]!.id,
          isDefault: true,
          defaults: { paper: '58mm', codepage: 'CP858' },
        },
      ]);
      assert.deepEqual(
        h.events.slice(seen).map((e) => e.type),
        ['gateway.signal', 'printer.online', 'device.online'],
      );
      assert.equal((await h.store.devices.get(org.orgId, deviceId))?.status, 'online');
      // The same agent printer keeps its cloud id when the agent reconnects.
      await agent.close();
      const again = await TestAgent.online(h.wsUrl, deviceToken, [printerInfo('prn_k')]);
      assert.equal(again.welcome.config.printers[0]!.printerId, printers[0]!.id);
      await again.agent.close();
    });

    test('nothing but hello is accepted first, and a protocol version the cloud does not speak closes with 4426', async () => {
      const org = await h.org();
      const { deviceToken } = await h.activate(org);
      const agent = await TestAgent.connect(h.wsUrl, deviceToken);
      agent.send({
        type: 'heartbeat',
        sentAt: new Date().toISOString(),
        queue: { queued: 0, printing: 0 },
      });
      const error = await agent.next('error');
      assert.match(error.message, /first message must be hello/);
      agent.sendRaw(
        JSON.stringify({
          type: 'hello',
          id: 'h',
          protocolVersion: 99,
          agentVersion: '9',
          os: 'linux',
          arch: 'x64',
          hostname: 'x',
          printers: [],
        }),
      );
      const close = await agent.next('close');
      assert.equal(close.reason, 'unsupported_version');
      assert.equal(close.retry, false);
      assert.equal(await agent.closed, AGENT_CLOSE_CODES.UNSUPPORTED_VERSION);
    });

    test('malformed and oversized messages from one agent are answered with errors and never reach another agent', async () => {
      const org = await h.org();
      const a = await h.activate(org);
      const org2 = await h.org();
      const b = await h.activate(org2);
      const bad = await TestAgent.online(h.wsUrl, a.deviceToken);
      const good = await TestAgent.online(h.wsUrl, b.deviceToken);

      bad.agent.sendRaw('{not json');
      assert.equal((await bad.agent.next('error')).code, 'INVALID_JSON');
      bad.agent.sendRaw(JSON.stringify({ type: 'job.result', id: 'r1', jobId: 'j' }));
      const invalid = await bad.agent.next('error');
      assert.equal(invalid.code, 'VALIDATION_FAILED');
      assert.equal(invalid.replyTo, 'r1');
      bad.agent.sendRaw(JSON.stringify({ type: 'launch.missiles' }));
      assert.match((await bad.agent.next('error')).message, /unknown agent message type/);
      // The good agent still gets its job at once.
      const job = await createJob(org2, 'still fine');
      const dispatched = await good.agent.next('job.dispatch');
      assert.equal(dispatched.job.id, job.id);
      // Three bad messages are tolerated (maxBadMessages); the fourth closes with 4400.
      assert.equal(bad.agent.closeCode, undefined);
      bad.agent.sendRaw('[]');
      assert.equal(await bad.agent.closed, AGENT_CLOSE_CODES.PROTOCOL_ERROR);
      // Over the size limit: the WebSocket closes with 1009; the other agent is unaffected.
      const big = await TestAgent.online(h.wsUrl, a.deviceToken);
      big.agent.sendRaw(Buffer.alloc(64 * 1024 + 1, 0x20));
      assert.equal(await big.agent.closed, 1009);
      assert.equal(good.agent.closeCode, undefined);
      await good.agent.close();
    });

    test('a device silent for longer than 2 × the heartbeat interval + the margin goes offline, with its printers', async () => {
      const org = await h.org();
      const { deviceId, deviceToken } = await h.activate(org);
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
      const limit = 2 * HEARTBEAT + MARGIN;
      h.clock.advance(limit);
      assert.equal(h.cloud.gateway.checkLiveness(), 0, 'at the limit it is still online');
      h.clock.advance(1);
      assert.equal(h.cloud.gateway.silent().length, 1, 'one millisecond later it is silent');
      agent.send({
        type: 'heartbeat',
        sentAt: new Date().toISOString(),
        queue: { queued: 0, printing: 0 },
      });
      await until('the heartbeat to count', async () =>
        h.cloud.gateway.silent().length === 0 ? true : undefined,
      );
      const seen = h.events.length;
      h.clock.advance(limit);
      assert.equal(h.cloud.gateway.checkLiveness(), 0);
      h.clock.advance(1);
      assert.equal(h.cloud.gateway.checkLiveness(), 1);
      await agent.closed;
      await until('device and printers offline', async () => {
        const d = await h.store.devices.get(org.orgId, deviceId);
        const printers = await h.store.devices.listPrinters(org.orgId, deviceId);
        const published = h.events.slice(seen).some((e) => e.type === 'printer.offline');
        return published && d?.status === 'offline' && printers.every((p) => p.status === 'offline')
          ? true
          : undefined;
      });
      assert.deepEqual(
        h.events.slice(seen).map((e) => e.type),
        ['device.offline', 'printer.offline'],
      );
    });

    test('a second connection of the same device replaces the first, which is closed with 4409', async () => {
      const org = await h.org();
      const { deviceId, deviceToken } = await h.activate(org);
      const first = await TestAgent.online(h.wsUrl, deviceToken);
      const second = await TestAgent.online(h.wsUrl, deviceToken);
      assert.equal((await first.agent.next('close')).reason, 'replaced');
      assert.equal(await first.agent.closed, AGENT_CLOSE_CODES.REPLACED);
      assert.equal((await h.store.devices.get(org.orgId, deviceId))?.status, 'online');
      const job = await createJob(org, 'to the new socket');
      assert.equal((await second.agent.next('job.dispatch')).job.id, job.id);
      await second.agent.close();
    });

    test('a revoked device token closes the socket with 4401 and a reason, and is refused afterwards', async () => {
      const org = await h.org();
      const { deviceId, deviceToken } = await h.activate(org);
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
      assert.equal(await h.cloud.devices.revoke(org.orgId, deviceId), true);
      const close = await agent.next('close');
      assert.deepEqual([close.reason, close.retry], ['token_revoked', false]);
      assert.equal(await agent.closed, AGENT_CLOSE_CODES.UNAUTHORIZED);
      await assert.rejects(TestAgent.connect(h.wsUrl, deviceToken), { status: 401 });
    });

    test('printer status reports update the printer and raise printer events; unknown raises none', async () => {
      const org = await h.org();
      const { deviceId, deviceToken } = await h.activate(org);
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
      const seen = h.events.length;
      const at = new Date().toISOString();
      for (const status of ['paper_out', 'cover_open', 'unknown', 'online'] as const) {
        agent.send({ type: 'printer.status', agentPrinterId: 'prn_a', status, at });
      }
      await until('status online again', async () =>
        h.events.slice(seen).length === 3 ? true : undefined,
      );
      assert.deepEqual(
        h.events.slice(seen).map((e) => e.type),
        ['printer.paper_out', 'printer.error', 'printer.online'],
      );
      const [printer] = await h.store.devices.listPrinters(org.orgId, deviceId);
      assert.equal(printer!.status, 'online');
      assert.equal(printer!.lastStatusAt, h.clock.now());
      await agent.close();
    });
  });

  describe('inventory', () => {
    test('a printers message adds printers, keeps those no longer reported offline, and deletes those the person hid', async () => {
      const org = await h.org();
      const { deviceId, deviceToken } = await h.activate(org);
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken, [
        printerInfo('prn_a', { status: 'online' }),
        printerInfo('prn_b', { status: 'online' }),
      ]);
      const before = await h.store.devices.listPrinters(org.orgId, deviceId);
      const a = before.find((p) => p.agentPrinterId === 'prn_a');
      const b = before.find((p) => p.agentPrinterId === 'prn_b');
      agent.send({
        type: 'printers',
        printers: [
          printerInfo('prn_a', { status: 'online' }),
          printerInfo('prn_c', { kind: 'office' }),
        ],
      });
      await until('prn_c listed', async () =>
        (await h.store.devices.listPrinters(org.orgId, deviceId)).length === 3 ? true : undefined,
      );
      const byId = <T extends { agentPrinterId: string }>(list: T[]) =>
        [...list].sort((x, y) => x.agentPrinterId.localeCompare(y.agentPrinterId));
      const listed = byId(await h.store.devices.listPrinters(org.orgId, deviceId));
      assert.deepEqual(
        listed.map((p) => [p.agentPrinterId, p.status, p.kind]),
        [
          ['prn_a', 'online', 'receipt'],
          ['prn_b', 'offline', 'receipt'],
          ['prn_c', 'online', 'office'],
        ],
      );
      assert.equal(listed[0]!.id, a!.id, 'a printer keeps its cloud id');
      assert.equal(listed[1]!.id, b!.id);
      agent.send({
        type: 'printers',
        printers: [printerInfo('prn_a', { status: 'online' })],
        hidden: ['prn_c', 'prn_never_seen'],
      });
      await until('prn_c deleted', async () =>
        (await h.store.devices.listPrinters(org.orgId, deviceId)).length === 2 ? true : undefined,
      );
      assert.deepEqual(
        byId(await h.store.devices.listPrinters(org.orgId, deviceId)).map((p) => p.agentPrinterId),
        ['prn_a', 'prn_b'],
      );
      await agent.close();
    });
  });

  describe('dispatch', () => {
    test('a job for an online device is sent at once; its result is acknowledged and a repeated result changes nothing', async () => {
      const org = await h.org();
      const { deviceToken } = await h.activate(org);
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
      const created = await createJob(org, 'hello printer', { options: { copies: 2 } });
      const { job } = await agent.next('job.dispatch');
      assert.deepEqual(
        [job.id, job.attempt, job.maxAttempts, job.agentPrinterId, job.type, job.content],
        [created.id, 1, 3, 'prn_a', 'text', 'hello printer'],
      );
      assert.equal(job.options.copies, 2);
      // Sent first, then recorded: the job shows sending once the write is durable.
      const sending = await untilState(org, created.id, 'sending');
      assert.notEqual(sending.dispatchedAt, null);
      agent.send({ type: 'job.ack', jobId: job.id, attempt: 1 });
      const result = {
        type: 'job.result' as const,
        id: 'res-1',
        jobId: job.id,
        attempt: 1,
        outcome: 'printed' as const,
        at: new Date().toISOString(),
      };
      agent.send(result);
      assert.equal((await agent.next('ack')).id, 'res-1');
      agent.send(result);
      assert.equal((await agent.next('ack')).id, 'res-1');
      const printed = await jobOf(org, created.id);
      assert.equal(printed.state, 'printed');
      assert.deepEqual(
        printed.events!.map((e) => e.state),
        ['queued', 'sending', 'printed'],
      );
      await agent.close();
    });

    test('queued jobs of an offline device go out oldest first when it connects', async () => {
      const org = await h.org();
      const { deviceToken } = await h.activate(org);
      const first = await TestAgent.online(h.wsUrl, deviceToken);
      await first.agent.close();
      const ids = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await createJob(org, `waiting ${i}`)).id);
        h.clock.advance(1);
      }
      assert.equal((await jobOf(org, ids[0]!)).state, 'queued');
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
      const sent = [];
      for (let i = 0; i < 3; i++) sent.push((await agent.next('job.dispatch')).job.id);
      assert.deepEqual(sent, ids);
      await agent.close();
    });

    test('a job sent and not acknowledged is sent again after a reconnect', async () => {
      const org = await h.org();
      const { deviceToken } = await h.activate(org);
      const first = await TestAgent.online(h.wsUrl, deviceToken);
      const created = await createJob(org, 'at least once');
      await first.agent.next('job.dispatch');
      await first.agent.close();
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
      const again = await agent.next('job.dispatch');
      assert.deepEqual([again.job.id, again.job.attempt], [created.id, 1]);
      await agent.close();
    });

    test('the agent’s retries show as queued then sending; a final failure records its errorCode', async () => {
      const org = await h.org();
      const { deviceToken } = await h.activate(org);
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
      const created = await createJob(org, 'paper please', { options: { maxAttempts: 2 } });
      const { job } = await agent.next('job.dispatch');
      agent.send({ type: 'job.ack', jobId: job.id, attempt: 1 });
      agent.send({
        type: 'job.progress',
        jobId: job.id,
        attempt: 2,
        stage: 'retry_scheduled',
        errorCode: 'PAPER_OUT',
      });
      await untilState(org, created.id, 'queued');
      // The agent holds it for its own retry: reconnecting does not send it again.
      agent.send({ type: 'job.progress', jobId: job.id, attempt: 2, stage: 'printing' });
      await untilState(org, created.id, 'sending');
      agent.send({
        type: 'job.result',
        id: 'res-f',
        jobId: job.id,
        attempt: 2,
        outcome: 'failed',
        errorCode: 'PAPER_OUT',
        errorMessage: 'printer reports paper out',
        retryable: true,
        at: new Date().toISOString(),
      });
      await agent.next('ack');
      const failed = await jobOf(org, created.id);
      assert.deepEqual(
        [failed.state, failed.errorCode, failed.errorMessage, failed.attempt],
        ['failed', 'PAPER_OUT', 'printer reports paper out', 2],
      );
      assert.deepEqual(
        failed.events!.map((e) => e.state),
        ['queued', 'sending', 'queued', 'sending', 'failed'],
      );
      await agent.close();
    });

    test('cancelling a job the agent holds for a retry sends it job.cancel, and the answer is acknowledged', async () => {
      const org = await h.org();
      const { deviceToken } = await h.activate(org);
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
      const created = await createJob(org, 'cancel me');
      const { job } = await agent.next('job.dispatch');
      agent.send({ type: 'job.progress', jobId: job.id, attempt: 2, stage: 'retry_scheduled' });
      await untilState(org, created.id, 'queued');
      const res = await h.post(`/v1/jobs/${created.id}/cancel`, {}, org.liveKey);
      assert.equal(res.status, 200);
      assert.equal((await agent.next('job.cancel')).jobId, created.id);
      agent.send({
        type: 'job.cancelled',
        id: 'c-1',
        jobId: created.id,
        cancelled: true,
        reason: 'not_started',
        at: new Date().toISOString(),
      });
      assert.equal((await agent.next('ack')).id, 'c-1');
      assert.equal((await jobOf(org, created.id)).state, 'cancelled');
      await agent.close();
    });

    test('a queued job past expiresAt fails with EXPIRED and is never sent', async () => {
      const org = await h.org();
      const { deviceToken } = await h.activate(org);
      const first = await TestAgent.online(h.wsUrl, deviceToken);
      await first.agent.close();
      const created = await createJob(org, 'too late', { options: { expireAfter: 60 } });
      h.clock.advance(60_000);
      await h.cloud.sweeper.sweep();
      const failed = await jobOf(org, created.id);
      assert.deepEqual([failed.state, failed.errorCode], ['failed', 'EXPIRED']);
      const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
      const fresh = await createJob(org, 'on time');
      assert.equal((await agent.next('job.dispatch')).job.id, fresh.id);
      assert.equal(
        agent.received.some((m) => m.type === 'job.dispatch'),
        false,
        'the expired job was not sent',
      );
      await agent.close();
    });
  });
});
