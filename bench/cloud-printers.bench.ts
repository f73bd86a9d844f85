/**
 * Printers without a computer under a city's load: 1,000 simulated Star CloudPRNT printers, each
 * polling every 5 s (200 polls a second), against one cloud process on SQLite; and the same
 * count of bare HTTP requests to an Express handler that answers `{"jobReady":false}` in the same
 * run. Printed: the latency at the city's rate, and the most polls a second each answers (every
 * printer on its own keep-alive connection, as printers are), with the ratio bare / Printwire
 * (goal: the poll path costs at most 2x a bare request). `npm run bench -- cloud-printers`.
 *
 * Each configuration runs in rounds (BENCH_ROUNDS, default 3), bare then Printwire, medians.
 */
import express from 'express';
import {
  autocannon,
  fmt,
  listen,
  median,
  startCloudInProcess,
  type AutocannonRequest,
  type AutocannonResult,
} from './lib.js';

const PRINTERS = Number(process.env.BENCH_PRINTERS ?? 1000);
const POLL_INTERVAL_S = 5;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Connections of the capacity runs (a printer per connection would need 1,000 sockets each way). */
const CAPACITY_CONNECTIONS = 50;

/** A poll as an mC-Print3 sends it (Star CloudPRNT Protocol Guide 2.4, JSON request). */
function poll(path: string, clientAction: unknown = null): AutocannonRequest {
  return {
    method: 'POST',
    path,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'CloudPRNT/3.0 mC-Print3/3.6',
    },
    body: JSON.stringify({
      status: '23 86 00 00 00 00 00 00 00 00 00',
      printerMAC: '00:11:62:31:f0:57',
      statusCode: '200%20OK',
      printingInProgress: false,
      clientAction,
    }),
  };
}

async function main(): Promise<void> {
  const printwire = await startCloudInProcess();
  const { cloud, org } = printwire;
  const paths: string[] = [];
  for (let i = 0; i < PRINTERS; i++) {
    const created = await cloud.cloudPrinters.create(org.orgId, {
      name: `Restaurant ${i}`,
      protocol: 'cloudprnt',
    });
    paths.push(new URL(created.url).pathname);
  }

  // Each printer's first poll: online, and its answer to ClientType and Encodings.
  const answers = [
    { request: 'ClientType', result: 'Star mC-Print3' },
    { request: 'Encodings', result: 'application/vnd.star.starprnt; image/png; text/plain' },
  ];
  for (const path of paths) {
    const first = poll(path, answers);
    const res = await fetch(printwire.url + path, {
      method: first.method,
      headers: first.headers,
      body: first.body,
    });
    if (res.status !== 200) throw new Error(`first poll answered ${res.status}`);
    await res.arrayBuffer();
  }
  const requests = paths.map((p) => poll(p));

  const bareApp = express();
  bareApp.post('/printer-pull/cloudprnt/:secret', express.json(), (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ jobReady: false });
  });
  const bare = await listen(bareApp);

  const run = async (url: string, options: { connections: number; overallRate?: number }) => {
    const r = await autocannon({
      url,
      workers: 1,
      duration: SECONDS,
      requests,
      ...options,
    });
    if (r.non2xx > 0 || r.errors > 0) {
      throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    }
    return r;
  };

  console.log(
    `${PRINTERS} CloudPRNT printers, ${SECONDS} s per run, ${ROUNDS} rounds of bare then Printwire, medians; SQLite`,
  );
  // The city's load: every printer polls every 5 s.
  const rate = PRINTERS / POLL_INTERVAL_S;
  const city = { ours: [] as AutocannonResult[], base: [] as AutocannonResult[] };
  for (let round = 0; round < ROUNDS; round++) {
    city.base.push(await run(bare.url, { connections: CAPACITY_CONNECTIONS, overallRate: rate }));
    city.ours.push(
      await run(printwire.url, { connections: CAPACITY_CONNECTIONS, overallRate: rate }),
    );
  }
  console.log(
    `city load (${rate} polls/s offered): Printwire ${fmt(median(city.ours.map((r) => r.requests.average)))} polls/s answered, p50 ${fmt(median(city.ours.map((r) => r.latency.p50)))} ms, p99 ${fmt(median(city.ours.map((r) => r.latency.p99)))} ms; bare Express p50 ${fmt(median(city.base.map((r) => r.latency.p50)))} ms, p99 ${fmt(median(city.base.map((r) => r.latency.p99)))} ms`,
  );

  // The most each answers: polls per second, and the cost ratio.
  const ratios: number[] = [];
  const ours: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const b = await run(bare.url, { connections: CAPACITY_CONNECTIONS });
    const o = await run(printwire.url, { connections: CAPACITY_CONNECTIONS });
    base.push(b.requests.average);
    ours.push(o.requests.average);
    ratios.push(b.requests.average / o.requests.average);
  }
  const ratio = median(ratios);
  const met = ratio <= 2;
  console.log(
    `capacity @ ${CAPACITY_CONNECTIONS} conn: Printwire ${fmt(median(ours))} polls/s vs bare Express ${fmt(median(base))} req/s: a poll costs ${fmt(ratio)}x a bare request [rounds: ${ratios.map((r) => fmt(r)).join(', ')}] (target <= 2x: ${met ? 'met' : 'NOT met'}); the city's ${rate} polls/s use ${fmt((rate / median(ours)) * 100, 1)}% of one process`,
  );

  await new Promise((resolve) => bare.server.close(resolve));
  await printwire.close();
}

await main();
