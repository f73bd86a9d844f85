/**
 * End to end: the cloud (`printwire-cloud serve`) and an agent (`printwire-agent start`) as real
 * processes, a fake network printer on 127.0.0.1, jobs created through the REST API.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Store } from '@printwire/cloud';
import { FakePrinter } from './fake-printer.js';
import {
  AgentProcess,
  CloudProcess,
  freePort,
  tempDir,
  waitUntil,
  type Bootstrap,
  type JobView,
} from './e2e-support.js';

function timesPrinted(printer: FakePrinter, text: string): number {
  return printer.bytes().toString('latin1').split(text).length - 1;
}

describe('jobs from the REST API to a printer through a real agent', () => {
  let env: NodeJS.ProcessEnv;
  let cloud: CloudProcess;
  let agent: AgentProcess | undefined;
  let printer: FakePrinter;
  let org: Bootstrap;
  let agentArgs: string[];
  const cloudDir = tempDir('pw-e2e-cloud-');
  const agentDir = tempDir('pw-e2e-agent-');
  let lastByteAt = 0;

  const job = async (id: string): Promise<JobView> =>
    (await cloud.call(org.liveKey, 'GET', `/v1/jobs/${id}`)).body as JobView;
  const untilState = (id: string, state: string, timeoutMs = 10_000) =>
    waitUntil(
      `job ${id} ${state}`,
      async () => {
        const j = await job(id);
        return j.state === state ? j : undefined;
      },
      { timeoutMs },
    );
  const device = async () =>
    (
      (await cloud.call(org.liveKey, 'GET', '/v1/devices')).body.data as Array<{
        id: string;
        status: string;
      }>
    )[0];
  const untilDevice = (status: string) =>
    waitUntil(`device ${status}`, async () => {
      const d = await device();
      return d?.status === status ? d : undefined;
    });
  const post = async (body: Record<string, unknown>) => {
    const res = await cloud.call(org.liveKey, 'POST', '/v1/jobs', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as JobView;
  };
  const receipt = (text: string, options: Record<string, unknown> = {}) => ({
    type: 'receipt',
    data: { blocks: [{ type: 'text', value: text }] },
    options,
  });
  const startAgent = () => {
    agent = AgentProcess.start(agentArgs);
    return agent;
  };

  before(async () => {
    printer = await FakePrinter.start();
    printer.on('data', () => (lastByteAt = performance.now()));
    env = CloudProcess.env(cloudDir, await freePort(), { AGENT_TOKEN_RECHECK_MS: '1000' });
    org = await CloudProcess.bootstrap(env);
    cloud = await CloudProcess.start(env);
    agentArgs = [
      '--data-dir',
      agentDir,
      '--cloud',
      cloud.url,
      '--activation-code',
      org.activationCode,
      '--printer',
      printer.uri('name=Counter&alias=counter'),
    ];
  });

  after(async () => {
    await agent?.kill();
    await cloud.stop();
    await printer.stop();
  });

  test('an activated agent shows as an online device with its printer', async () => {
    startAgent();
    const online = await untilDevice('online').catch((e: Error) => {
      throw new Error(`${e.message}\n${agent?.logs()}\n${cloud.logs()}`);
    });
    const printers = (await cloud.call(org.liveKey, 'GET', `/v1/printers?deviceId=${online.id}`))
      .body.data as Array<{ name: string; alias: string; status: string; isDefault: boolean }>;
    // The configured printer, and first; printers this computer has (system queues) follow it.
    assert.deepEqual(
      printers.filter((p) => p.isDefault).map((p) => [p.name, p.alias, p.isDefault]),
      [['Counter', 'counter', true]],
    );
  });

  test('a live receipt job reaches the printer within 100 ms of the POST', async () => {
    // One warm-up job: the first job of a process compiles the receipt engine.
    await untilState((await post(receipt('WARM UP'))).id, 'printed');
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const text = `LIVE ORDER ${i}`;
      const start = performance.now();
      const created = await post(receipt(text));
      const printed = await untilState(created.id, 'printed');
      samples.push(lastByteAt - start);
      assert.equal(timesPrinted(printer, text), 1);
      assert.deepEqual(
        printed.events.map((e) => e.state),
        ['queued', 'sending', 'printed'],
      );
      assert.ok(printed.dispatchedAt && printed.printedAt);
    }
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)]!;
    assert.ok(median < 100, `POST → last byte took ${median.toFixed(1)} ms (median of 5)`);
  });

  test('a job for an offline device waits queued and prints once the agent is back', async () => {
    await agent!.kill('SIGTERM');
    await untilDevice('offline');
    const printers = (await cloud.call(org.liveKey, 'GET', '/v1/printers')).body.data as Array<{
      status: string;
    }>;
    assert.deepEqual(
      [...new Set(printers.map((p) => p.status))],
      ['offline'],
      'the printers of an offline device are offline',
    );
    const first = await post(receipt('WAITED 1'));
    const second = await post(receipt('WAITED 2'));
    assert.equal((await job(first.id)).state, 'queued');
    startAgent();
    await untilState(first.id, 'printed', 20_000);
    await untilState(second.id, 'printed');
    const bytes = printer.bytes().toString('latin1');
    assert.ok(bytes.indexOf('WAITED 1') < bytes.indexOf('WAITED 2'), 'oldest first');
  });

  test('an agent killed after acknowledging a job and before printing it prints it exactly once', async () => {
    await printer.refuseConnections();
    const created = await post(receipt('KILLED BEFORE PRINTING', { maxAttempts: 5 }));
    // Acknowledged and tried: the printer refused, so the agent keeps it for a retry.
    await waitUntil('the agent to try the printer', async () => {
      const j = await job(created.id);
      return j.events.some((e) => e.state === 'queued' && j.dispatchedAt) ? j : undefined;
    });
    await agent!.kill('SIGKILL');
    assert.equal(timesPrinted(printer, 'KILLED BEFORE PRINTING'), 0);
    await printer.acceptConnections();
    startAgent();
    await untilState(created.id, 'printed', 20_000);
    assert.equal(timesPrinted(printer, 'KILLED BEFORE PRINTING'), 1);
  });

  test('a cloud restarted while jobs are queued loses none of them', async () => {
    await agent!.kill('SIGTERM');
    await untilDevice('offline');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post(receipt(`ACROSS RESTART ${i}`))).id);
    assert.equal(await cloud.stop('SIGTERM'), 0);
    cloud = await CloudProcess.start(env);
    startAgent();
    for (const id of ids) await untilState(id, 'printed', 20_000);
    for (let i = 0; i < 3; i++) assert.equal(timesPrinted(printer, `ACROSS RESTART ${i}`), 1);
  });

  test('paper out: the job is retried, then fails with PAPER_OUT, and the printer shows paper_out', async () => {
    printer.paperOut = true;
    const created = await post(receipt('NO PAPER', { maxAttempts: 2 }));
    const failed = await untilState(created.id, 'failed', 20_000);
    assert.equal(failed.errorCode, 'PAPER_OUT');
    assert.deepEqual(
      failed.events.map((e) => e.state),
      ['queued', 'sending', 'queued', 'sending', 'failed'],
    );
    const status = await waitUntil('printer paper_out', async () => {
      const p = (
        (await cloud.call(org.liveKey, 'GET', '/v1/printers')).body.data as Array<{
          name: string;
          status: string;
          lastStatusAt: string | null;
        }>
      ).find((q) => q.name === 'Counter')!;
      return p.status === 'paper_out' ? p : undefined;
    });
    assert.ok(status.lastStatusAt);
    printer.paperOut = false;
  });

  test('a revoked device is disconnected and its agent stops retrying', async () => {
    const d = await device();
    const store = await Store.open({ url: join(cloudDir, 'printwire.db'), migrate: false });
    try {
      assert.equal(await store.devices.revokeToken(org.orgId, d!.id), true);
    } finally {
      await store.close();
    }
    await untilDevice('offline');
    await waitUntil('the agent to forget its token', () =>
      existsSync(join(agentDir, 'device-token')) ? undefined : true,
    );
    // The log goes through pino's worker thread: it may reach stdout after the token is gone.
    await waitUntil('the agent to say why', () =>
      /activate it again/.test(agent!.logs()) ? true : undefined,
    );
  });
});
