/**
 * Test helpers for the gateway: the whole app on an ephemeral port with the gateway attached
 * (manual clock, real store, in-process or given bus), two of them sharing PostgreSQL and Redis
 * as two cloud instances do, and a light protocol client that speaks to it over a real WebSocket.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import WebSocket from 'ws';
import {
  parseCloudMessage,
  PROTOCOL_VERSION,
  serializeMessage,
  type AgentMessage,
  type CloudMessage,
  type CloudMessageOf,
  type CloudMessageType,
  type PrinterInfo,
} from '@printwire/shared/protocol/index';
import { createApp, type CloudApp } from '../app.js';
import { MemoryBus } from '../bus/memory.js';
import { RedisBus } from '../bus/redis.js';
import { MemoryCache } from '../cache/memory.js';
import type { BusEvent, EventBus } from '../bus/events.js';
import { defaultConfig } from '../config.js';
import { ManualClock } from '../lib/clock.js';
import { bootstrap, type BootstrapResult } from '../services/bootstrap.js';
import type { Store } from '../storage/store.js';
import type { GatewayOptions } from '../gateway/gateway.js';
import type { DispatcherOptions } from '../services/dispatcher.js';
import { redisSkip, REDIS_URL } from './redis.js';
import { openTestStore, postgresSkip, testDatabase } from './stores.js';

export interface GatewayHarness {
  url: string;
  wsUrl: string;
  store: Store;
  clock: ManualClock;
  cloud: CloudApp;
  events: BusEvent[];
  org(): Promise<BootstrapResult>;
  /** Activates a device with a fresh code of `org`; returns its id and token. */
  activate(org: BootstrapResult): Promise<{ deviceId: string; deviceToken: string }>;
  post(path: string, body: unknown, key?: string): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

let n = 0;

