/**
 * The reconnect storm: two cloud processes on PostgreSQL and Redis behind HAProxy, N simulated
 * agents (`STORM_AGENTS=2000 npm run bench -- storm`; default 10,000) speaking the real agent
 * protocol through the agent's own cloud link, jobs created through the public API throughout
 * (`STORM_JOBS_PER_SECOND`, default 50). Then every agent is dropped at once, twice: every HAProxy
 * process restarted, then one cloud process killed. Measured: the time until every agent is
 * welcomed again (welcome is sent once the cloud has marked the device online), the jobs lost and
 * printed twice, the p99 of job delivery (created → printed) during the storm against the same in
 * steady state (the baseline, same run), and memory per agent per cloud process. Needs
 * PostgreSQL, Redis, /usr/sbin/haproxy and `ulimit -n` above the agent count.
 */
import { execFileSync } from 'node:child_process';
import { cpuMs, rssKb, Storm, stormSkipReason, type Drop } from '../test/storm-support.js';

type Writes = Awaited<ReturnType<Storm['rowWrites']>>;
/** Rows written between two snapshots, `except` a table. */
function totalWrites(before: Writes, after: Writes, except?: string): number {
  return Object.entries(after).reduce((sum, [table, a]) => {
    if (table === except) return sum;
    const b = before[table] ?? { inserted: 0, updated: 0, deleted: 0 };
    return sum + a.inserted - b.inserted + a.updated - b.updated + a.deleted - b.deleted;
  }, 0);
}

/** Rows written between two snapshots per `per` (agents, jobs), the busiest tables first. */
function writesPer(before: Writes, after: Writes, per: number, except?: string): string {
  const rows = Object.entries(after)
    .filter(([table]) => table !== except)
    .map(([table, a]) => {
      const b = before[table] ?? { inserted: 0, updated: 0, deleted: 0 };
      return [
        table,
        a.inserted - b.inserted + a.updated - b.updated + a.deleted - b.deleted,
      ] as const;
    })
    .filter(([, n]) => n > 0)
    .sort((x, y) => y[1] - x[1]);
  const total = rows.reduce((sum, [, n]) => sum + n, 0);
  return `${fmt(total / per)} rows (${rows.map(([t, n]) => `${t} ${fmt(n / per)}`).join(', ')})`;
}
// PostgreSQL's statistics reach other sessions within about half a second.
const settled = () => new Promise((resolve) => setTimeout(resolve, 1000));
import { fmt, percentile } from './lib.js';

const arg = process.argv.slice(2).find((a) => /^\d+$/.test(a));
const AGENTS = Number(process.env.STORM_AGENTS ?? arg ?? 10_000);
const JOBS_PER_SECOND = Number(process.env.STORM_JOBS_PER_SECOND ?? 50);

const skip = await stormSkipReason();
if (skip) {
  console.log(`storm: skipped, ${skip}`);
  process.exit(0);
}
const limit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
if (Number.isFinite(limit) && limit < AGENTS + 500) {
  console.log(`ulimit -n is ${limit}: raise it above ${AGENTS + 500} and run again`);
  process.exit(0);
}
const load = () =>
  execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ');
console.log(`${AGENTS} agents, ${JOBS_PER_SECOND} jobs/s, load average ${load()}`);

