/**
 * `printwire-cloud serve`: wires the real dependencies from the configuration (SQLite or
 * PostgreSQL, in-process or Redis cache and bus, pino), listens, runs the sweeper, and shuts down
 * gracefully: new connections are refused, requests in flight finish, then the stores close.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { createApp, type CloudApp } from './app.js';
import { MemoryBus } from './bus/memory.js';
import { MemoryCache } from './cache/memory.js';
import { RedisBus } from './bus/redis.js';
import { RedisCache } from './cache/redis.js';
import type { CacheStore } from './cache/types.js';
import type { EventBus } from './bus/events.js';
import type { CloudConfig } from './config.js';
import { gatewayOptionsFromEnv } from './gateway/gateway.js';
import { systemClock } from './lib/clock.js';
import { Store, type StoreOptions } from './storage/store.js';
import { answerClientErrors } from './http/client-errors.js';

export interface RunningServer {
  url: string;
  server: Server;
  cloud: CloudApp;
  store: Store;
  logger: Logger;
  /** Stops accepting, lets requests in flight finish (at most `graceMs`), closes the stores. */
  close(graceMs?: number): Promise<void>;
}

export function databaseUrl(config: CloudConfig): string {
  return config.databaseUrl ?? join(config.dataDir, 'printwire.db');
}

/**
 * The one line `printwire-cloud serve` prints for a person (beside the JSON logs): the address to
 * open, the database in use (a PostgreSQL URL without its password), and where e-mails go: the
 * SMTP server, or, without one, the folder where each mail is written as an `.eml` file (the
 * sign-up's verification link is read there).
 */
export function startupLine(
  config: CloudConfig,
  url: string,
  smtpUrl: string | undefined = process.env.SMTP_URL,
): string {
  // PUBLIC_URL when it was set; else where the server listens (any address: this computer's).
  const address =
    config.publicUrl === `http://${config.host}:${config.port}`
      ? url.replace(/\/\/(0\.0\.0\.0|\[::\])(?=:)/, '//localhost')
      : config.publicUrl;
  const database = config.databaseUrl
    ? `PostgreSQL ${withoutPassword(config.databaseUrl)}`
    : `SQLite ${databaseUrl(config)}`;
  const mail = smtpUrl
    ? `e-mails go through ${withoutPassword(smtpUrl)}`
    : `no SMTP_URL: e-mails (sign-up links too) are written as .eml files to ${join(config.dataDir, 'mail')}`;
  return `Printwire is running: open ${address} · database: ${database} · ${mail}`;
}

/** A URL with its password replaced by `***`. */
function withoutPassword(raw: string): string {
  try {
    const parsed = new URL(raw);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return raw.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  }
}

export async function openStore(
  config: CloudConfig,
  options: Pick<StoreOptions, 'migrate' | 'checkpoints'> = {},
): Promise<Store> {
  return Store.open({ url: databaseUrl(config), ...options });
}

export function openCacheAndBus(config: CloudConfig): { cache: CacheStore; bus: EventBus } {
  if (config.redisUrl) {
    return { cache: RedisCache.connect(config.redisUrl), bus: RedisBus.connect(config.redisUrl) };
  }
  return { cache: new MemoryCache(), bus: new MemoryBus() };
}

export async function startServer(config: CloudConfig, logger?: Logger): Promise<RunningServer> {
  const log = logger ?? pino({ level: config.logLevel, base: { service: 'printwire-cloud' } });
  // Read first: a bad setting is refused before the database or Redis is opened.
  const gateway = gatewayOptionsFromEnv(process.env);
  const store = await openStore(config, {
    checkpoints: {
      onFailure: (err) =>
        log.error({ err }, 'WAL checkpoints are back on the event loop: their worker failed'),
    },
  });
  const { cache, bus } = openCacheAndBus(config);
  const cloud = createApp({
    store,
    cache,
    bus,
    clock: systemClock,
    logger: log,
    config,
    gateway,
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = cloud.app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  // Keep-alive sockets should not hold a shutdown open longer than a request takes.
  server.keepAliveTimeout = 5_000;
  answerClientErrors(server);
  await cloud.gateway.attach(server);
  await cloud.sweeper.start(config.limits.sweepIntervalMs);
  // Printers without a computer: offline after 60 s of silence, UNCONFIRMED after 120 s.
  cloud.cloudPrinters.start(5_000);
  await cloud.webhooks.start();
  const address = server.address() as AddressInfo;
  const url = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  log.info(
    { url, database: store.dialect, cache: config.redisUrl ? 'redis' : 'memory' },
    'listening',
  );

  let closing: Promise<void> | undefined;
  const close = (graceMs = 10_000): Promise<void> => {
    closing ??= (async () => {
      log.info('shutting down: finishing requests in flight');
      // Agents are told to reconnect (1001) and marked offline before the store closes.
      await cloud.gateway.close(Math.min(graceMs, 5_000));
      // Event streams never finish by themselves: ended now, the browsers reconnect elsewhere.
      await cloud.live.close();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      await cloud.sweeper.stop();
      cloud.cloudPrinters.stop();
      await cloud.webhooks.stop();
      // The sandbox's browser, when an HTML label preview started it.
      await cloud.htmlLabels.close();
      await Promise.allSettled([store.close(), cache.close(), bus.close()]);
      log.info('stopped');
    })();
    return closing;
  };
  return { url, server, cloud, store, logger: log, close };
}
