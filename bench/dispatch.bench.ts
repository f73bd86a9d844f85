/**
 * End-to-end dispatch latency: from the start of POST /v1/jobs to the job's last byte at a fake
 * network printer on loopback, through the real cloud (`printwire-cloud serve`, SQLite with
 * durable group commit) and the real agent (`printwire-agent start`), at 10 and 100 jobs per
 * second (open loop: a POST starts every 100 or 10 ms whatever the previous ones are doing).
 * Baseline in the same run: the latency of the POST alone (until its 201). "Dispatch adds" is
 * the end-to-end latency minus the POST's, per job.
 *
 * Each job is a text job whose content ends with a unique marker and no cut, so the marker's
 * last character is the job's last byte at the printer (lib.ts `markedJob`).
 */
import { performance } from 'node:perf_hooks';
import { waitUntil } from '../test/e2e-support.js';
import { fmt, markedJob, percentile, startCloudAndAgent } from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RATES = [10, 100];

const bench = await startCloudAndAgent('Bench shop', ['Bench']);
const { cloud, org, printedAt: seenAt } = bench;

async function post(n: number): Promise<{ start: number; posted: number }> {
  const start = performance.now();
  const res = await cloud.call(org.liveKey, 'POST', '/v1/jobs', markedJob(n));
  if (res.status !== 201) throw new Error(`POST ${res.status}: ${JSON.stringify(res.body)}`);
  return { start, posted: performance.now() };
}

let next = 0;
try {
  await waitUntil(
    'the agent online',
    async () => {
      const d = (await cloud.call(org.liveKey, 'GET', '/v1/devices')).body.data[0];
      return d?.status === 'online' ? true : undefined;
    },
    { timeoutMs: 30_000 },
  );
  // Warm-up: compiles the paths on both processes.
  for (let i = 0; i < 20; i++) {
    const n = next++;
    await post(n);
    await waitUntil(`warm-up job ${n}`, () => (seenAt.has(n) ? true : undefined));
  }
  console.log(
    `${SECONDS} s per rate, open loop; latency in ms; cloud and agent are separate processes`,
  );
  for (const rate of RATES) {
    const count = rate * SECONDS;
    const first = next;
    next += count;
    const posts: Array<Promise<{ start: number; posted: number }>> = [];
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const due = t0 + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      posts.push(post(first + i));
    }
    const timings = await Promise.all(posts);
    await waitUntil(
      `${count} jobs printed`,
      () => (timings.every((_, i) => seenAt.has(first + i)) ? true : undefined),
      { timeoutMs: 60_000 },
    );
    const postMs = timings.map((t) => t.posted - t.start);
    const endToEnd = timings.map((t, i) => seenAt.get(first + i)! - t.start);
    const added = timings.map((t, i) => seenAt.get(first + i)! - t.posted);
    console.log(
      `${String(rate).padStart(3)} jobs/s  POST alone p50 ${fmt(percentile(postMs, 50))} p99 ${fmt(percentile(postMs, 99))}` +
        `  POST → last byte p50 ${fmt(percentile(endToEnd, 50))} p99 ${fmt(percentile(endToEnd, 99))}` +
        `  after the 201 p50 ${fmt(percentile(added, 50))} p99 ${fmt(percentile(added, 99))}`,
    );
  }
} finally {
  await bench.stop();
}
