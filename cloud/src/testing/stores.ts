/**
 * Test helper: the storage suites run on SQLite always, and on PostgreSQL when one answers at
 * DATABASE_URL (or postgres://127.0.0.1:5432/test). Each PostgreSQL store gets its own schema so
 * test files running in parallel never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import type { Kysely } from 'kysely';
import {
  dropPostgresSchema,
  ensurePostgresSchema,
  openDatabase,
  postgresClientConfig,
} from '../storage/db.js';
import { migrateToLatest } from '../storage/migrations.js';
import type { NewJob } from '../storage/jobs.js';
import { Store, type StoreOptions } from '../storage/store.js';

export const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test';

let reachable: Promise<boolean> | undefined;

/** True when PostgreSQL answers at POSTGRES_URL (checked once per process). */
export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({
      ...postgresClientConfig(POSTGRES_URL),
      connectionTimeoutMillis: 2000,
    });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

export interface TestStore {
  store: Store;
  cleanup(): Promise<void>;
}

export type StoreKind = 'sqlite' | 'postgres';

/**
 * An empty database of `kind` that stores can be opened on, closed and opened on again (a
 * restarted cloud), or opened on twice (two instances); `cleanup` deletes it. SQLite: a real file,
 * so the WAL, the read connection and durable commits are what tests exercise. PostgreSQL: a
 * schema of its own.
 */
export async function testDatabase(kind: StoreKind): Promise<{
  /** PostgreSQL: the schema (another process reaches it with `search_path`). */
  schema?: string;
  open(options?: Omit<StoreOptions, 'url' | 'schema'>): Promise<Store>;
  /**
   * Migrates the database up to the migration `target` only, and runs `fill` on it (raw: no
   * camel-case names), as an earlier release would have left it.
   */
  olderRelease(target: string, fill: (db: Kysely<unknown>) => Promise<void>): Promise<void>;
  cleanup(): Promise<void>;
}> {
  const olderRelease = async (
    options: { url: string; schema?: string },
    target: string,
    fill: (db: Kysely<unknown>) => Promise<void>,
  ): Promise<void> => {
    const db = openDatabase(options);
    try {
      await migrateToLatest(db.raw, db.dialect, options.schema, target);
      await fill(db.raw);
    } finally {
      await db.close();
    }
  };
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'printwire-store-'));
    const url = join(dir, 'printwire.db');
    return {
      open: (options = {}) => Store.open({ ...options, url }),
      olderRelease: (target, fill) => olderRelease({ url }, target, fill),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `pw_test_${randomBytes(6).toString('hex')}`;
  await ensurePostgresSchema(POSTGRES_URL, schema);
  return {
    schema,
    open: (options = {}) => {
      const open = () => Store.open({ poolSize: 5, ...options, url: POSTGRES_URL, schema });
      // Migrating reads every schema's catalog: it takes turns with other files' drops.
      return options.migrate === false ? open() : underSchemaLock(open);
    },
    olderRelease: (target, fill) =>
      underSchemaLock(() => olderRelease({ url: POSTGRES_URL, schema }, target, fill)),
    cleanup: () => underSchemaLock(() => dropPostgresSchema(POSTGRES_URL, schema)),
  };
}

export async function openTestStore(
  kind: StoreKind,
  options: Omit<StoreOptions, 'url'> = {},
): Promise<TestStore> {
  const db = await testDatabase(kind);
  const store = await db.open(options);
  return {
    store,
    async cleanup() {
      await store.close();
      await db.cleanup();
    },
  };
}

/**
 * Two stores over one database, as two cloud instances have. PostgreSQL: one schema, two
 * connection pools. SQLite: one file has one writer, so both are the same store and what the two
 * "instances" do at once races through it.
 */
export async function openTwoInstances(
  kind: StoreKind,
): Promise<{ a: Store; b: Store; cleanup(): Promise<void> }> {
  const db = await testDatabase(kind);
  const a = await db.open();
  const b = kind === 'sqlite' ? a : await db.open({ migrate: false });
  return {
    a,
    b,
    async cleanup() {
      await a.close();
      if (b !== a) await b.close();
      await db.cleanup();
    },
  };
}

