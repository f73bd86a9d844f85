/**
 * The reconnect storm, shared by `npm run bench -- storm` and test/storm.test.ts: two cloud
 * processes (`printwire-cloud serve`) on one PostgreSQL schema and one Redis, behind HAProxy
 * (Debian's, started here with a generated configuration on loopback ports), and N simulated
 * agents in a few worker processes (test/storm-agents.ts: the agent's real cloud link) connecting
 * through it. Jobs are created through the public API at a steady rate; the storm drops every
 * agent at once (HAProxy restarted, or one cloud process killed) and measures how long until
 * every agent is welcomed again, and that every job created prints once.
 *
 * Two HAProxy processes front the same two cloud processes and the agents are split between
 * them (as DNS round-robin over two balancers would): a proxied connection holds two file
 * descriptors and this container caps a process at 20,000 (`ulimit -Hn`), so one HAProxy
 * process tops out just under 10,000 agents.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { bootstrap, hashSecret, type Store } from '@printwire/cloud';
import {
  postgresReachable,
  postgresRowWrites,
  POSTGRES_URL,
  redisReachable,
  REDIS_URL,
  testDatabase,
} from '@printwire/cloud/testing';
import type { FromWorker, StormAgentSpec } from './storm-agents.js';
import { freePort, tempDir, waitUntil } from './e2e-support.js';

const CLOUD_BIN = new URL('../cloud/bin/printwire-cloud.mjs', import.meta.url).pathname;
const AGENTS_WORKER = new URL('./storm-agents.ts', import.meta.url).pathname;
export const HAPROXY = process.env.HAPROXY || '/usr/sbin/haproxy';
/** `STORM_CPU_PROFILE=dir`: each cloud process writes a V8 CPU profile there when it stops. */
const profile = process.env.STORM_CPU_PROFILE
  ? ['--cpu-prof', '--cpu-prof-dir', process.env.STORM_CPU_PROFILE]
  : [];

/** Why the storm cannot run here (PostgreSQL, Redis or HAProxy missing), or false. */
export async function stormSkipReason(): Promise<string | false> {
  if (!existsSync(HAPROXY)) return `HAProxy not found at ${HAPROXY} (apt-get install haproxy)`;
  const [pgUp, redisUp] = await Promise.all([postgresReachable(), redisReachable()]);
  if (!pgUp) return `PostgreSQL not reachable at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')}`;
  if (!redisUp) return `Redis not reachable at ${REDIS_URL}`;
  return false;
}

export const rssKb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

/** CPU time (user + system) of a process, in ms. */
export const cpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

/** Every process started here, killed when this one exits however it ends. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));
function tracked(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = once(child, 'exit');
  child.kill(signal);
  await done;
}

/** One `printwire-cloud serve` on PostgreSQL and Redis. */
class CloudInstance {
  child!: ChildProcess;
  output = '';
  idleKb = 0;