const storm = await Storm.start({
  agents: AGENTS,
  jobsPerSecond: JOBS_PER_SECOND,
  log: (line) => console.log(`  ${line}`),
}).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
try {
  const perAgentKb = (pids: number[], idle: number[], agents: number) =>
    (pids.reduce((sum, pid, i) => sum + rssKb(pid) - idle[i]!, 0) / agents).toFixed(1);
  const pids = storm.clouds.map((c) => c.child.pid!);
  const idle = storm.clouds.map((c) => c.idleKb);
  console.log(
    `memory: ${perAgentKb(pids, idle, AGENTS)} KB per connected agent (RSS ${storm.clouds
      .map((c) => `${(rssKb(c.child.pid!) / 1024).toFixed(0)} MB`)
      .join(' + ')})`,
  );

  // Idle: what heartbeats alone cost.
  let cpuBefore = pids.map(cpuMs);
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const idleCpu = pids.reduce((sum, pid, i) => sum + cpuMs(pid) - cpuBefore[i]!, 0);
  console.log(
    `idle: cloud CPU ${fmt(idleCpu / 100)} % of a core for ${AGENTS} agents (heartbeats every 15 s): ` +
      `${fmt((idleCpu * 1000) / ((AGENTS * 10) / 15))} µs per heartbeat`,
  );

  // Steady state: the baseline delivery time.
  await settled();
  const writesBefore = await storm.rowWrites();
  const jobsBefore = storm.jobs.size;
  storm.startJobs();
  const steadyFrom = Date.now();
  cpuBefore = pids.map(cpuMs);
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const steadyCpu = pids.reduce((sum, pid, i) => sum + cpuMs(pid) - cpuBefore[i]!, 0);
  const steady = [...storm.jobs.values()]
    .filter((j) => j.createdAt >= steadyFrom && j.printedAt !== undefined)
    .map((j) => j.printedAt! - j.createdAt);
  const steadyP99 = percentile(steady, 99);
  const answered = [...storm.jobs.values()]
    .filter((j) => j.createdAt >= steadyFrom && j.answeredIn !== undefined)
    .map((j) => j.answeredIn!);
  console.log(
    `  POST /v1/jobs: ${answered.length} answered, p50 ${fmt(percentile(answered, 50))} ms, p99 ${fmt(percentile(answered, 99))} ms`,
  );
  console.log(
    `steady: ${steady.length} jobs in 10 s, delivery p50 ${fmt(percentile(steady, 50))} ms, p99 ${fmt(steadyP99)} ms; ` +
      `cloud CPU ${fmt(steadyCpu / 10 / 10)} % of a core (both processes, heartbeats + jobs): ` +
      `${fmt((steadyCpu - idleCpu) / Math.max(1, storm.jobs.size - jobsBefore))} ms per job`,
  );

  const show = (name: string, drop: Drop) => {
    const p99 = percentile(drop.deliveryMs, 99);
    console.log(
      `${name}: ${AGENTS} agents back in ${(drop.backMs / 1000).toFixed(1)} s; ${drop.jobsDuring} jobs created meanwhile, ` +
        `delivery p50 ${fmt(percentile(drop.deliveryMs, 50))} ms, p99 ${fmt(p99)} ms vs baseline steady p99 ${fmt(steadyP99)} ms = ${fmt(p99 / steadyP99)}x`,
    );
  };

  await storm.stopJobs();
  await settled();
  const writesSteady = await storm.rowWrites();
  console.log(
    `  PostgreSQL per job: ${writesPer(writesBefore, writesSteady, storm.jobs.size - jobsBefore, 'devices')} ` +
      `(devices left out: the heartbeats' last_seen_at writes)`,
  );
  storm.startJobs();

  const cpuStorm = pids.map(cpuMs);
  const jobsBeforeStorm = storm.jobs.size;
  const stormFrom = Date.now();
  const restart = await storm.restartBalancers();
  show('HAProxy restarted', restart);
  // The storm's own CPU: what the jobs created meanwhile (at the steady cost per job) and the
  // heartbeats (at the idle cost per second) took is taken out.
  const stormCpu = pids.reduce((s, pid, i) => s + cpuMs(pid) - cpuStorm[i]!, 0);
  const perJobCpu = (steadyCpu - idleCpu) / Math.max(1, jobsBeforeStorm - jobsBefore);
  const jobsCpu = perJobCpu * (storm.jobs.size - jobsBeforeStorm);
  const heartbeatsCpu = (idleCpu / 10_000) * (Date.now() - stormFrom);
  console.log(
    `  cloud CPU during it: ${fmt(stormCpu / 1000)} s, of which the storm's jobs ${fmt(jobsCpu / 1000)} s and ` +
      `heartbeats ${fmt(heartbeatsCpu / 1000)} s: ${fmt((stormCpu - jobsCpu - heartbeatsCpu) / AGENTS)} ms per reconnect`,
  );
  console.log(`  devices online in PostgreSQL: ${await storm.onlineInDatabase()} of ${AGENTS}`);
  await settled();
  const writesStorm = await storm.rowWrites();
  const perJob =
    totalWrites(writesBefore, writesSteady, 'devices') / Math.max(1, jobsBeforeStorm - jobsBefore);
  const jobRows = perJob * (storm.jobs.size - jobsBeforeStorm);
  console.log(
    `  PostgreSQL per reconnect: ${fmt((totalWrites(writesSteady, writesStorm) - jobRows) / AGENTS)} rows ` +
      `(the storm's jobs taken out at ${fmt(perJob)} rows each; all tables: ` +
      `${writesPer(writesSteady, writesStorm, AGENTS)})`,
  );

  const killed = await storm.killCloud(1);
  show('cloud process killed', killed);
  const survivor = storm.clouds[0]!;
  console.log(
    `  survivor holds all ${AGENTS}: ${((rssKb(survivor.child.pid!) - survivor.idleKb) / AGENTS).toFixed(1)} KB per agent ` +
      `(RSS ${(rssKb(survivor.child.pid!) / 1024).toFixed(0)} MB)`,
  );

  await storm.stopJobs();
  const { created, lost, doubled, lostJobs } = await storm.settle();
  for (const line of lostJobs) console.log(`  not printed: ${line}`);
  console.log(
    `jobs: ${created} created, ${storm.redelivered} sent again after a reconnect (acknowledged, not printed), ` +
      `${storm.createFailures} API calls retried, ${storm.skippedJobs} not asked for (64 waiting for their answer); load average ${load()}`,
  );
  const slowest = Math.max(restart.backMs, killed.backMs);
  console.log(
    `storm: ${AGENTS} agents back in ${(slowest / 1000).toFixed(1)} s, ${created} jobs, ${lost} lost, ${doubled} doubled`,
  );
} finally {
  await storm.stop();
}
process.exit(0);
