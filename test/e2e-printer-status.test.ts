/**
 * End to end, printer status: the cloud (`printwire-cloud serve`) and an agent (`printwire-agent
 * start`) as real processes, a fake network printer that answers DLE EOT, and the printer events
 * observed as a customer sees them, by a webhook receiver.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startReceiver, type Receiver } from '@printwire/cloud/testing';
import { FakePrinter } from './fake-printer.js';
import {
  AgentProcess,
  CloudProcess,
  freePort,
  tempDir,
  waitUntil,
  type Bootstrap,
} from './e2e-support.js';

/** How soon after its agent connects the cloud must show a printer's real status. */
const STATUS_BOUND_MS = 5000;

interface PrinterView {
  id: string;
  name: string;
  status: string;
  lastStatusAt: string | null;
}

describe('printer status from an agent to the cloud with real processes', () => {
  let env: NodeJS.ProcessEnv;
  let cloud: CloudProcess;
  let agent: AgentProcess;
  let printer: FakePrinter;
  let org: Bootstrap;
  let receiver: Receiver;

  const devices = async () =>
    (await cloud.call(org.liveKey, 'GET', '/v1/devices')).body.data as Array<{
      status: string;
      lastSeenAt: string | null;
    }>;
  /**
   * The device online, connected at `since` or later: after a restart the stored status can still
   * say online from before, while the agent waits out its reconnect backoff (full jitter, up to a
   * minute), so only a connection to the new cloud counts.
   */
  const untilDeviceOnline = (since = 0) =>
    waitUntil(
      'device online',
      async () => {
        const device = (await devices())[0];
        const connected =
          device?.status === 'online' && Date.parse(device.lastSeenAt ?? '') >= since;
        return connected ? true : undefined;
      },
      { timeoutMs: 75_000, intervalMs: 20 },
    );
  const printers = async () =>
    (await cloud.call(org.liveKey, 'GET', '/v1/printers?limit=100')).body.data as PrinterView[];
  /** The printer's status as the cloud shows it, waited for at most STATUS_BOUND_MS. */
  const untilPrinter = (status: string) =>
    waitUntil(
      `printer ${status}`,
      async () => {
        // The configured printer (this computer's own queues may be listed beside it).
        const p = (await printers()).find((q) => q.name === 'Counter');
        return p?.status === status ? p : undefined;
      },
      { timeoutMs: STATUS_BOUND_MS, intervalMs: 50 },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nagent:\n${agent.logs()}`);
    });
  /** The webhook events of the configured printer (this computer's queues may have some). */
  const events = (type: string) =>
    receiver.received.filter(
      (r) =>
        r.body.type === type &&
        (r.body.data.printer as { name?: string } | undefined)?.name === 'Counter',
    );
  const untilEvents = (type: string, count: number) =>
    waitUntil(`${count} ${type} events`, () => (events(type).length >= count ? true : undefined), {
      timeoutMs: 15_000,
      intervalMs: 50,
    });
  const agentSaw = (status: string) =>
    waitUntil(
      `the agent to see ${status}`,
      () =>
        agent
          .logs()
          .split('\n')
          .some((l) => l.includes('"msg":"printer status"') && l.includes(`"status":"${status}"`))
          ? true
          : undefined,
      { timeoutMs: 15_000, intervalMs: 50 },
    );

  before(async () => {
    printer = await FakePrinter.start();
    receiver = await startReceiver();
    env = CloudProcess.env(tempDir('pw-e2e-status-'), await freePort());
    org = await CloudProcess.bootstrap(env, 'Status shop');
    cloud = await CloudProcess.start(env);
    const hook = await cloud.call(org.liveKey, 'POST', '/v1/webhooks', {
      url: receiver.url,
      events: ['printer.online', 'printer.paper_out'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
  });

  after(async () => {
    await agent?.kill();
    await cloud.stop();
    await printer.stop();
    await receiver.close();
  });

  test('an agent started with a printer already online shows it online within 5 s of connecting', async () => {
    agent = AgentProcess.start([
      '--data-dir',
      tempDir('pw-e2e-status-agent-'),
      '--cloud',
      cloud.url,
      '--activation-code',
      org.activationCode,
      '--printer',
      printer.uri('name=Counter'),
    ]);
    await untilDeviceOnline();
    const online = await untilPrinter('online');
    assert.ok(online.lastStatusAt, 'lastStatusAt is set');
    await untilEvents('printer.online', 1);
  });

  test('after a cloud restart the printer is online again', async () => {
    await cloud.stop();
    const restartedAt = Date.now();
    cloud = await CloudProcess.start(env);
    await untilDeviceOnline(restartedAt);
    await untilPrinter('online');
  });

  test('a printer out of paper while the cloud is down shows paper_out after the reconnect, with one event', async () => {
    const onlineEvents = events('printer.online').length;
    await cloud.stop();
    printer.paperOut = true;
    await agentSaw('paper_out');
    const stoppedAt = Date.now();
    cloud = await CloudProcess.start(env);
    await untilDeviceOnline(stoppedAt);
    const paperOut = await untilPrinter('paper_out');
    assert.ok(Date.parse(paperOut.lastStatusAt!) >= stoppedAt, 'lastStatusAt follows');
    await untilEvents('printer.paper_out', 1);
    // Paper back: its printer.online event comes after any second paper_out event would have.
    printer.paperOut = false;
    await untilPrinter('online');
    await untilEvents('printer.online', onlineEvents + 1);
    assert.equal(events('printer.paper_out').length, 1);
  });
});
