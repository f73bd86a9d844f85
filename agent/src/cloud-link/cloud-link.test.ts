import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DispatchedJob } from '@printwire/shared/protocol/index';
import { FakeCloud } from '../../../test/fake-cloud.js';
import { FakePrinter } from '../../../test/fake-printer.js';
import { Agent, type AgentOptions } from '../agent.js';
import { FakeClock } from '../core/clock.js';
import { silentLogger } from '../logs/logger.js';
import type { LinkState } from './cloud-link.js';

function makeJob(
  id: string,
  agentPrinterId: string,
  extra: Partial<DispatchedJob> = {},
): DispatchedJob {
  return {
    id,
    attempt: 1,
    maxAttempts: 3,
    agentPrinterId,
    type: 'text',
    encoding: 'utf8',
    content: `content of ${id}`,
    options: { cut: 'none' },
    expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

function untilState(agent: Agent, state: LinkState): Promise<void> {
  if (agent.link?.state === state) return Promise.resolve();
  return new Promise((resolve) => agent.link?.onStateChange((s) => s === state && resolve()));
}

/** Resolves when the agent's first printer reaches `status`. */
function waitForStatus(agent: Agent, status: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const check = () => {
      if (agent.printerInfo()[0]?.status === status) resolve();
      else if (Date.now() > deadline) reject(new Error(`printer never ${status}`));
      else setTimeout(check, 5);
    };
    check();
  });
}

/** Resolves when `done()` holds (the agent acts on a message from the cloud when it arrives). */
function until(done: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const check = () => {
      if (done()) resolve();
      else if (Date.now() > deadline) reject(new Error(`never: ${what}`));
      else setTimeout(check, 5);
    };
    check();
  });
}

