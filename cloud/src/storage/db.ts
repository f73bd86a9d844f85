/**
 * Opens the database: embedded SQLite (better-sqlite3, WAL, synchronous=FULL) or PostgreSQL (pg),
 * both behind Kysely. SQLite gets a second, read-only connection so that reads never queue
 * behind a write transaction (WAL lets them run side by side).
 */
import { mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { registerNative } from './prepared.js';
import { SqliteBoundLimitsPlugin } from './sqlite-limits.js';
import { WalCheckpointer, type CheckpointerOptions } from './checkpointer.js';
import type { Database } from './schema.js';
import type { Dialect } from './dialect.js';

export interface OpenedDatabase {
  dialect: Dialect;
  /**
   * SQLite with `durability: 'group'`: syncs the WAL file to disk (on libuv's thread pool, so
   * the event loop keeps serving). The group committer awaits it after each commit.
   */
  syncWal?: () => Promise<void>;
  /** Connection for writes (SQLite: the only writer). */
  writer: Kysely<Database>;
  /** Connection for reads outside transactions (SQLite: a second connection; PG: the pool). */
  reader: Kysely<Database>;
  /** Same as writer, without the camelCase plugin (migrations). */
  raw: Kysely<unknown>;
  /** SQLite: the write connection, on which group-committed transactions run their statements. */
  nativeWriter?: BetterSqlite3.Database;
  /** SQLite with `durability: 'group'`: runs the WAL checkpoints. */
  checkpointer?: WalCheckpointer;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** `postgres://…` for PostgreSQL, else a SQLite file path or `:memory:`. */
  url: string;
  /** PostgreSQL schema to use (created when missing); tests use one per file. */
  schema?: string;
  /** PostgreSQL pool size. Default 10. */
  poolSize?: number;
  /**
   * SQLite only. `full`: synchronous=FULL, every commit syncs the WAL inside SQLite (blocking the
   * event loop for the sync). `group` (default): synchronous=NORMAL plus an explicit fdatasync of
   * the WAL after each group commit, awaited before the write resolves; as durable as FULL for
   * acknowledged writes, without blocking the event loop.
   */
  durability?: 'full' | 'group';
  /**
   * SQLite with `durability: 'group'`: WAL checkpoints run on a worker thread (checkpointer.ts)
   * instead of inside the commits of the event loop.
   */
  checkpoints?: CheckpointerOptions;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

function openSqliteConnection(
  file: string,
  readonly: boolean,
  synchronous: 'FULL' | 'NORMAL',
): BetterSqlite3.Database {
  const db = new BetterSqlite3(file, readonly ? { readonly: true } : {});
  if (!readonly) db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * better-sqlite3 with prepared statements kept per SQL text: Kysely prepares every query it runs,
 * and preparing costs more than running a small one. Statements are run synchronously one at a
 * time, so sharing them is safe.
 */
function withStatementCache(db: BetterSqlite3.Database, max = 500): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const cached = Object.create(db) as BetterSqlite3.Database;
  cached.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = db.prepare(source);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as BetterSqlite3.Database['prepare'];
  cached.close = () => db.close();
  return cached;
}

/**
 * Client settings for a PostgreSQL URL. Like psql, a URL without a user name connects as the
 * operating-system user (node-postgres would otherwise need PGUSER or USER in the environment).
 */
export function postgresClientConfig(url: string): pg.ClientConfig {
  const parsed = new URL(url);
  if (!parsed.username && !process.env.PGUSER && !process.env.USER) {
    parsed.username = encodeURIComponent(userInfo().username);
  }
  return { connectionString: parsed.toString() };
}

export function openDatabase(options: OpenOptions): OpenedDatabase {
  const plugins = [new CamelCasePlugin()];
  if (isPostgresUrl(options.url)) {
    // bigint columns hold epoch milliseconds, well inside Number's exact range.
    const types = {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    };
    const pool = new pg.Pool({
      ...postgresClientConfig(options.url),
      max: options.poolSize ?? 10,
      types,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const raw = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const writer = raw.withPlugin(plugins[0]!) as unknown as Kysely<Database>;
    return {
      dialect: 'postgres',
      writer,
      reader: writer,
      raw,
      close: () => raw.destroy(),
    };
  }

  const file = options.url;
  const memory = file === ':memory:';
  if (!memory) mkdirSync(dirname(file), { recursive: true });
  const group = (options.durability ?? 'group') === 'group' && !memory;
  const synchronous = group ? 'NORMAL' : 'FULL';
  const writeConn = withStatementCache(openSqliteConnection(file, false, synchronous));
  // The WAL file exists once the first write happened; make sure it does before the reader opens.
  writeConn.exec(
    'create table if not exists printwire_wal_probe (x integer); drop table printwire_wal_probe',
  );
  const readConn = memory
    ? writeConn
    : withStatementCache(openSqliteConnection(file, true, synchronous));
  const checkpointer = group
    ? new WalCheckpointer(file, writeConn, options.checkpoints)
    : undefined;
  let wal: Promise<FileHandle> | undefined;
  const syncWal = group
    ? async () => {
        wal ??= open(`${file}-wal`, 'r+');
        await (await wal).datasync();
        checkpointer?.committed();
      }
    : undefined;
  const limits = new SqliteBoundLimitsPlugin();
  const raw = new Kysely<unknown>({
    dialect: new SqliteDialect({ database: writeConn }),
    plugins: [limits],
  });
  const writer = raw.withPlugin(plugins[0]!) as unknown as Kysely<Database>;
  const reader =
    readConn === writeConn
      ? writer
      : new Kysely<Database>({
          dialect: new SqliteDialect({ database: readConn }),
          plugins: [...plugins, limits],
        });
  if (reader !== writer) registerNative(reader, readConn);
  return {
    dialect: 'sqlite',
    writer,
    reader,
    raw,
    ...(syncWal ? { syncWal } : {}),
    ...(memory ? {} : { nativeWriter: writeConn }),
    ...(checkpointer ? { checkpointer } : {}),
    async close() {
      await checkpointer?.close();
      if (wal) await (await wal).close();
      await raw.destroy();
      if (reader !== writer) await reader.destroy();
    },
  };
}

/** Creates the PostgreSQL schema when it does not exist (tests and multi-tenant setups). */
export async function ensurePostgresSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const client = new pg.Client(postgresClientConfig(url));
  await client.connect();
  try {
    await client.query(`create schema if not exists ${schema}`);
  } finally {
    await client.end();
  }
}

export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const client = new pg.Client(postgresClientConfig(url));
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}
