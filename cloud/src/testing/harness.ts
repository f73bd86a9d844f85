/**
 * Test helper: the whole app in-process on an ephemeral port, with a real store (SQLite file, or
 * PostgreSQL), the in-process cache and bus, a manual clock and a silent logger.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino, { type Logger } from 'pino';
import { createApp, type CloudApp } from '../app.js';
import { MemoryBus } from '../bus/memory.js';
import { MemoryCache } from '../cache/memory.js';
import type { BusEvent, EventBus } from '../bus/events.js';
import type { CacheStore } from '../cache/types.js';
import { defaultConfig, type CloudConfig, type Limits } from '../config.js';
import { ManualClock } from '../lib/clock.js';
import { bootstrap, type BootstrapResult } from '../services/bootstrap.js';
import type { Store } from '../storage/store.js';
import { openTestStore, type StoreKind } from './stores.js';
import { answerClientErrors } from '../http/client-errors.js';
import type { Plan } from '../storage/types.js';

export interface Harness {
  url: string;
  store: Store;
  clock: ManualClock;
  cloud: CloudApp;
  config: CloudConfig;
  /** The in-process bus the app publishes on (a second instance's services can share it). */
  bus: EventBus;
  /** Every event published on the bus, in order. */
  events: BusEvent[];
  /** A fresh organization with an owner, keys and a sandbox. */
  org(plan?: Plan): Promise<BootstrapResult>;
  /** fetch with the key as bearer token; JSON bodies are serialised. */
  call(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
    // Response bodies are whatever JSON the API answered; tests read them loosely.
  ): Promise<{ status: number; headers: Headers; body: any; raw: Buffer }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    kind?: StoreKind;
    limits?: Partial<Limits>;
    /** A stand-in cache store (e.g. one whose ping fails); what it leaves out is served in memory. */
    cache?: Partial<CacheStore>;
    production?: boolean;
    logger?: Logger;
    /** The sandbox's browser for HTML label previews (config.sandboxBrowser); default none. */
    sandboxBrowser?: string | null;
  } = {},
): Promise<Harness> {
  const { store, cleanup } = await openTestStore(options.kind ?? 'sqlite');
  const clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
  const config = defaultConfig({
    port: 0,
    logLevel: 'silent',
    production: options.production ?? false,
    sandboxBrowser: options.sandboxBrowser ?? null,
    limits: { ...defaultConfig().limits, ...options.limits },
  });
  const bus = new MemoryBus();
  const events: BusEvent[] = [];
  await bus.subscribe((e) => events.push(e));
  const cache = options.cache ? withMemoryCache(options.cache) : new MemoryCache();
  const cloud = createApp({
    store,
    cache,
    bus,
    clock,
    logger: options.logger ?? pino({ level: 'silent' }),
    config,
  });
  const server: Server = await new Promise((resolve) => {
    const s = cloud.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  answerClientErrors(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let n = 0;
  return {
    url,
    store,
    clock,
    cloud,
    config,
    bus,
    events,
    org: (plan = 'free') =>
      bootstrap(
        store,
        {
          email: `owner${++n}-${Date.now()}@example.com`,
          password: 'correct horse battery',
          org: `Shop ${n}`,
          plan,
        },
        clock.now(),
      ),
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + path, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const raw = Buffer.from(await res.arrayBuffer());
      const type = res.headers.get('content-type') ?? '';
      return {
        status: res.status,
        headers: res.headers,
        body: type.includes('json') ? JSON.parse(raw.toString('utf8')) : undefined,
        raw,
      };
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await cloud.htmlLabels.close();
      await cleanup();
    },
  };
}

/** `stub`'s methods, and a MemoryCache's for those it does not define. */
function withMemoryCache(stub: Partial<CacheStore>): CacheStore {
  const memory = new MemoryCache();
  return {
    takeToken: (key, o) => (stub.takeToken ? stub.takeToken(key, o) : memory.takeToken(key, o)),
    throttleWait: (key, now) =>
      stub.throttleWait ? stub.throttleWait(key, now) : memory.throttleWait(key, now),
    throttleFail: (key, o, now) =>
      stub.throttleFail ? stub.throttleFail(key, o, now) : memory.throttleFail(key, o, now),
    throttleReset: (key) =>
      stub.throttleReset ? stub.throttleReset(key) : memory.throttleReset(key),
    ping: () => (stub.ping ? stub.ping() : memory.ping()),
    close: () => (stub.close ? stub.close() : memory.close()),
  };
}
