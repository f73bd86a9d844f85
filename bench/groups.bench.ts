/**
 * Printer groups: dispatch latency of a job that names a group against a job that names the
 * printer itself, in the same run, through the real cloud (`printwire-cloud serve`, SQLite) and
 * the real agent (`printwire-agent start`) with three fake network printers on loopback. The
 * latency is from the start of POST /v1/jobs to the job's last byte at its printer. Jobs go one
 * at a time (closed loop), alternating single, failover group, round-robin group, so that the
 * three kinds share every disturbance of the machine. Goal: a group job at most 1.2x the single.
 *
 * Each job is a text job whose content ends with a unique marker and no cut, so the marker's last
 * character is the job's last byte at the printer (lib.ts `markedJob`).
 */
import { performance } from 'node:perf_hooks';
import { waitUntil } from '../test/e2e-support.js';
import { fmt, markedJob, percentile, startCloudAndAgent } from './lib.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 150);
const NAMES = ['Bench 1', 'Bench 2', 'Bench 3'];

const bench = await startCloudAndAgent('Bench groups', NAMES);
const { cloud, org, printedAt: seenAt } = bench;

let next = 0;
/** Jobs start at least this far apart: a key may send 100 requests a second (the API's limit). */
const SPACING_MS = 12;
let lastStart = -Infinity;
/** Posts job n to `target` and resolves with its latency once its last byte is printed. */
async function timed(target: Record<string, string>): Promise<number> {
  const wait = lastStart + SPACING_MS - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const n = next++;
  const start = performance.now();
  lastStart = start;
  const res = await cloud.call(org.liveKey, 'POST', '/v1/jobs', { ...markedJob(n), ...target });
  if (res.status !== 201) throw new Error(`POST ${res.status}: ${JSON.stringify(res.body)}`);
  await waitUntil(`job ${n} printed`, () => (seenAt.has(n) ? true : undefined), {
    timeoutMs: 30_000,
    intervalMs: 1,
  });
  return seenAt.get(n)! - start;
}

try {
  const ids = await waitUntil(
    'the printers online',
    async () => {
      const listed = (await cloud.call(org.liveKey, 'GET', '/v1/printers?limit=100')).body
        .data as Array<{ id: string; name: string; status: string }>;
      const mine = NAMES.map((n) => listed.find((p) => p.name === n));
      return mine.every((p) => p?.status === 'online') ? mine.map((p) => p!.id) : undefined;
    },
    { timeoutMs: 30_000 },
  );
  const token = await cloud.login(org);
  const group = async (strategy: string) => {
    const res = await cloud.call(token, 'POST', `/orgs/${org.orgId}/printer-groups`, {
      name: strategy,
      strategy,
      printerIds: ids,
    });
    if (res.status !== 201) throw new Error(`group: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const kinds = {
    'single printer': { printerId: ids[0]! },
    'failover group': { printerGroupId: await group('failover') },
    'round-robin group': { printerGroupId: await group('round-robin') },
  };
  const samples = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]));
  // Warm-up: compiles the paths on both processes.
  for (let i = 0; i < 10; i++) for (const target of Object.values(kinds)) await timed(target);
  for (let i = 0; i < JOBS; i++) {
    for (const [kind, target] of Object.entries(kinds))
      samples.get(kind)!.push(await timed(target));
  }
  console.log(`${JOBS} jobs of each kind, one at a time; POST → last byte in ms`);
  const base = samples.get('single printer')!;
  for (const [kind, ms] of samples) {
    const ratio = percentile(ms, 50) / percentile(base, 50);
    console.log(
      `${kind.padEnd(18)} p50 ${fmt(percentile(ms, 50))} p95 ${fmt(percentile(ms, 95))}  ` +
        `p50 vs single printer ${ratio.toFixed(2)}x${kind === 'single printer' ? ' (baseline)' : ratio <= 1.2 ? ' (goal ≤ 1.2x: met)' : ' (goal ≤ 1.2x: MISSED)'}`,
    );
  }
} finally {
  await bench.stop();
}
