/**
 * Webhook deliveries: a live job written to SQLite as printed (its job.printed event committed with
 * it, to the outbox), the job.state_changed bus event as JobService publishes it → the intake
 * stores the delivery → the worker signs and POSTs it to a receiver on 127.0.0.1. Measured:
 * deliveries per second for a burst of job writes (writes included), event-to-delivery latency
 * (the job write committed → the receiver has the request) at a steady pace, and what the outbox
 * costs a job write: sequential writes for an organization without webhooks and for one with an
 * endpoint subscribed. Baseline in the same process: a bare POST loop (same keep-alive
 * concurrency, same body) to the same receiver, and a single bare POST's latency.
 * `npm run bench webhooks`.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import {
  bootstrap,
  MemoryBus,
  Store,
  systemClock,
  WebhookService,
  type NewJob,
  type Organization,
} from '@printwire/cloud';
import { textJobInput } from '@printwire/cloud/testing';
import { fmt, percentile } from './lib.js';

const BURST = 2000;
const PACED = 300;
const PACE_MS = 5;
const CONCURRENCY = 16;
const WRITES = 1000;

const seen = new Map<string, number>();
let arrivals = 0;
let onArrival: (() => void) | undefined;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      data: { job: { id: string } };
    };
    seen.set(body.data.job.id, performance.now());
    arrivals++;
    onArrival?.();
    res.writeHead(204).end();
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const until = (n: number) =>
  new Promise<void>((resolve) => {
    if (arrivals >= n) return resolve();
    onArrival = () => {
      if (arrivals >= n) {
        onArrival = undefined;
        resolve();
      }
    };
  });

const dir = mkdtempSync(join(tmpdir(), 'pw-bench-webhooks-'));
const store = await Store.open({ url: join(dir, 'printwire.db') });
const bus = new MemoryBus();
const webhooks = new WebhookService({
  store,
  bus,
  clock: systemClock,
  logger: pino({ level: 'silent' }),
  options: { allowPrivate: true, maxConcurrentPerEndpoint: CONCURRENCY, pollIntervalMs: 1000 },
});
const boot = await bootstrap(
  store,
  { email: 'bench@example.com', password: 'correct horse battery', org: 'Bench', plan: 'business' },
  Date.now(),
);
const org = (await store.organizations.get(boot.orgId)) as Organization;
await webhooks.create(org, 'live', { url, events: ['job.printed'] });
const quiet = await bootstrap(
  store,
  { email: 'quiet@example.com', password: 'correct horse battery', org: 'Quiet', plan: 'business' },
  Date.now(),
);
await webhooks.start();

/** A live job printed in one write (as the sandbox does for test jobs). */
const printedJob = (organizationId: string, order: string): NewJob =>
  textJobInput(organizationId, {
    metadata: { order },
    then: [{ state: 'sending' }, { state: 'printed' }],
  });

/** Writes a printed job, then publishes its bus event; resolves with the job id once written. */
const write = async (order: string, onCommitted?: (id: string) => void): Promise<string> => {
  const { job } = await store.jobs.create(printedJob(org.id, order), Date.now());
  onCommitted?.(job.id);
  void bus.publish({
    type: 'job.state_changed',
    organizationId: org.id,
    mode: 'live',
    jobId: job.id,
    state: 'printed',
    errorCode: null,
    at: new Date().toISOString(),
    job: { id: job.id, state: 'printed', type: 'text', metadata: { order } },
  });
  return job.id;
};

try {
  // Burst throughput.
  arrivals = 0;
  let t0 = performance.now();
  for (let i = 0; i < BURST; i++) void write(`b${i}`);
  await until(BURST);
  const deliveredPerSecond = (BURST * 1000) / (performance.now() - t0);

  // Paced latency.
  arrivals = 0;
  const sent = new Map<string, number>();
  for (let i = 0; i < PACED; i++) {
    void write(`p${i}`, (id) => sent.set(id, performance.now()));
    await new Promise((r) => setTimeout(r, PACE_MS));
  }
  await until(PACED);
  const latency = [...sent].map(([id, at]) => seen.get(id)! - at);

  // A job write's own cost, one at a time, alternating an organization without webhooks and one
  // with an endpoint subscribed. The service is stopped first: no intake or attempt competes
  // with the writes, and the outbox events they write are left undelivered.
  await webhooks.stop();
  const without: number[] = [];
  const withEndpoint: number[] = [];
  for (let i = -50; i < WRITES; i++) {
    for (const [organizationId, samples] of [
      [quiet.orgId, without],
      [org.id, withEndpoint],
    ] as const) {
      const start = performance.now();
      await store.jobs.create(printedJob(organizationId, 'w'), Date.now());
      if (i >= 0) samples.push(performance.now() - start);
    }
  }

  // Baseline: bare POSTs of the same body size, same concurrency, keep-alive.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = JSON.stringify({
    id: 'evt_x',
    type: 'job.printed',
    createdAt: new Date().toISOString(),
    organizationId: org.id,
    data: { job: { id: 'job_base', state: 'printed', type: 'receipt', printerId: 'prn_bench' } },
  });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve();
      });
      req.on('error', reject);
      req.end(body);
    });
  t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < BURST) await post();
    }),
  );
  const barePerSecond = (BURST * 1000) / (performance.now() - t0);
  const bareLatency: number[] = [];
  for (let i = 0; i < PACED; i++) {
    const s = performance.now();
    await post();
    bareLatency.push(performance.now() - s);
  }
  agent.destroy();

  console.log(
    `burst of ${BURST}: ${fmt(deliveredPerSecond, 0)} deliveries/s (stored, signed, POSTed); bare POST loop ${fmt(barePerSecond, 0)}/s; ratio ${fmt(deliveredPerSecond / barePerSecond)}`,
  );
  console.log(
    `event → delivered at ${1000 / PACE_MS} events/s: p50 ${fmt(percentile(latency, 50))} ms p99 ${fmt(percentile(latency, 99))} ms; bare POST p50 ${fmt(percentile(bareLatency, 50))} ms p99 ${fmt(percentile(bareLatency, 99))} ms`,
  );
  console.log(
    `job write (queued → sending → printed, durable), one at a time: no webhooks p50 ${fmt(percentile(without, 50))} ms p99 ${fmt(percentile(without, 99))} ms; with an endpoint p50 ${fmt(percentile(withEndpoint, 50))} ms p99 ${fmt(percentile(withEndpoint, 99))} ms; ratio ${fmt(percentile(withEndpoint, 50) / percentile(without, 50))}`,
  );
} finally {
  await webhooks.stop();
  await store.close();
  receiver.closeAllConnections();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
