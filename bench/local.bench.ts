/**
 * Local mode: from a page's `job.print` on the agent's local WebSocket to the last byte at a
 * (fake) network printer on loopback, through the real agent (request parsed and judged, job
 * stored in the durable queue with `power-loss` durability, report queued for the cloud,
 * render, printer write, status after). Unsigned (an allowed origin) and signed (Ed25519
 * verify + nonce stored). Baseline in the same process: a bare ws round trip on loopback (a
 * message to a WebSocket server that echoes it). The target: the local path adds under
 * 2 ms at p50 over the baseline.
 */
import { mkdtempSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import { Agent, DEFAULT_LOCAL_SETTINGS, silentLogger } from '@printwire/agent';
import { LocalTestClient, signRequest, testSigningKey } from '@printwire/agent/testing';
import { FakePrinter } from '../test/fake-printer.js';
import { fmt, percentile } from './lib.js';

const JOBS = 300;
const ORIGIN = 'https://shop.example';
const CONTENT = 'Table 12 - 2 x espresso - 1 x croissant - total 7.80\n'.repeat(8);

async function localPath(signed: boolean): Promise<number[]> {
  const printer = await FakePrinter.start();
  const key = testSigningKey();
  const agent = await Agent.open({
    dataDir: mkdtempSync(join(tmpdir(), 'pw-bench-local-')),
    printers: [printer.uri()],
    logger: silentLogger(),
    runner: { pollIntervalMs: 0 },
    localServer: { port: 0 },
  });
  agent.local.applyConfig({
    local: {
      ...DEFAULT_LOCAL_SETTINGS,
      allowedOrigins: signed ? [] : [ORIGIN],
      signingKeys: [{ id: key.id, publicKey: key.publicKey }],
    },
  });
  agent.start();
  const port = (await agent.localServerReady)!;
  const client = await LocalTestClient.connect(`ws://127.0.0.1:${port}`, {
    origin: ORIGIN,
    host: `localhost:${port}`,
  });
  const samples: number[] = [];
  for (let i = 0; i < JOBS; i++) {
    const body = { type: 'text', data: CONTENT };
    const auth = signed
      ? {
          auth: signRequest(key, {
            type: 'job.print',
            origin: ORIGIN,
            body,
            timestamp: Math.floor(Date.now() / 1000),
          }),
        }
      : {};
    const before = printer.byteCount;
    const started = performance.now();
    const reply = client.request('job.print', body, auth);
    await printer.waitForBytes(before + CONTENT.length);
    samples.push(performance.now() - started);
    const answer = await reply;
    if (answer.type !== 'reply') throw new Error(JSON.stringify(answer));
    const id = (answer.result as { id: string }).id;
    await client.next(
      (f) =>
        f.type === 'event' && f.event === 'job' && f.data.id === id && f.data.state === 'printed',
    );
  }
  client.close();
  await agent.stop();
  await printer.stop();
  return samples;
}

async function bareRoundTrip(): Promise<number[]> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  wss.on('connection', (ws) => ws.on('message', (data) => ws.send(data)));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`);
  await once(client, 'open');
  const message = JSON.stringify({
    v: 1,
    id: 'x',
    type: 'job.print',
    body: { type: 'text', data: CONTENT },
  });
  const samples: number[] = [];
  for (let i = 0; i < JOBS; i++) {
    const started = performance.now();
    client.send(message);
    await once(client, 'message');
    samples.push(performance.now() - started);
  }
  client.close();
  wss.close();
  return samples;
}

const bare = await bareRoundTrip();
const unsigned = await localPath(false);
const signed = await localPath(true);
const b50 = percentile(bare, 50);
console.log(
  `bare ws round trip            p50 ${fmt(b50)} ms  p99 ${fmt(percentile(bare, 99))} ms`,
);
for (const [name, samples] of [
  ['local print, unsigned', unsigned],
  ['local print, signed  ', signed],
] as const) {
  const p50 = percentile(samples, 50);
  console.log(
    `${name}         p50 ${fmt(p50)} ms  p99 ${fmt(percentile(samples, 99))} ms  ` +
      `(${fmt(p50 / b50, 1)}× the bare round trip; adds ${fmt(p50 - b50)} ms at p50, target < 2 ms)`,
  );
}