/**
 * A test store for the suite being declared: opened before its tests (then handed to `opened`,
 * which may set up more), deleted after them.
 */
export function storePerSuite(
  kind: StoreKind,
  opened: (store: Store) => void | Promise<void>,
): void {
  let cleanup: (() => Promise<void>) | undefined;
  before(async () => {
    const t = await openTestStore(kind);
    cleanup = t.cleanup;
    await opened(t.store);
  });
  after(async () => {
    await cleanup?.();
  });
}

/**
 * `openTwoInstances` for the suite being declared: opened before its tests, deleted after them.
 * The stores are read from the returned object once the tests run.
 */
export function twoInstancesPerSuite(kind: StoreKind): { a: Store; b: Store } {
  const pair = {} as { a: Store; b: Store };
  let cleanup: (() => Promise<void>) | undefined;
  before(async () => {
    const opened = await openTwoInstances(kind);
    ({ a: pair.a, b: pair.b, cleanup } = opened);
  });
  after(async () => {
    await cleanup?.();
  });
  return pair;
}

/** Any number: the advisory lock test processes take around migrations and schema drops. */
const SCHEMA_LOCK = 0x70772d74;

/**
 * Runs `fn` holding a PostgreSQL advisory lock shared by every test process. Test files run in
 * parallel, each in its own schema, but a migration reads the catalog of every schema (Kysely's
 * migrator lists all tables) and fails when another file drops its schema mid-read. Opening a
 * store that migrates and dropping a schema therefore take turns.
 */
export async function underSchemaLock<T>(fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client(postgresClientConfig(POSTGRES_URL));
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    return await fn();
  } finally {
    await client.end(); // ending the session releases the lock
  }
}

/** Why a suite that needs PostgreSQL is skipped (the URL without its password), or false. */
export async function postgresSkip(): Promise<string | false> {
  return (await postgresReachable())
    ? false
    : `PostgreSQL not reachable at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')} (set DATABASE_URL)`;
}

/** The kinds to run a suite on, with the reason PostgreSQL is skipped when it is. */
export async function storeKinds(): Promise<Array<{ kind: StoreKind; skip: string | false }>> {
  return [
    { kind: 'sqlite', skip: false },
    { kind: 'postgres', skip: await postgresSkip() },
  ];
}

/** A live text job ("hello") as the storage layer takes it; `overrides` set any field. */
export function textJobInput(organizationId: string, overrides: Partial<NewJob> = {}): NewJob {
  return {
    organizationId,
    mode: 'live',
    idempotencyKey: null,
    deviceId: null,
    printerId: null,
    source: 'cloud',
    type: 'text',
    encoding: 'utf8',
    templateId: null,
    maxAttempts: 3,
    metadata: {},
    options: {},
    content: Buffer.from('hello'),
    previewable: false,
    expiresAt: null,
    retentionDays: 7,
    monthlyQuota: null,
    ...overrides,
  };
}

/** Rows written so far in each table of a PostgreSQL schema (its statistics: the bench's count). */
export async function postgresRowWrites(
  schema: string,
): Promise<Record<string, { inserted: number; updated: number; deleted: number }>> {
  const client = new pg.Client(postgresClientConfig(POSTGRES_URL));
  await client.connect();
  try {
    // The statistics collector reports with a delay; this makes this session see the latest.
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query<{
      relname: string;
      n_tup_ins: string;
      n_tup_upd: string;
      n_tup_del: string;
    }>(
      'select relname, n_tup_ins, n_tup_upd, n_tup_del from pg_stat_user_tables where schemaname = $1',
      [schema],
    );
    return Object.fromEntries(
      rows.map((r) => [
        r.relname,
        {
          inserted: Number(r.n_tup_ins),
          updated: Number(r.n_tup_upd),
          deleted: Number(r.n_tup_del),
        },
      ]),
    );
  } finally {
    await client.end();
  }
}