export async function startGatewayHarness(
  options: {
    /** The cloud's store; absent: a fresh SQLite test store, deleted by `close`. */
    store?: Store;
    bus?: EventBus;
    clock?: ManualClock;
    gateway?: Partial<GatewayOptions> & { dispatch?: Partial<DispatcherOptions> };
  } = {},
): Promise<GatewayHarness> {
  const ownStore = options.store ? undefined : await openTestStore('sqlite');
  const store = options.store ?? ownStore!.store;
  const clock = options.clock ?? new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
  const bus = options.bus ?? new MemoryBus();
  const events: BusEvent[] = [];
  const unsubscribe = await bus.subscribe((e) => events.push(e));
  const config = defaultConfig({ port: 0, logLevel: 'silent' });
  const cloud = createApp({
    store,
    cache: new MemoryCache(),
    bus,
    clock,
    logger: pino({ level: 'silent' }),
    config,
    gateway: { livenessCheckMs: 0, ...options.gateway },
  });
  const server: Server = await new Promise((resolve) => {
    const s = cloud.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  await cloud.gateway.attach(server);
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown, key?: string) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}/agent/v1/connect`,
    store,
    clock,
    cloud,
    events,
    org: () =>
      bootstrap(
        store,
        {
          email: `gw${++n}-${Date.now()}@example.com`,
          password: 'correct horse battery',
          org: `Gateway shop ${n}`,
          plan: 'business',
        },
        clock.now(),
      ),
    async activate(org) {
      const res = await post('/agent/v1/activate', {
        code: org.activationCode,
        name: 'till',
        os: 'linux',
        arch: 'x64',
        agentVersion: '0.1.0',
      });
      if (res.status !== 201) throw new Error(`activation failed: ${JSON.stringify(res.body)}`);
      return res.body as { deviceId: string; deviceToken: string };
    },
    post,
    async close() {
      await cloud.gateway.close(1000);
      await unsubscribe();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await ownStore?.cleanup();
    },
  };
}

/**
 * Two cloud instances with the gateway attached, as behind a load balancer: a store each over one
 * fresh PostgreSQL schema (the first migrates it), a Redis bus each under one fresh key prefix,
 * and one clock. `close` stops both and drops the schema. Run only where `twoCloudInstancesSkip`
 * is false.
 */
export async function startTwoCloudInstances(
  options: {
    /** Each store's connections; default 3. */
    poolSize?: number;
    /** Default: a new ManualClock. */
    clock?: ManualClock;
  } = {},
): Promise<{ one: GatewayHarness; two: GatewayHarness; close(): Promise<void> }> {
  const clock = options.clock ?? new ManualClock();
  const db = await testDatabase('postgres');
  // What is open, closed last first: the schema, then each store and bus, then the harnesses.
  const opened: Array<() => Promise<void>> = [() => db.cleanup()];
  const close = async () => {
    for (const closeOne of opened.splice(0).reverse()) await closeOne();
  };
  try {
    const prefix = `pwtest:${randomBytes(4).toString('hex')}:`;
    const start = async (migrate: boolean) => {
      const store = await db.open({ poolSize: options.poolSize ?? 3, migrate });
      opened.push(() => store.close());
      const bus = RedisBus.connect(REDIS_URL, { prefix });
      opened.push(() => bus.close());
      return { store, bus };
    };
    const first = await start(true);
    const second = await start(false);
    const one = await startGatewayHarness({ ...first, clock });
    opened.push(() => one.close());
    const two = await startGatewayHarness({ ...second, clock });
    opened.push(() => two.close());
    return { one, two, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Why a suite of `startTwoCloudInstances` is skipped (PostgreSQL or Redis not answering), or false. */
export async function twoCloudInstancesSkip(): Promise<string | false> {
  const [pg, redis] = await Promise.all([postgresSkip(), redisSkip()]);
  return pg || redis;
}

/**
 * Asks `probe` every 5 ms until it answers something other than undefined, and returns that:
 * for what the cloud writes after a message it does not answer. Throws, naming `what`, after 5 s.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function printerInfo(agentPrinterId: string, extra: Partial<PrinterInfo> = {}): PrinterInfo {
  return {
    agentPrinterId,
    name: `Printer ${agentPrinterId}`,
    alias: null,
    uri: 'tcp://10.0.0.5:9100',
    connection: 'tcp',
    kind: 'receipt',
    language: 'escpos',
    paper: '80mm',
    codepage: 'CP858',
    capabilities: ['receipt', 'cut'],
    status: 'online',
    isDefault: true,
    ...extra,
  };
}

/** A light protocol client: a real WebSocket, messages queued until asked for. */
export class TestAgent {
  readonly received: CloudMessage[] = [];
  closeCode: number | undefined;
  readonly closed: Promise<number>;
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw: Buffer) => {
      const parsed = parseCloudMessage(raw);
      if (parsed.ok) this.received.push(parsed.message);
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code: number) => {
        this.closeCode = code;
        this.wake();
        resolve(code);
      });
    });
  }

  /** Opens the socket; rejects with the HTTP status when the handshake is refused. */
  static connect(url: string, token: string): Promise<TestAgent> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
      socket.once('open', () => resolve(new TestAgent(socket)));
      socket.once('unexpected-response', (_req, res) => {
        reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode }));
        res.resume();
      });
      socket.once('error', reject);
    });
  }

  /** Connects, says hello with `printers`, waits for welcome. */
  static async online(
    url: string,
    token: string,
    printers: PrinterInfo[] = [printerInfo('prn_a')],
  ): Promise<{ agent: TestAgent; welcome: CloudMessageOf<'welcome'> }> {
    const agent = await TestAgent.connect(url, token);
    agent.send({
      type: 'hello',
      id: 'hello-1',
      protocolVersion: PROTOCOL_VERSION,
      agentVersion: '0.1.0',
      os: 'linux',
      arch: 'x64',
      hostname: 'till',
      printers,
    });
    return { agent, welcome: await agent.next('welcome') };
  }

  send(message: AgentMessage): void {
    this.socket.send(serializeMessage(message));
  }

  sendRaw(text: string | Buffer): void {
    this.socket.send(text);
  }

  /** The first received message of `type` (optionally matching), removed from the queue. */
  async next<T extends CloudMessageType>(
    type: T,
    match: (m: CloudMessageOf<T>) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<CloudMessageOf<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.received.findIndex((m) => m.type === type && match(m as CloudMessageOf<T>));
      if (i >= 0) return this.received.splice(i, 1)[0] as CloudMessageOf<T>;
      if (this.closeCode !== undefined)
        throw new Error(`closed (${this.closeCode}) before ${type}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): Promise<number> {
    this.socket.close();
    return this.closed;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