describe('cloud link', () => {
  /** Moves the clock a second at a time (the idle polls are on it) until the status is read. */
  async function pollUntil(agent: Agent, status: string): Promise<void> {
    for (let i = 0; i < 100 && agent.printerInfo()[0]?.status !== status; i++) {
      clock.advance(1000);
      await waitForStatus(agent, status, 50).catch(() => undefined);
    }
    assert.equal(agent.printerInfo()[0]?.status, status);
  }

  let cloud: FakeCloud;
  let printer: FakePrinter;
  let clock: FakeClock;
  let dataDir: string;
  let agent: Agent | null;
  let code = 0;

  async function openAgent(
    random: () => number = () => 0.5,
    extra: Partial<AgentOptions> = {},
  ): Promise<Agent> {
    code += 1;
    cloud.activationCodes.set(`code_${code}`, {
      deviceId: 'dev_1',
      deviceToken: `pwd_token_${code}`,
    });
    agent = await Agent.open({
      dataDir,
      cloudUrl: cloud.url,
      activationCode: `code_${code}`,
      printers: [printer.uri()],
      clock,
      random,
      logger: silentLogger(),
      // No idle polls and no connection kept open: the link's are the only timers on the clock.
      runner: { pollIntervalMs: 0, keepOpenMs: 0, transport: { statusTimeoutMs: 200 } },
      ...extra,
    });
    return agent;
  }

  beforeEach(async () => {
    cloud = await FakeCloud.start();
    printer = await FakePrinter.start();
    clock = new FakeClock();
    dataDir = mkdtempSync(join(tmpdir(), 'pw-link-'));
    agent = null;
  });

  afterEach(async () => {
    await agent?.stop();
    await cloud.stop();
    await printer.stop();
  });

  test('activation stores the device token owner-only and the device id in the config', async () => {
    const a = await openAgent();
    const tokenFile = join(dataDir, 'device-token');
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    assert.equal(a.config.deviceId, 'dev_1');
    assert.equal(a.config.organizationId, 'org_1');
  });

  test('an unknown activation code is refused with the cloud reason', async () => {
    await assert.rejects(
      Agent.open({ dataDir, cloudUrl: cloud.url, activationCode: 'nope', logger: silentLogger() }),
      (e: Error & { code?: string }) =>
        e.code === 'UNAUTHORIZED' && /unknown activation code/.test(e.message),
    );
  });

  test('the agent says hello with its printers and goes online on welcome', async () => {
    const a = await openAgent();
    a.start();
    const hello = await cloud.waitFor('hello');
    await untilState(a, 'online');
    assert.equal(hello.protocolVersion, 1);
    assert.equal(hello.printers.length, 1);
    assert.equal(hello.printers[0]!.agentPrinterId, a.printers[0]!.agentPrinterId);
    assert.equal(hello.printers[0]!.uri, printer.uri());
  });

  test('a dispatched job is stored before its ack, then printed once and reported', async () => {
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    const printerId = a.printers[0]!.agentPrinterId;
    const acked = cloud.waitFor('job.ack');
    cloud.dispatch(makeJob('job_1', printerId));
    await acked;
    assert.notEqual(a.queue.get('job_1'), null, 'stored when acknowledged');
    const result = await cloud.waitFor('job.result', () => true, { past: true });
    assert.equal(result.outcome, 'printed');
    assert.equal(printer.bytes().toString('latin1').split('content of job_1').length - 1, 1);
    // Delivered again (at least once on the wire): acknowledged and answered, not printed.
    const again = cloud.waitFor('job.result');
    cloud.dispatch(makeJob('job_1', printerId));
    assert.equal((await again).outcome, 'printed');
    assert.equal(printer.bytes().toString('latin1').split('content of job_1').length - 1, 1);
  });

  test('malformed cloud messages are ignored and the link carries on', async () => {
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    cloud.socket!.send('not json');
    cloud.socket!.send(JSON.stringify({ type: 'job.dispatch', job: { id: 'job_bad' } }));
    cloud.socket!.send(JSON.stringify({ type: 'job.teleport' }));
    const acked = cloud.waitFor('job.ack');
    cloud.dispatch(makeJob('job_ok', a.printers[0]!.agentPrinterId));
    assert.equal((await acked).jobId, 'job_ok');
    assert.equal(a.queue.get('job_bad'), null);
    assert.equal(a.link?.state, 'online');
  });

  test('a job for a printer the agent does not have fails with PRINTER_NOT_FOUND', async () => {
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    cloud.dispatch(makeJob('job_x', 'prn_missing'));
    const result = await cloud.waitFor('job.result');
    assert.deepEqual(
      [result.outcome, result.errorCode, result.retryable],
      ['failed', 'PRINTER_NOT_FOUND', false],
    );
  });

  test('a result is sent again after a reconnect until the cloud confirms it', async () => {
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    cloud.autoAck = false;
    cloud.dispatch(makeJob('job_1', a.printers[0]!.agentPrinterId));
    const first = await cloud.waitFor('job.result');
    assert.equal(a.queue.outbox().length, 1);
    cloud.autoAck = true;
    const waiting = untilState(a, 'waiting');
    cloud.dropConnections();
    await waiting;
    assert.equal(clock.nextAt(), clock.now() + 2500, 'random 0.5 of the 5 s window');
    const resent = cloud.waitFor('job.result');
    clock.advance(2500);
    assert.equal((await resent).id, first.id);
    // Messages are handled in order: once this answer is back, the ack was processed.
    cloud.send({ type: 'job.cancel', jobId: 'job_unknown' });
    assert.equal((await cloud.waitFor('job.cancelled')).reason, 'unknown_job');
    assert.deepEqual(
      a.queue.outbox().filter((m) => m.type === 'job.result'),
      [],
    );
  });

  test('an unconfirmed result is sent again on the same connection after 30 s', async () => {
    cloud.heartbeatIntervalMs = 10_000;
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    cloud.autoAck = false;
    cloud.dispatch(makeJob('job_1', a.printers[0]!.agentPrinterId));
    const first = await cloud.waitFor('job.result');
    const count = () => cloud.received.filter((m) => m.type === 'job.result').length;
    // Heartbeats at 10 s and 20 s: too early to send it again. (Each round trip lets the
    // agent read the cloud's pongs before the fake clock moves on.)
    const results = () => cloud.received.filter((m) => m.type === 'job.cancelled').length;
    for (let i = 0; i < 2; i++) {
      const beat = cloud.waitFor('heartbeat');
      clock.advance(10_000);
      await beat;
      const before = results();
      cloud.send({ type: 'job.cancel', jobId: `job_probe_${i}` });
      await cloud.waitFor('job.cancelled', () => results() > before);
    }
    assert.equal(count(), 1);
    cloud.autoAck = true;
    const again = cloud.waitFor('job.result');
    clock.advance(10_000);
    assert.equal((await again).id, first.id);
    assert.equal(cloud.connections, 1);
    const beat = cloud.waitFor('heartbeat');
    clock.advance(40_000);
    await beat;
    assert.equal(count(), 2, 'confirmed: not sent again');
  });

  test('a queued job that has not started can be cancelled and then never prints', async () => {
    printer.paperOut = true;
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    cloud.dispatch(makeJob('job_1', a.printers[0]!.agentPrinterId));
    await cloud.waitFor('job.progress', (m) => m.stage === 'retry_scheduled');
    cloud.send({ type: 'job.cancel', jobId: 'job_1' });
    const answer = await cloud.waitFor('job.cancelled');
    assert.deepEqual([answer.cancelled, answer.reason], [true, 'not_started']);
    printer.paperOut = false;
    clock.advance(60_000);
    assert.equal(a.queue.get('job_1')?.state, 'cancelled');
    assert.equal(printer.byteCount, 0);
  });

  test('the agent announces job.withdraw and job.delivery, and gives back a job held for a printer out of paper', async () => {
    printer.paperOut = true;
    const a = await openAgent();
    a.start();
    const hello = await cloud.waitFor('hello');
    assert.deepEqual(hello.features, ['job.withdraw', 'job.delivery']);
    await untilState(a, 'online');
    const printerId = a.printers[0]!.agentPrinterId;
    const acked = cloud.waitFor('job.ack', (m) => m.jobId === 'job_1');
    cloud.dispatch(makeJob('job_1', printerId, { delivery: 1 }));
    assert.equal((await acked).delivery, 1, 'the acknowledgement names the delivery');
    const retry = await cloud.waitFor('job.progress', (m) => m.stage === 'retry_scheduled');
    assert.deepEqual([retry.started, retry.errorCode], [false, 'PAPER_OUT']);
    cloud.autoAck = false;
    cloud.send({ type: 'job.withdraw', jobId: 'job_1' });
    const answer = await cloud.waitFor('job.withdrawn');
    assert.deepEqual(
      [answer.jobId, answer.withdrawn, answer.reason, answer.delivery],
      ['job_1', true, 'not_started', 1],
    );
    // Not acknowledged: sent again with the unconfirmed results, until the cloud confirms it.
    const again = cloud.waitFor('job.withdrawn', (m) => m.id === answer.id);
    a.link!.flushOutbox();
    await again;
    cloud.send({ type: 'ack', id: answer.id });
    await until(() => a.queue.outbox().length === 0, 'the acknowledged answer is forgotten');
    cloud.autoAck = true;
    printer.paperOut = false;
    // Past its next attempt time: nothing is left to print.
    clock.advance(5000);
    assert.equal(a.queue.get('job_1'), null, 'dropped');
    // Moved back to this agent later: a higher delivery of the same attempt (a move uses no
    // attempt up), acknowledged and printed once.
    const printed = cloud.waitFor('job.result', (m) => m.jobId === 'job_1');
    cloud.dispatch(makeJob('job_1', printerId, { delivery: 2 }));
    assert.equal((await printed).outcome, 'printed');
    assert.equal(printer.bytes().toString('latin1').split('content of job_1').length - 1, 1);
  });

  test('a job asked back after its bytes went out is not withdrawn and prints once', async () => {
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    printer.once('data', () => cloud.send({ type: 'job.withdraw', jobId: 'job_1' }));
    cloud.dispatch(makeJob('job_1', a.printers[0]!.agentPrinterId));
    const answer = await cloud.waitFor('job.withdrawn', () => true, { past: true });
    assert.equal(answer.withdrawn, false);
    assert.ok(['started', 'finished'].includes(answer.reason), answer.reason);
    await cloud.waitFor('job.result', (m) => m.jobId === 'job_1', { past: true });
    assert.equal(printer.bytes().toString('latin1').split('content of job_1').length - 1, 1);
  });

  test('heartbeats go out at the interval the cloud asks for, with the queue summary', async () => {
    cloud.heartbeatIntervalMs = 1000;
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    assert.equal(cloud.received.filter((m) => m.type === 'heartbeat').length, 0);
    const beat = cloud.waitFor('heartbeat');
    clock.advance(1000);
    const heartbeat = await beat;
    assert.equal(heartbeat.sentAt, new Date(clock.now()).toISOString());
    assert.deepEqual(heartbeat.queue, { queued: 0, printing: 0 });
  });

  test('a cloud silent for three heartbeat intervals is left for a new connection', async () => {
    cloud.heartbeatIntervalMs = 1000;
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    // A cloud that keeps talking keeps the link, however long it lasts.
    for (let i = 0; i < 5; i++) {
      const beat = cloud.waitFor('heartbeat');
      clock.advance(1000);
      await beat;
      cloud.send({ type: 'job.cancel', jobId: `job_${i}` });
      await cloud.waitFor('job.cancelled');
    }
    assert.equal(a.link?.state, 'online');
    // One that stops answering (no message, no pong) is dropped after three intervals.
    cloud.socket!.pause();
    const waiting = untilState(a, 'waiting');
    clock.advance(2000);
    assert.equal(a.link?.state, 'online');
    clock.advance(1000);
    await waiting;
    assert.equal(cloud.connections, 1);
  });

  test('printer status changes are reported to the cloud', async () => {
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    printer.paperOut = true;
    const status = cloud.waitFor('printer.status', (m) => m.status === 'paper_out');
    cloud.dispatch(makeJob('job_1', a.printers[0]!.agentPrinterId));
    const message = await status;
    assert.equal(message.agentPrinterId, a.printers[0]!.agentPrinterId);
    assert.equal(message.detail, 'paper out');
  });

  test('a status read between hello and welcome is sent once the welcome arrives', async () => {
    // The printer answers its first status request only after the hello went out.
    printer.stall();
    cloud.answerHello = false;
    const a = await openAgent(undefined, {
      runner: { pollIntervalMs: 5000, keepOpenMs: 0, transport: { statusTimeoutMs: 5000 } },
    });
    a.start();
    const hello = await cloud.waitFor('hello');
    assert.equal(hello.printers[0]!.status, 'unknown');
    printer.stall(false);
    await waitForStatus(a, 'online');
    const status = cloud.waitFor('printer.status');
    cloud.send({
      type: 'welcome',
      replyTo: hello.id,
      protocolVersion: 1,
      deviceId: 'dev_1',
      heartbeatIntervalMs: 15_000,
      config: { printers: [] },
    });
    assert.equal((await status).status, 'online');
  });

  test('statuses read while the link is down are kept, the newest only, and the hello carries them', async () => {
    const a = await openAgent(undefined, {
      runner: { pollIntervalMs: 5000, keepOpenMs: 0, transport: { statusTimeoutMs: 5000 } },
      link: { reconnect: { baseMs: 600_000 } },
    });
    a.start();
    await untilState(a, 'online');
    await waitForStatus(a, 'online');
    const waiting = untilState(a, 'waiting');
    cloud.dropConnections();
    await waiting;
    printer.paperOut = true;
    await pollUntil(a, 'paper_out');
    assert.deepEqual(
      [...a.link!.pendingReports.values()].map((m) => m.type === 'printer.status' && m.status),
      ['paper_out'],
    );
    printer.paperOut = false;
    printer.coverOpen = true;
    await pollUntil(a, 'cover_open');
    assert.deepEqual(
      [...a.link!.pendingReports.values()].map((m) => m.type === 'printer.status' && m.status),
      ['cover_open'],
      'superseded by the newer status',
    );
    const hello = cloud.waitFor('hello');
    clock.advance(300_000);
    assert.equal((await hello).printers[0]!.status, 'cover_open');
    await untilState(a, 'online');
    assert.equal(a.link!.pendingReports.size, 0);
  });

  test('a job interrupted by a crash is reported failed INTERRUPTED after the restart', async () => {
    let a = await openAgent();
    const agentPrinterId = a.printers[0]!.agentPrinterId;
    a.queue.accept(makeJob('job_1', agentPrinterId));
    a.queue.markPrinting('job_1');
    await a.stop(); // as if the process died between marking and finishing
    a = await Agent.open({ dataDir, clock, logger: silentLogger(), runner: { pollIntervalMs: 0 } });
    agent = a;
    a.start();
    const result = await cloud.waitFor('job.result');
    assert.deepEqual(
      [result.jobId, result.outcome, result.errorCode, result.retryable],
      ['job_1', 'failed', 'INTERRUPTED', false],
    );
    assert.equal(printer.byteCount, 0);
  });

  test('per-printer defaults pushed by the cloud apply to the next job', async () => {
    const a = await openAgent();
    const agentPrinterId = a.printers[0]!.agentPrinterId;
    cloud.config = {
      printers: [
        { agentPrinterId, printerId: 'prt_1', defaults: { codepage: 'CP858', cut: 'none' } },
      ],
    };
    a.start();
    await untilState(a, 'online');
    cloud.dispatch(makeJob('job_1', agentPrinterId, { content: 'Total 5 €', options: {} }));
    await cloud.waitFor('job.result');
    const bytes = printer.bytes();
    assert.ok(bytes.includes(Buffer.from([0x1b, 0x74, 19])), 'ESC t 19 selects CP858');
    assert.ok(bytes.includes(Buffer.from('Total 5 \xd5', 'latin1')), 'the euro sign in CP858');
    assert.equal(bytes.includes(Buffer.from([0x1d, 0x56])), false, 'no cut');
  });

  test('jobs left for a printer that is no longer configured fail with PRINTER_NOT_FOUND', async () => {
    let a = await openAgent();
    a.queue.accept(makeJob('job_1', a.printers[0]!.agentPrinterId));
    await a.stop();
    const other = await FakePrinter.start();
    a = await Agent.open({ dataDir, printers: [other.uri()], clock, logger: silentLogger() });
    agent = a;
    assert.equal(a.queue.get('job_1')?.errorCode, 'PRINTER_NOT_FOUND');
    await other.stop();
  });

  test('a cloud that never answers hello is left after the handshake timeout', async () => {
    cloud.answerHello = false;
    const a = await openAgent();
    a.start();
    await cloud.waitFor('hello');
    const waiting = untilState(a, 'waiting');
    clock.advance(9999);
    assert.equal(a.link?.state, 'connecting');
    clock.advance(1);
    await waiting;
  });

  test('reconnect delays double up to the cap while the cloud is away', async () => {
    const a = await openAgent(() => 0.999);
    a.start();
    await untilState(a, 'online');
    await cloud.stop();
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      if (a.link?.state !== 'waiting') await untilState(a, 'waiting');
      const delay = clock.nextAt()! - clock.now();
      delays.push(delay);
      const connecting = untilState(a, 'connecting');
      clock.advance(delay);
      await connecting;
    }
    assert.deepEqual(delays, [4995, 9990, 19980, 39960, 59940, 59940]);
  });

  test('a revoked token closes the link with its reason and the agent stops retrying', async () => {
    const a = await openAgent();
    a.start();
    await untilState(a, 'online');
    const stopped = untilState(a, 'stopped');
    cloud.revoke('pwd_token_' + code);
    await stopped;
    clock.advance(3_600_000);
    assert.equal(cloud.connections, 1);
    assert.equal(
      existsSync(join(dataDir, 'device-token')),
      false,
      'the revoked token is forgotten',
    );
  });

  test('a token refused at the handshake stops retrying', async () => {
    const a = await openAgent();
    cloud.validTokens.clear();
    const stopped = untilState(a, 'stopped');
    a.start();
    await stopped;
    clock.advance(3_600_000);
    assert.equal(cloud.refusedHandshakes, 1);
  });
});
