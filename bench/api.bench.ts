/**
 * The REST API under load: POST /v1/jobs (a receipt with a test key: validated, printed by the
 * sandbox, stored durably in SQLite before the 201: group commit, the WAL synced with fdatasync
 * before any write of the batch is answered) and GET /v1/jobs (a page of 25), at 1,
 * 10 and 50 connections, against a bare Express handler answering the same JSON in the same
 * process. Target at 50 connections: at least 50% of the bare handler's throughput and p99 under
 * 20 ms. `npm run bench api`.
 *
 * Each configuration runs in rounds (BENCH_ROUNDS, default 3), bare then Printwire in each, and
 * reports the medians: on a shared machine one pair of runs can be off by 10% either way.
 */
import express from 'express';
import { autocannon, fmt, listen, median, startCloudInProcess } from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = [1, 10, 50];

const receipt = {
  type: 'receipt',
  data: {
    blocks: [
      { type: 'text', value: 'Café du Port', align: 'center', bold: true, size: 2 },
      { type: 'text', value: '12 rue du Quai, 97110 Pointe-à-Pitre', align: 'center' },
      { type: 'line', style: 'dashed' },
      {
        type: 'table',
        columns: [{ width: 0.6 }, { width: 0.15, align: 'right' }, { width: 0.25, align: 'right' }],
        rows: [
          ['Croissant', '2', '5.00'],
          ['Café crème', '1', '3.20'],
          ['Jus de goyave', '1', '4.50'],
        ],
      },
      { type: 'line' },
      { type: 'pair', left: 'TOTAL', right: '12.70 €', bold: true },
      { type: 'qr', value: 'https://example.com/r/8412', size: 6 },
      { type: 'cut' },
    ],
  },
  metadata: { order: '8412', till: '2' },
};

async function main(): Promise<void> {
  // One key sends every request here; the per-key limit would refuse most of them.
  const printwire = await startCloudInProcess((defaults) => ({
    limits: { ...defaults.limits, rateLimitPerSecond: 1e9, rateLimitBurst: 1e9 },
  }));
  const { org } = printwire;
  const headers = { authorization: `Bearer ${org.testKey}`, 'content-type': 'application/json' };
  const body = JSON.stringify(receipt);

  // The bare handler answers what Printwire answers, so both write the same bytes.
  const sampleJob = await (
    await fetch(`${printwire.url}/v1/jobs`, { method: 'POST', headers, body })
  ).json();
  for (let i = 0; i < 30; i++)
    await fetch(`${printwire.url}/v1/jobs`, { method: 'POST', headers, body });
  const sampleList = await (await fetch(`${printwire.url}/v1/jobs`, { headers })).json();
  const bareApp = express();
  bareApp.use(express.json({ limit: '5mb' }));
  bareApp.post('/v1/jobs', (_req, res) => {
    res.status(201).json(sampleJob);
  });
  bareApp.get('/v1/jobs', (_req, res) => {
    res.json(sampleList);
  });
  const bare = await listen(bareApp);

  console.log(
    `${SECONDS} s per run, ${ROUNDS} rounds of bare then Printwire, medians; SQLite, every job synced to disk before its 201 (group commit); ratio = Printwire / bare Express`,
  );
  const rows: string[] = [];
  let met = true;
  for (const [name, method] of [
    ['POST /v1/jobs (receipt, test key)', 'POST'],
    ['GET /v1/jobs', 'GET'],
  ] as const) {
    for (const connections of CONNECTIONS) {
      const options = {
        // The load generator runs in its own thread, so it does not share the servers' event loop.
        workers: 1,
        connections,
        duration: SECONDS,
        method,
        headers,
        ...(method === 'POST' ? { body } : {}),
      };
      const ratios: number[] = [];
      const ours = { rps: [] as number[], p99: [] as number[] };
      const base = { rps: [] as number[], p99: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        const b = await autocannon({ ...options, url: `${bare.url}/v1/jobs` });
        const o = await autocannon({ ...options, url: `${printwire.url}/v1/jobs` });
        if (o.non2xx > 0 || o.errors > 0) {
          throw new Error(`${name}: ${o.non2xx} non-2xx answers, ${o.errors} errors`);
        }
        base.rps.push(b.requests.average);
        base.p99.push(b.latency.p99);
        ours.rps.push(o.requests.average);
        ours.p99.push(o.latency.p99);
        ratios.push(o.requests.average / b.requests.average);
      }
      const ratio = median(ratios);
      const p99 = median(ours.p99);
      let verdict = '';
      if (connections === 50) {
        const ok = ratio >= 0.5 && p99 < 20;
        met &&= ok;
        verdict = ` (target >= 0.5x and p99 < 20 ms: ${ok ? 'met' : 'NOT met'})`;
        if (median(base.p99) >= 20) {
          verdict += `; bare Express's own p99 is ${fmt(median(base.p99))} ms on this machine`;
        }
      }
      rows.push(
        `${name} @ ${connections} conn: ${fmt(median(ours.rps))} req/s (p99 ${fmt(p99)} ms) vs bare Express ${fmt(median(base.rps))} req/s (p99 ${fmt(median(base.p99))} ms) = ${fmt(ratio)}x [rounds: ${ratios.map((r) => fmt(r)).join(', ')}]${verdict}`,
      );
      console.log(rows[rows.length - 1]);
    }
  }
  console.log(met ? 'targets met' : 'targets NOT met');

  await new Promise((resolve) => bare.server.close(resolve));
  await printwire.close();
}

await main();
