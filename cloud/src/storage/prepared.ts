/**
 * Prepared queries: a query is built and compiled by Kysely once, with named placeholders where
 * its values go, and later run with values bound by name. Building and compiling a Kysely query
 * costs several times more than running it on SQLite, so the queries of every request (the key
 * lookup, job creation, job lists) are prepared once per shape.
 */
import BetterSqlite3 from 'better-sqlite3';
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

/** Builds a row object from a raw row: one object literal, so every row has the same shape. */
type RowBuilder = (row: unknown[]) => Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function rowBuilder(columns: string[]): RowBuilder {
  // Column names come from the statement (camel-cased SQL identifiers); anything that is not a
  // plain identifier, or a name twice, falls back to a loop.
  if (columns.every((c) => IDENTIFIER.test(c)) && new Set(columns).size === columns.length) {
    const fields = columns.map((c, i) => `${c}: row[${i}]`).join(', ');
    return new Function('row', `return { ${fields} };`) as RowBuilder;
  }
  return (row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) out[columns[i]!] = row[i];
    return out;
  };
}

/** better-sqlite3's own prepare, past the statement cache that Kysely's statements share. */
const prepareOwn = (native: BetterSqlite3.Database, source: string): BetterSqlite3.Statement =>
  (BetterSqlite3.prototype as BetterSqlite3.Database).prepare.call(native, source);

interface NativeStatement {
  statement: BetterSqlite3.Statement;
  /** Set for statements that return rows (kept in raw mode: rows come back as arrays). */
  build?: RowBuilder;
}

export class PreparedQuery {
  private readonly names: Array<string | undefined>;
  /** This query's own statement on each SQLite connection it ran on. */
  private readonly statements = new WeakMap<BetterSqlite3.Database, NativeStatement>();

  constructor(private readonly compiled: CompiledQuery) {
    this.names = compiled.parameters.map((p) =>
      typeof p === 'string' && p.startsWith(MARK) ? p.slice(MARK.length) : undefined,
    );
  }

  bind(values: Record<string, unknown>): CompiledQuery {
    return CompiledQuery.raw(this.compiled.sql, this.parameters(values));
  }

  private parameters(values: Record<string, unknown>): unknown[] {
    const given = this.compiled.parameters;
    const out = new Array<unknown>(given.length);
    for (let i = 0; i < given.length; i++) {
      const name = this.names[i];
      if (name === undefined) {
        out[i] = given[i];
      } else {
        if (!(name in values)) throw new Error(`prepared query: no value for ${name}`);
        out[i] = values[name];
      }
    }
    return out;
  }

  private statementOn(native: BetterSqlite3.Database): NativeStatement {
    let prepared = this.statements.get(native);
    if (!prepared) {
      const statement = prepareOwn(native, this.compiled.sql);
      prepared = { statement };
      if (statement.reader) {
        prepared.build = rowBuilder(statement.columns().map((c) => camel(c.name)));
        statement.raw(true);
      }
      this.statements.set(native, prepared);
    }
    return prepared;
  }

  /** Runs on `db` (a connection or a transaction) with `values` bound. */
  async execute<Row>(db: Executor, values: Record<string, unknown>): Promise<Row[]> {
    const native = nativeConnections.get(db);
    if (native) return this.executeNative<Row>(native, values);
    const result = (await db.executeQuery(this.bind(values))) as QueryResult<Row>;
    return result.rows;
  }

  private executeNative<Row>(
    native: BetterSqlite3.Database,
    values: Record<string, unknown>,
  ): Row[] {
    const { statement, build } = this.statementOn(native);
    if (!build) throw new Error('prepared query: execute() on a statement that returns no rows');
    const rows = statement.all(...this.parameters(values)) as unknown[][];
    const out = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = build(rows[i]!) as Row;
    return out;
  }

  async run(db: Executor, values: Record<string, unknown>): Promise<QueryResult<unknown>> {
    const native = nativeConnections.get(db);
    if (native) {
      const { statement, build } = this.statementOn(native);
      if (build) return { rows: this.executeNative(native, values) };
      const result = statement.run(...this.parameters(values));
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
