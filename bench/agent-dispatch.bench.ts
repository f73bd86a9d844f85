/**
 * The agent's share of dispatch latency: from the cloud sending `job.dispatch` to the last byte
 * at a (fake) network printer on loopback, through the real agent (the job stored and marked
 * printing, flushed to disk with `power-loss` durability, ack, render, DLE EOT status after,
 * printed mark). Jobs go one after the other, so each finds the connection kept open and the
 * status read after the previous one; the last row turns both off (`keepOpenMs` and
 * `statusMaxAgeMs` 0), as for a job that comes more than a second after the last: it connects
 * and reads the status first. Baseline: the bare minimum path in the same process, a WebSocket
 * message whose payload a client writes to an open TCP connection to the same printer.
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { WebSocket, WebSocketServer } from 'ws';
import { Agent, silentLogger } from '@printwire/agent';
import type { RunnerOptions } from '@printwire/agent';
import { FakeCloud } from '../test/fake-cloud.js';
import { FakePrinter } from '../test/fake-printer.js';
import { fmt, percentile } from './lib.js';

const JOBS = 300;
const CONTENT = 'Table 12 - 2 x espresso - 1 x croissant - total 7.80\n'.repeat(8);

type Durability = 'power-loss' | 'process';

async function agentPath(durability: Durability, runner: RunnerOptions = {}): Promise<number[]> {
  const cloud = await FakeCloud.start();
  const printer = await FakePrinter.start();
  cloud.activationCodes.set('BENCH', { deviceId: 'dev_bench', deviceToken: 'pwd_bench_token' });
  const agent = await Agent.open({
    dataDir: mkdtempSync(join(tmpdir(), 'pw-bench-agent-')),
    cloudUrl: cloud.url,
    activationCode: 'BENCH',
    printers: [printer.uri()],
    logger: silentLogger(),
    runner: { pollIntervalMs: 0, ...runner },
    durability,
  });
  agent.start();
  const hello = await cloud.waitFor('hello');
  const agentPrinterId = hello.printers[0]!.agentPrinterId;
  await new Promise((r) => setTimeout(r, 100));
  const samples: number[] = [];
  for (let i = 0; i < JOBS; i++) {
    const before = printer.byteCount;
    const started = performance.now();
    cloud.dispatch({
      id: `job_${i}`,
      attempt: 1,
      maxAttempts: 3,
      agentPrinterId,
      type: 'text',
      encoding: 'utf8',
      content: CONTENT,
      options: { cut: 'partial' },
      expiresAt: null,
      createdAt: new Date().toISOString(),
    });
    await printer.waitForBytes(before + CONTENT.length);
    samples.push(performance.now() - started);
    await cloud.waitFor('job.result', (m) => m.jobId === `job_${i}`, { past: true });
  }
  await agent.stop();
  await cloud.stop();
  await printer.stop();
  return samples;
}

async function barePath(): Promise<number[]> {
  const printer = await FakePrinter.start();
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const port = (wss.address() as { port: number }).port;
  const serverSide = once(wss, 'connection');
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  const tcp = connect(printer.port, printer.host);
  await Promise.all([once(client, 'open'), once(tcp, 'connect')]);
  const [server] = (await serverSide) as [WebSocket];
  client.on('message', (data: Buffer) => tcp.write(data));
  const samples: number[] = [];
  for (let i = 0; i < JOBS; i++) {
    const before = printer.byteCount;
    const started = performance.now();
    server.send(CONTENT);
    await printer.waitForBytes(before + CONTENT.length);
    samples.push(performance.now() - started);
  }
  client.close();
  tcp.destroy();
  wss.close();
  await printer.stop();
  return samples;
}

const bare = await barePath();
const cases: Array<{ label: string; durability: Durability; runner?: RunnerOptions }> = [
  { label: 'durability power-loss', durability: 'power-loss' },
  { label: 'durability process', durability: 'process' },
  {
    label: 'durability power-loss, connect + status per job',
    durability: 'power-loss',
    runner: { keepOpenMs: 0, statusMaxAgeMs: 0 },
  },
];
for (const { label, durability, runner } of cases) {
  const agent = await agentPath(durability, runner);
  for (const p of [50, 99]) {
    const a = percentile(agent, p);
    const b = percentile(bare, p);
    console.log(
      `agent dispatch → last byte p${p} (${label}): ${fmt(a)} ms vs bare ws+tcp ${fmt(b)} ms; the agent adds ${fmt(a - b)} ms`,
    );
  }
}
