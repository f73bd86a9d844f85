/**
 * Tiny benchmark helpers. Every benchmark measures Printwire and a named baseline in the same
 * process and prints the ratio, so results compare like with like on whatever machine runs them.
 *
 * Also the set-ups several benches share: an in-process cloud on SQLite beside a bare Express
 * baseline, both loaded by autocannon (`startCloudInProcess`, `listen`, `autocannon`), and the
 * real cloud and agent processes with fake network printers that note when each job's last
 * byte arrived (`startCloudAndAgent`). Their packages are imported when a bench calls them, so
 * the benches that need none of them (encoding, labels) load none of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Express } from 'express';
import type { BootstrapResult, CloudConfig, createApp, Store } from '@printwire/cloud';
import type { AgentProcess, Bootstrap, CloudProcess } from '../test/e2e-support.js';
import type { FakePrinter } from '../test/fake-printer.js';

export interface Throughput {
  opsPerSecond: number;
  iterations: number;
}

/** Runs `fn` repeatedly for about `seconds` (after a short warm-up) and returns ops per second. */
export async function throughput(
  fn: () => unknown | Promise<unknown>,
  { seconds = 2, warmup = 0.3 }: { seconds?: number; warmup?: number } = {},
): Promise<Throughput> {
  const run = async (limitMs: number): Promise<Throughput> => {
    let iterations = 0;
    const start = performance.now();
    let now = start;
    while (now - start < limitMs) {
      for (let i = 0; i < 10; i++) {
        const r = fn();
        if (r instanceof Promise) await r;
      }
      iterations += 10;
      now = performance.now();
    }
    return { opsPerSecond: (iterations * 1000) / (now - start), iterations };
  };
  await run(warmup * 1000);
  return run(seconds * 1000);
}

/** Times each call of `fn` and returns the per-call latencies in milliseconds. */
export async function latencies(
  fn: () => unknown | Promise<unknown>,
  count: number,
  warmup = Math.min(50, count),
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function fmt(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  return n >= 100 ? n.toFixed(0) : n.toFixed(digits);
}

/**
 * Prints one result line: `name: 1234 ops/s vs baseline NAME 456 ops/s = 2.71x (target >= 2x)`.
 * `higherIsBetter` decides the ratio's direction so that a ratio above 1 always means Printwire
 * is better.
 */
export function report(result: {
  name: string;
  value: number;
  unit: string;
  baseline: string;
  baselineValue: number;
  higherIsBetter: boolean;
  target?: number;
}): void {
  const ratio = result.higherIsBetter
    ? result.value / result.baselineValue
    : result.baselineValue / result.value;
  const target =
    result.target === undefined
      ? ''
      : ` (target >= ${result.target}x: ${ratio >= result.target ? 'met' : 'NOT met'})`;
  console.log(
    `${result.name}: ${fmt(result.value)} ${result.unit} vs baseline ${result.baseline} ${fmt(result.baselineValue)} ${result.unit} = ${fmt(ratio)}x${target}`,
  );
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

// ------------------------------------------------- an in-process cloud beside a bare Express

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

export interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface AutocannonOptions {
  url: string;
  /** The load generator's own threads, so that it does not share the servers' event loop. */
  workers?: number;
  connections: number;
  duration: number;
  overallRate?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
}

/** One autocannon run (the package has no types of its own). */
export function autocannon(options: AutocannonOptions): Promise<AutocannonResult> {
  const run = createRequire(import.meta.url)('autocannon') as (
    options: AutocannonOptions,
  ) => Promise<AutocannonResult>;
  return run(options);
}

/** Serves `app` on a free loopback port. */
export function listen(app: Express): Promise<{ url: string; server: Server }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    );
  });
}

export interface CloudInProcess {
  store: Store;
  cloud: ReturnType<typeof createApp>;
  org: BootstrapResult;
  url: string;
  /** Closes the server and the store, and deletes the data. */
  close(): Promise<void>;
}

