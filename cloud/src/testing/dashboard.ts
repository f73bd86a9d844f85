/**
 * Test helper for the dashboard: the whole app in-process with a real store, a manual clock, a
 * temporary DATA_DIR whose mail/ folder receives the .eml files (the mail outbox is sent when a
 * test reads its mails), and helpers that sign up, read
 * the mailed links and log in the way a browser does (the pw_refresh cookie kept by hand).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createApp, type CloudApp, type Mailer } from '../app.js';
import { MemoryBus } from '../bus/memory.js';
import { MemoryCache } from '../cache/memory.js';
import type { CacheStore } from '../cache/types.js';
import type { EventBus } from '../bus/events.js';
import type { EventStreamOptions } from '../http/dashboard/event-routes.js';
import { defaultConfig } from '../config.js';
import { ManualClock } from '../lib/clock.js';
import { createMailer, linksInEml } from '../mail/mailer.js';
import type { Store } from '../storage/store.js';
import { openTestStore, type StoreKind } from './stores.js';

export interface Mail {
  to: string;
  subject: string;
  links: string[];
  /** The token of the first link. */
  token: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  // Response bodies are whatever JSON the API answered; tests read them loosely.
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface Person {
  userId: string;
  email: string;
  password: string;
  access: string;
  cookie: string;
}

export interface DashboardHarness {
  url: string;
  store: Store;
  /** The app itself (its job service, live channel, bus side). */
  cloud: CloudApp;
  /** The app's event bus. */
  bus: EventBus;
  /** Sends the mail outbox's due e-mails (`mails()` does it first). */
  sendMail(): Promise<void>;
  clock: ManualClock;
  publicUrl: string;
  call(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; cookie?: string; headers?: Record<string, string> },
  ): Promise<Reply>;
  /** Every mail written so far, oldest first. */
  mails(): Promise<Mail[]>;
  /** The newest mail to `to`. */
  lastMailTo(to: string): Promise<Mail>;
  /** Signs up, follows the verification link and logs in. */
  person(name?: string): Promise<Person>;
  /** Logs `person` in again (after the clock moved past their access token). */
  login(person: Person): Promise<Person>;
  close(): Promise<void>;
}

let counter = 0;

/** The `pw_refresh=…` pair of a response's Set-Cookie, or '' when it sets none. */
export function refreshCookie(headers: Headers): string {
  for (const c of headers.getSetCookie()) {
    const pair = c.split(';')[0]!;
    if (pair.startsWith('pw_refresh=')) return pair;
  }
  return '';
}

export async function startDashboard(
  options: {
    kind?: StoreKind;
    publicUrl?: string;
    cache?: CacheStore;
    /** Wraps the mailer that writes the .eml files (a mail server that is down, say). */
    mailer?: (files: Mailer) => Mailer;
    /** Another instance's store (two instances over one database); the caller closes it. */
    store?: Store;
    /** The event bus (a Redis bus for two instances); default in-process. The caller closes it. */
    bus?: EventBus;
    /** The dashboard event stream's intervals. */
    events?: Partial<EventStreamOptions>;
  } = {},
): Promise<DashboardHarness> {
  const { store, cleanup } = options.store
    ? { store: options.store, cleanup: () => Promise.resolve() }
    : await openTestStore(options.kind ?? 'sqlite');
  const dataDir = await mkdtemp(join(tmpdir(), 'pw-dashboard-'));
  const clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
  const publicUrl = options.publicUrl ?? 'https://print.example.com';
  const config = defaultConfig({ port: 0, logLevel: 'silent', dataDir, publicUrl });
  const bus = options.bus ?? new MemoryBus();
  const cloud = createApp({
    store,
    cache: options.cache ?? new MemoryCache(),
    bus,
    clock,
    ...(options.events ? { events: options.events } : {}),
    logger: pino({ level: 'silent' }),
    config,
    ...(options.mailer
      ? { mailer: options.mailer(createMailer({ dir: join(dataDir, 'mail') })) }
      : {}),
  });
  const server: Server = await new Promise((resolve) => {
    const s = cloud.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mailDir = join(dataDir, 'mail');

  const call: DashboardHarness['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = opts.cookie;
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
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      headers: res.headers,
      body: type.includes('json') ? JSON.parse(text) : text,
    };
  };

  const mails = async (): Promise<Mail[]> => {
    // Mails wait in the outbox until the mail sender (not started here) sends them.
    await cloud.webhooks.mail?.drain();
    let names: string[];
    try {
      names = (await readdir(mailDir)).filter((n) => n.endsWith('.eml')).sort();
    } catch {
      return [];
    }
    const out: Mail[] = [];
    for (const name of names) {
      const eml = await readFile(join(mailDir, name), 'utf8');
      const links = linksInEml(eml);
      out.push({
        to: /^To: (.*)\r$/m.exec(eml)?.[1] ?? '',
        subject: /^Subject: (.*)\r$/m.exec(eml)?.[1] ?? '',
        links,
        token: links[0] ? (new URL(links[0]).searchParams.get('token') ?? '') : '',
      });
    }
    return out;
  };

  const lastMailTo = async (to: string): Promise<Mail> => {
    const found = (await mails()).filter((m) => m.to === to).at(-1);
    if (!found) throw new Error(`no mail to ${to}`);
    return found;
  };

  const login = async (p: Person): Promise<Person> => {
    const res = await call('POST', '/auth/login', {
      body: { email: p.email, password: p.password },
    });
    if (res.status !== 200) throw new Error(`login ${res.status}`);
    return {
      userId: res.body.user.id,
      email: p.email,
      password: p.password,
      access: res.body.accessToken,
      cookie: refreshCookie(res.headers),
    };
  };

  return {
    url,
    store,
    cloud,
    bus,
    async sendMail() {
      await cloud.webhooks.mail?.drain();
    },
    clock,
    publicUrl,
    call,
    mails,
    lastMailTo,
    async person(name = 'Ana') {
      const email = `${name.toLowerCase()}${++counter}-${process.pid}@example.com`;
      const password = 'correct horse battery';
      const signup = await call('POST', '/auth/signup', { body: { email, password, name } });
      if (signup.status !== 201) throw new Error(`signup ${signup.status}`);
      const { token } = await lastMailTo(email);
      const verified = await call('POST', '/auth/verify-email', { body: { token } });
      if (verified.status !== 200) throw new Error(`verify ${verified.status}`);
      return login({ userId: '', email, password, access: '', cookie: '' });
    },
    login,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await cloud.live.close();
      await cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
