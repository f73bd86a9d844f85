/**
 * Opens the database: embedded SQLite (better-sqlite3, WAL, synchronous=FULL) or PostgreSQL (pg),
 * both behind Kysely. SQLite gets a second, read-only connection so that reads never queue
 * behind a write transaction (WAL lets them run side by side).
 */
import { mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';
import type { Dialect } from './migrations.js';

export interface OpenedDatabase {
  dialect: Dialect;
  /** Connection for writes (SQLite: the only writer). */
  writer: Kysely<Database>;
  /** Connection for reads outside transactions (SQLite: a second connection; PG: the pool). */
  reader: Kysely<Database>;
  /** Same as writer, without the camelCase plugin (migrations). */
  raw: Kysely<unknown>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** `postgres://…` for PostgreSQL, else a SQLite file path or `:memory:`. */
  url: string;
  /** PostgreSQL schema to use (created when missing); tests use one per file. */
  schema?: string;
  /** PostgreSQL pool size. Default 10. */
  poolSize?: number;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

function openSqliteConnection(file: string, readonly: boolean): BetterSqlite3.Database {
  const db = new BetterSqlite3(file, readonly ? { readonly: true } : {});
  if (!readonly) db.pragma('journal_mode = WAL');
  // FULL: a COMMIT returns only after the WAL is synced, so a 201 means the job is on disk.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
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
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const writeConn = openSqliteConnection(file, false);
  const readConn = file === ':memory:' ? writeConn : openSqliteConnection(file, true);
  const raw = new Kysely<unknown>({ dialect: new SqliteDialect({ database: writeConn }) });
  const writer = raw.withPlugin(plugins[0]!) as unknown as Kysely<Database>;
  const reader =
    readConn === writeConn
      ? writer
      : new Kysely<Database>({ dialect: new SqliteDialect({ database: readConn }), plugins });
  return {
    dialect: 'sqlite',
    writer,
    reader,
    raw,
    async close() {
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
