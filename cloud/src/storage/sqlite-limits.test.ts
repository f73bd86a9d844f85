import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type OpenedDatabase } from './db.js';
import { PreparedQuery, slot } from './prepared.js';

interface Numbers {
  numbers: { n: number };
}

describe('bound LIMIT and OFFSET on SQLite', () => {
  let dir: string;
  let db: OpenedDatabase;
  let numbers: Kysely<Numbers>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'printwire-sqlite-limits-'));
    db = openDatabase({ url: join(dir, 'db.sqlite') });
    await sql`create table numbers (n integer primary key)`.execute(db.raw);
    await sql`insert into numbers (n) values (1), (2), (3), (4), (5), (6), (7), (8)`.execute(
      db.raw,
    );
    numbers = db.reader as unknown as Kysely<Numbers>;
  });

  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('are written behind a unary plus, so SQLite does not plan the statement per value', () => {
    const compiled = numbers.selectFrom('numbers').select('n').limit(3).offset(2).compile();
    assert.match(compiled.sql, /limit \+\? offset \+\?$/);
    assert.deepEqual(compiled.parameters, [3, 2]);
  });

  test('one prepared statement honours every LIMIT and OFFSET bound to it', async () => {
    const query = new PreparedQuery(
      numbers
        .selectFrom('numbers')
        .select('n')
        .orderBy('n')
        .limit(slot<number>('limit'))
        .offset(slot<number>('offset'))
        .compile(),
    );
    const run = async (limit: number, offset: number) =>
      (await query.execute<{ n: number }>(numbers, { limit, offset })).map((r) => r.n);
    assert.deepEqual(await run(3, 0), [1, 2, 3]);
    assert.deepEqual(await run(2, 5), [6, 7]);
    assert.deepEqual(await run(8, 6), [7, 8]);
    assert.deepEqual(await run(1, 0), [1]);
  });

  test('a LIMIT that is not a bound value is left as written', () => {
    const compiled = numbers.selectFrom('numbers').select('n').limit(sql.lit(5)).compile();
    assert.match(compiled.sql, /limit 5$/);
  });

  test('the write connection writes them the same way', () => {
    const writer = db.writer as unknown as Kysely<Numbers>;
    assert.match(writer.selectFrom('numbers').select('n').limit(3).compile().sql, /limit \+\?$/);
  });

  test('PostgreSQL connections keep a plain bound LIMIT (its plans do not depend on it)', async () => {
    // Compiling needs no server: the pool connects on the first query only.
    const pg = openDatabase({ url: 'postgres://127.0.0.1:5432/test' });
    try {
      const reader = pg.reader as unknown as Kysely<Numbers>;
      assert.match(reader.selectFrom('numbers').select('n').limit(3).compile().sql, /limit \$1$/);
    } finally {
      await pg.close();
    }
  });
});
