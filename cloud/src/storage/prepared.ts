/**
 * Prepared queries: a query is built and compiled by Kysely once, with named placeholders where
 * its values go, and later run with values bound by name. Building and compiling a Kysely query
 * costs several times more than running it on SQLite, so the queries of every request (the key
 * lookup, job creation, job lists) are prepared once per shape.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './schema.js';

type Executor = Pick<Kysely<Database>, 'executeQuery'>;

/**
 * SQLite connections by the Kysely instance (or transaction) that wraps them. Prepared queries on
 * such an instance skip Kysely's asynchronous driver: the statement runs directly (better-sqlite3
 * is synchronous anyway) and rows come back as arrays, named once per statement. A transaction is
 * registered by the group committer that opened it, so its statements run on its connection
 * between its BEGIN and COMMIT.
 */
const nativeConnections = new WeakMap<object, BetterSqlite3.Database>();

export function registerNative(executor: object, native: BetterSqlite3.Database): void {
  nativeConnections.set(executor, native);
}

const camel = (name: string): string =>
  name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

const MARK = '\u0000pw:';

/** Stands for the value named `name` in a query being prepared; typed as whatever it replaces. */
export function slot<T = never>(name: string): T {
  return `${MARK}${name}` as unknown as T;
}

export class PreparedQuery {
  private readonly names: Array<string | undefined>;

  constructor(private readonly compiled: CompiledQuery) {
    this.names = compiled.parameters.map((p) =>
      typeof p === 'string' && p.startsWith(MARK) ? p.slice(MARK.length) : undefined,
    );
  }

  bind(values: Record<string, unknown>): CompiledQuery {
    const parameters = this.compiled.parameters.map((p, i) => {
      const name = this.names[i];
      if (name === undefined) return p;
      if (!(name in values)) throw new Error(`prepared query: no value for ${name}`);
      return values[name];
    });
    return CompiledQuery.raw(this.compiled.sql, parameters);
  }

  /** Runs on `db` (a connection or a transaction) with `values` bound. */
  async execute<Row>(db: Executor, values: Record<string, unknown>): Promise<Row[]> {
    const native = nativeConnections.get(db);
    if (native) return this.executeNative<Row>(native, values);
    const result = (await db.executeQuery(this.bind(values))) as QueryResult<Row>;
    return result.rows;
  }

  private columns: string[] | undefined;

  private executeNative<Row>(
    native: BetterSqlite3.Database,
    values: Record<string, unknown>,
  ): Row[] {
    const statement = native.prepare(this.compiled.sql);
    const columns = (this.columns ??= statement.columns().map((c) => camel(c.name)));
    let rows: unknown[][];
    try {
      rows = statement.raw(true).all(...this.bind(values).parameters) as unknown[][];
    } finally {
      // The statement is shared with Kysely's own queries, which expect objects.
      statement.raw(false);
    }
    return rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) out[columns[i]!] = row[i];
      return out as Row;
    });
  }

  async run(db: Executor, values: Record<string, unknown>): Promise<QueryResult<unknown>> {
    const native = nativeConnections.get(db);
    if (native) {
      const statement = native.prepare(this.compiled.sql);
      if (statement.reader) return { rows: this.executeNative(native, values) };
      const result = statement.run(...this.bind(values).parameters);
      return { rows: [], numAffectedRows: BigInt(result.changes) };
    }
    return db.executeQuery(this.bind(values));
  }
}

/** Prepared queries by shape: `get(key, build)` compiles a shape the first time it is asked for. */
export class PreparedCache {
  private readonly queries = new Map<string, PreparedQuery>();

  get(key: string, build: () => Compilable): PreparedQuery {
    let query = this.queries.get(key);
    if (!query) {
      query = new PreparedQuery(build().compile());
      this.queries.set(key, query);
    }
    return query;
  }
}