/**
 * The cloud in this process on a SQLite file of its own, silent, with an organization, serving
 * on loopback. `config` changes the default configuration (its port and dataDir are set).
 */
export async function startCloudInProcess(
  config: (defaults: CloudConfig) => Partial<CloudConfig> = () => ({}),
): Promise<CloudInProcess> {
  const { bootstrap, createApp, defaultConfig, MemoryBus, MemoryCache, Store, systemClock } =
    await import('@printwire/cloud');
  const { default: pino } = await import('pino');
  const dir = mkdtempSync(join(tmpdir(), 'printwire-bench-'));
  const store = await Store.open({ url: join(dir, 'printwire.db') });
  const cloud = createApp({
    store,
    cache: new MemoryCache(),
    bus: new MemoryBus(),
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    config: defaultConfig({ ...config(defaultConfig()), port: 0, dataDir: dir }),
  });
  const org = await bootstrap(
    store,
    { email: 'bench@example.com', password: 'benchmark password', org: 'Bench' },
    Date.now(),
  );
  const { url, server } = await listen(cloud.app);
  return {
    store,
    cloud,
    org,
    url,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------- the real cloud and agent, fake network printers

/**
 * A text job whose content ends with a unique marker and no cut, so the marker's last character
 * is the job's last byte at the printer (see `startCloudAndAgent`'s `printedAt`).
 */
export function markedJob(n: number): { type: 'text'; data: string; options: { cut: 'none' } } {
  return {
    type: 'text',
    data: `Table 12 - 2 x espresso - 1 x croissant - total 7.80\nBENCH-${n}-END`,
    options: { cut: 'none' },
  };
}

export interface CloudAndAgent {
  cloud: CloudProcess;
  org: Bootstrap;
  agent: AgentProcess;
  printers: FakePrinter[];
  /** When (performance.now()) the last byte of `markedJob(n)` reached a printer, by n. */
  printedAt: Map<number, number>;
  stop(): Promise<void>;
}

/**
 * `printwire-cloud serve` (SQLite, durable group commit) and `printwire-agent start` as
 * processes, the agent with one fake network printer on loopback for each of `printerNames`.
 */
export async function startCloudAndAgent(
  name: string,
  printerNames: readonly string[],
): Promise<CloudAndAgent> {
  const { AgentProcess, CloudProcess, freePort, tempDir } = await import('../test/e2e-support.js');
  const { FakePrinter } = await import('../test/fake-printer.js');
  const printers = await Promise.all(printerNames.map(() => FakePrinter.start()));
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const env = CloudProcess.env(tempDir(`pw-bench-${slug}-`), await freePort());
  const org = await CloudProcess.bootstrap(env, name);
  const cloud = await CloudProcess.start(env);
  const agent = AgentProcess.start([
    '--data-dir',
    tempDir(`pw-bench-${slug}-agent-`),
    '--cloud',
    cloud.url,
    '--activation-code',
    org.activationCode,
    ...printers.flatMap((p, i) => [
      '--printer',
      p.uri(`name=${encodeURIComponent(printerNames[i]!)}`),
    ]),
  ]);
  const printedAt = new Map<number, number>();
  for (const printer of printers) {
    let scanned = 0;
    printer.on('data', () => {
      const now = performance.now();
      // Only the bytes new since the last scan (and a marker's length before them).
      const text = printer
        .bytes()
        .subarray(Math.max(0, scanned - 32))
        .toString('latin1');
      for (const m of text.matchAll(/BENCH-(\d+)-END/g)) {
        const n = Number(m[1]);
        if (!printedAt.has(n)) printedAt.set(n, now);
      }
      scanned = printer.byteCount;
    });
  }
  return {
    cloud,
    org,
    agent,
    printers,
    printedAt,
    async stop() {
      await agent.kill('SIGTERM');
      await cloud.stop();
      for (const p of printers) await p.stop();
    },
  };
}