  constructor(
    readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.output = '';
    this.child = tracked(
      spawn(process.execPath, [...profile, CLOUD_BIN, 'serve'], {
        env: { ...this.env, PORT: String(this.port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    const keep = (c: Buffer) => {
      this.output = (this.output + c.toString()).slice(-20_000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    await waitUntil(
      `the cloud on port ${this.port}`,
      async () => {
        if (this.child.exitCode !== null) throw new Error(`serve exited:\n${this.output}`);
        const ok = await fetch(`${this.url}/health/live`).then(
          (r) => r.ok,
          () => false,
        );
        return ok ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    this.idleKb = rssKb(this.child.pid!);
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    return exited(this.child, signal);
  }
}

/** One HAProxy process with its own configuration, in front of every cloud instance. */
class Balancer {
  child!: ChildProcess;
  output = '';

  constructor(
    readonly port: number,
    private readonly config: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static configFor(port: number, clouds: CloudInstance[], maxconn: number): string {
    return [
      'global',
      `  maxconn ${maxconn}`,
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      // An agent's WebSocket stays open for days; heartbeats cross it every 15 s.
      '  timeout tunnel 1h',
      '  timeout http-request 10s',
      '  option redispatch',
      '  retries 2',
      'frontend agents',
      `  bind 127.0.0.1:${port}`,
      `  maxconn ${maxconn}`,
      '  default_backend clouds',
      'backend clouds',
      '  balance leastconn',
      '  option httpchk GET /health/live',
      '  default-server check inter 500ms fall 2 rise 1',
      ...clouds.map((c, i) => `  server cloud${i} 127.0.0.1:${c.port}`),
      '',
    ].join('\n');
  }

  async start(dir: string): Promise<void> {
    const file = join(dir, `haproxy-${this.port}.cfg`);
    writeFileSync(file, this.config);
    this.output = '';
    this.child = tracked(
      spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    const keep = (c: Buffer) => {
      this.output = (this.output + c.toString()).slice(-20_000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    await waitUntil(
      `HAProxy on port ${this.port}`,
      async () => {
        if (this.child.exitCode !== null) throw new Error(`haproxy exited:\n${this.output}`);
        const ok = await fetch(`${this.url}/health/live`).then(
          (r) => r.ok,
          () => false,
        );
        return ok ? true : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 20 },
    );
  }

  /** A hard stop: every connection through it is closed at once. */
  stop(): Promise<void> {
    return exited(this.child, 'SIGTERM');
  }
}

const MAX_UNANSWERED = 64;

export interface StormOptions {
  agents: number;
  /** Worker processes the simulated agents share. */
  workers?: number;
  /** Jobs created per second through the public API while the storm runs. */
  jobsPerSecond?: number;
  /** Progress lines (the bench prints them; the test ignores them). */
  log?: (line: string) => void;
}

interface CreatedJob {
  createdAt: number;
  /** How long POST /v1/jobs took to answer. */
  answeredIn?: number;
  printedAt?: number;
  prints: number;
}

export interface Drop {
  /** From the drop until every agent was welcomed again (the cloud had marked it online). */
  backMs: number;
  /** Jobs created between the drop and the moment every agent was back. */
  jobsDuring: number;
  /** Their creation → "printed" times, ms. */
  deliveryMs: number[];
}

export class Storm {
  readonly jobs = new Map<string, CreatedJob>();
  /** Why the agents' connections failed or closed, reason → count, since the start. */
  readonly failures = new Map<string, number>();
  online = 0;
  redelivered = 0;
  createFailures = 0;
  /** Jobs not asked for because 64 were waiting for their answer already. */
  skippedJobs = 0;
  private readonly onlineBy: number[];
  private producing: Promise<void> | undefined;
  private producerStop = false;
  private readonly listeners = new Set<() => void>();
  /** When each POST /v1/jobs not answered yet was started. */
  private readonly unanswered = new Map<number, number>();
  private calls = 0;

  private constructor(
    private readonly options: Required<Omit<StormOptions, 'log'>> & {
      log: (line: string) => void;
    },
    private readonly dir: string,
    private readonly database: Awaited<ReturnType<typeof testDatabase>>,
    readonly store: Store,
    readonly org: { orgId: string; liveKey: string },
    readonly deviceIds: string[],
    readonly clouds: CloudInstance[],
    readonly balancers: Balancer[],
    private readonly workers: ChildProcess[],
  ) {
    this.onlineBy = workers.map(() => 0);
    workers.forEach((worker, w) =>
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') return;
        if (message.type === 'failures') {
          for (const [why, n] of Object.entries(message.counts)) {
            this.failures.set(why, (this.failures.get(why) ?? 0) + n);
          }
        } else if (message.type === 'online') {
          this.onlineBy[w] = message.count;
          this.online = this.onlineBy.reduce((a, b) => a + b, 0);
        } else {
          this.redelivered += message.redelivered;
          for (const { jobId, at } of message.jobs) {
            const job = this.jobs.get(jobId) ?? { createdAt: NaN, prints: 0 };
            job.prints++;
            job.printedAt ??= at;
            this.jobs.set(jobId, job);
          }
        }
        for (const listener of this.listeners) listener();
      }),
    );
  }

  /** Sets everything up and connects every agent (their first connections spread over a while). */
  static async start(input: StormOptions): Promise<Storm> {
    const options = {
      workers: Math.max(1, Math.min(4, Math.ceil(input.agents / 2500))),
      jobsPerSecond: 50,
      log: () => {},
      ...input,
    };
    const { log } = options;
    const dir = tempDir('pw-storm-');
    const database = await testDatabase('postgres');
    const store = await database.open({ poolSize: 10 });
    const now = Date.now();
    const org = await bootstrap(
      store,
      {
        email: `storm-${randomBytes(4).toString('hex')}@example.com`,
        password: 'a long storm password',
        org: 'Storm',
        plan: 'business',
      },
      now,
    );
    // Devices written straight into the database (activating 10,000 one by one would be the
    // bench); their agents connect through the real gateway.
    const tokens = Array.from(
      { length: options.agents },
      (_, i) => `pwd_storm_${i}_${randomBytes(8).toString('hex')}`,
    );
    const deviceIds: string[] = [];
    for (let i = 0; i < tokens.length; i += 200) {
      const made = await Promise.all(
        tokens.slice(i, i + 200).map((t, j) =>
          store.inventory.createDevice(
            org.orgId,
            {
              name: `till-${i + j}`,
              os: 'linux',
              arch: 'x64',
              agentVersion: '1.1.0',
              tokenHash: hashSecret(t),
            },
            now,
          ),
        ),
      );
      deviceIds.push(...made.map((d) => d.id));
    }
    log(`${options.agents} devices created in PostgreSQL`);

    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${database.schema!}`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: url.toString(),
      REDIS_URL,
      // One line per connect and disconnect would be 20,000 lines a storm: warnings only.
      LOG_LEVEL: 'warn',
      // docs/scaling.md: a device that reconnects within the grace costs no offline/online
      // writes; longer than a storm takes to drain, or its offline writes land in the middle.
      AGENT_OFFLINE_GRACE_MS: '60000',
    };
    const clouds = [
      new CloudInstance(await freePort(), env),
      new CloudInstance(await freePort(), env),
    ];
    for (const cloud of clouds) await cloud.start();
    const balancerCount = Math.max(1, Math.ceil(options.agents / 8000));
    const maxconn = Math.ceil(options.agents / balancerCount) + 1000;
    const balancers: Balancer[] = [];
    for (let i = 0; i < balancerCount; i++) {
      const port = await freePort();
      const balancer = new Balancer(port, Balancer.configFor(port, clouds, maxconn));
      await balancer.start(dir);
      balancers.push(balancer);
    }
    const workers = Array.from({ length: options.workers }, () =>
      tracked(
        spawn(process.execPath, ['--import', 'tsx', AGENTS_WORKER], {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        }),
      ),
    );
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            w.once('message', () => resolve());
            w.once('exit', (code) => reject(new Error(`a storm worker exited with ${code}`)));
          }),
      ),
    );
    const storm = new Storm(
      options,
      dir,
      database,
      store,
      org,
      deviceIds,
      clouds,
      balancers,
      workers,
    );
    const started = Date.now();
    const ticker = setInterval(
      () => log(`${((Date.now() - started) / 1000).toFixed(0)} s: ${storm.online} agents online`),
      5000,
    );
    workers.forEach((worker, w) => {
      const agents: StormAgentSpec[] = [];
      for (let i = w; i < tokens.length; i += workers.length) {
        agents.push({ token: tokens[i]!, cloudUrl: balancers[i % balancers.length]!.url });
      }
      // About 200 first connections a second: a fleet's first start is not the storm.
      worker.send({ type: 'start', agents, spreadMs: options.agents * 5 });
    });
    await storm.untilAllOnline(120_000 + options.agents * 30).catch(async (err: unknown) => {
      for (const cloud of clouds) log(`cloud ${cloud.port} said:\n${cloud.output.slice(-3000)}`);
      await storm.stop();
      throw err;
    });
    clearInterval(ticker);
    log(`${options.agents} agents online in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return storm;
  }

  get agents(): number {
    return this.options.agents;
  }

  /** Resolves when `probe` holds, checked at each report of the workers. */
  private until(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!probe()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  untilAllOnline(timeoutMs: number): Promise<void> {
    return this.until(
      `all ${this.agents} agents online`,
      () => this.online === this.agents,
      timeoutMs,
    );
  }

  /** Rows written so far per table of the storm's schema (PostgreSQL's statistics). */
  rowWrites(): ReturnType<typeof postgresRowWrites> {
    return postgresRowWrites(this.database.schema!);
  }

  /** Devices the cloud's database shows online. */
  async onlineInDatabase(): Promise<number> {
    const devices = await this.store.devices.listDevices(this.org.orgId);
    return devices.filter((d) => d.status === 'online').length;
  }

  /** Creates jobs through the public API (round-robin over the balancers) until `stopJobs`. */
  startJobs(): void {
    this.producerStop = false;
    const interval = 1000 / this.options.jobsPerSecond;
    let n = this.jobs.size;
    // A shop's server keeps a few connections to the API, not one per job in flight.
    const http = new Agent({ keepAlive: true, maxSockets: 64 });
    const post = (url: string, body: string) =>
      new Promise<{ status: number; body: { id?: string } }>((resolve, reject) => {
        const req = request(
          `${url}/v1/jobs`,
          {
            method: 'POST',
            agent: http,
            headers: {
              authorization: `Bearer ${this.org.liveKey}`,
              'content-type': 'application/json',
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => {
              try {
                resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { id?: string } });
              } catch (err) {
                reject(err as Error);
              }
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const createOne = async (deviceId: string, key: string): Promise<void> => {
      const createdAt = Date.now();
      const call = this.calls++;
      this.unanswered.set(call, createdAt);
      try {
        await createWith(deviceId, key, createdAt);
      } finally {
        this.unanswered.delete(call);
        for (const listener of this.listeners) listener();
      }
    };
    const createWith = async (deviceId: string, key: string, createdAt: number) => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const balancer = this.balancers[attempt % this.balancers.length]!;
        try {
          const res = await post(
            balancer.url,
            JSON.stringify({ deviceId, type: 'text', data: `storm ${key}\n`, idempotencyKey: key }),
          );
          const body = res.body;
          if (res.status === 200 || res.status === 201) {
            const job = this.jobs.get(body.id!) ?? { createdAt, prints: 0 };
            job.createdAt = createdAt;
            job.answeredIn = Date.now() - createdAt;
            this.jobs.set(body.id!, job);
            return;
          }
          this.createFailures++;
          if (res.status < 500 && res.status !== 429) {
            throw new Error(`POST /v1/jobs: ${res.status} ${JSON.stringify(body)}`);
          }
        } catch (err) {
          if (err instanceof Error && err.message.startsWith('POST')) throw err;
          this.createFailures++; // the balancer is restarting: the same key again
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`POST /v1/jobs ${key}: no answer after 50 attempts`);
    };
    this.producing = (async () => {
      const inflight = new Set<Promise<void>>();
      const start = Date.now();
      let errors: unknown;
      for (let i = 0; !this.producerStop; i++) {
        // A shop's server waits for its answers: at most 64 asked and not answered yet, so a
        // slower cloud gets fewer jobs a second rather than an ever longer queue.
        if (this.unanswered.size >= MAX_UNANSWERED) {
          this.skippedJobs++;
          await new Promise((resolve) => setTimeout(resolve, interval));
          continue;
        }
        const deviceId = this.deviceIds[Math.floor(Math.random() * this.deviceIds.length)]!;
        const p = createOne(deviceId, `storm-${n++}-${randomBytes(3).toString('hex')}`).catch(
          (err: unknown) => {
            errors ??= err;
          },
        );
        inflight.add(p);
        void p.finally(() => inflight.delete(p));
        const wait = start + (i + 1) * interval - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      await Promise.all(inflight);
      if (errors) throw errors as Error;
    })();
  }

  async stopJobs(): Promise<void> {
    this.producerStop = true;
    await this.producing;
  }

  private async measureDrop(drop: () => Promise<void>, timeoutMs: number): Promise<Drop> {
    const before = new Set(this.jobs.keys());
    const dropped = Date.now();
    // Each line: the agents back, and why connections failed or closed since the line before.
    let seen = new Map(this.failures);
    const ticker = setInterval(() => {
      const why = [...this.failures]
        .map(([reason, n]) => [reason, n - (seen.get(reason) ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([reason, n]) => `${n} ${reason}`);
      seen = new Map(this.failures);
      this.options.log(
        `${((Date.now() - dropped) / 1000).toFixed(0)} s: ${this.online} agents online` +
          (why.length > 0 ? `; failed or closed meanwhile: ${why.join(', ')}` : ''),
      );
    }, 2000);
    try {
      return await this.afterDrop(drop, before, dropped, timeoutMs);
    } finally {
      clearInterval(ticker);
    }
  }

  private async afterDrop(
    drop: () => Promise<void>,
    before: Set<string>,
    dropped: number,
    timeoutMs: number,
  ): Promise<Drop> {
    await drop();
    // Wait for the sockets to be seen closed, then for every agent to be welcomed again.
    await this.until('the agents to see the drop', () => this.online < this.agents, 10_000);
    await this.untilAllOnline(timeoutMs);
    const back = Date.now();
    await this.until(
      'the jobs asked for during the storm to be answered',
      () => ![...this.unanswered.values()].some((at) => at <= back),
      timeoutMs,
    );
    const during = [...this.jobs.entries()].filter(
      ([id, j]) => !before.has(id) && j.createdAt >= dropped && j.createdAt <= back,
    );
    // Delivery of the jobs created during the storm: wait until they have printed.
    await this.until(
      'the jobs created during the storm to print',
      () => during.every(([id]) => this.jobs.get(id)!.printedAt !== undefined),
      timeoutMs,
    ).catch(() => {});
    return {
      backMs: back - dropped,
      jobsDuring: during.length,
      deliveryMs: during
        .map(([id]) => this.jobs.get(id)!)
        .filter((j) => j.printedAt !== undefined)
        .map((j) => j.printedAt! - j.createdAt),
    };
  }

  /** Every HAProxy process restarted at once: every agent's connection drops. */
  restartBalancers(timeoutMs = 120_000): Promise<Drop> {
    return this.measureDrop(async () => {
      const from = Date.now();
      await Promise.all(this.balancers.map((b) => b.stop()));
      const stopped = Date.now();
      await Promise.all(this.balancers.map((b) => b.start(this.dir)));
      this.options.log(
        `HAProxy down ${Date.now() - from} ms (stopping ${stopped - from} ms, starting and its first health check ${Date.now() - stopped} ms)`,
      );
    }, timeoutMs);
  }

  /** Cloud instance `i` killed (SIGKILL): its agents reconnect to the other one. */
  killCloud(i: number, timeoutMs = 120_000): Promise<Drop> {
    return this.measureDrop(() => this.clouds[i]!.kill('SIGKILL'), timeoutMs);
  }

  /** Jobs created but not printed within `timeoutMs`, and jobs printed more than once. */
  async settle(
    timeoutMs = 60_000,
  ): Promise<{ created: number; lost: number; doubled: number; lostJobs: string[] }> {
    await this.until(
      'every job to print',
      () => [...this.jobs.values()].every((j) => j.printedAt !== undefined),
      timeoutMs,
    ).catch(() => {});
    const created = [...this.jobs.values()].filter((j) => !Number.isNaN(j.createdAt));
    const unprinted = [...this.jobs.entries()].filter(([, j]) => j.printedAt === undefined);
    // The cloud's view too: a job the agent printed is `printed` once its result is stored.
    let notPrintedInCloud = 0;
    // Each job not printed on either side, as the cloud recorded it: what to look at first.
    const lostJobs: string[] = [];
    for (const [id, mine] of this.jobs) {
      const job = await this.store.jobs.get(this.org.orgId, 'live', id);
      if (job?.state === 'printed' && mine.printedAt !== undefined) continue;
      if (job?.state !== 'printed') notPrintedInCloud++;
      const events = (job?.events ?? []).map((e) => `${e.state}@${e.at - (job?.createdAt ?? 0)}`);
      lostJobs.push(
        `${id}: agent ${mine.printedAt === undefined ? 'never printed it' : `printed it ${mine.prints}x`}, ` +
          `cloud ${job?.state ?? 'has no such job'} (attempt ${job?.attempt}, events ${events.join(' ')})`,
      );
    }
    return {
      lostJobs,
      created: created.length,
      lost: Math.max(unprinted.length, notPrintedInCloud),
      doubled: [...this.jobs.values()].filter((j) => j.prints > 1).length,
    };
  }

  async stop(): Promise<void> {
    await this.stopJobs().catch(() => {});
    for (const worker of this.workers) {
      if (worker.connected) worker.send({ type: 'stop' });
    }
    await Promise.all(
      this.workers.map((w) =>
        w.exitCode === null ? once(w, 'exit').then(() => undefined) : undefined,
      ),
    );
    await Promise.all(this.balancers.map((b) => b.stop()));
    await Promise.all(this.clouds.map((c) => c.kill('SIGTERM')));
    await this.store.close();
    await this.database.cleanup();
  }
}
