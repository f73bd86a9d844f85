/**
 * Prepared queries: a query is built and compiled by Kysely once, with named placeholders where
 * its values go, and later run with values bound by name. Building and compiling a Kysely query
 * costs several times more than running it on SQLite, so the queries of every request (the key
 * lookup, job creation, job lists) are prepared once per shape.
 */
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './schema.js';

type Executor = Pick<Kysely<Database>, 'executeQuery'>;

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
    const result = (await db.executeQuery(this.bind(values))) as QueryResult<Row>;
    return result.rows;
  }

  async run(db: Executor, values: Record<string, unknown>): Promise<QueryResult<unknown>> {
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
