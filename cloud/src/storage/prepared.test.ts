import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type OpenedDatabase } from './db.js';
import { PreparedCache, slot } from './prepared.js';

interface Tables {
  things: { thing_id: number; display_name: string | null };
}

describe('prepared queries on SQLite', () => {
  let dir: string;
  let db: OpenedDatabase;
  let reader: Kysely<Tables>;
  const prepared = new PreparedCache();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'printwire-prepared-'));
    db = openDatabase({ url: join(dir, 'db.sqlite') });
    await sql`create table things (thing_id integer primary key, display_name text)`.execute(
      db.raw,
    );
    await sql`insert into things values (1, 'one'), (2, null), (3, 'three')`.execute(db.raw);
    reader = db.reader as unknown as Kysely<Tables>;
  });

  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('rows come back as objects with camelCase keys, values bound by name', async () => {
    const query = prepared.get('things.from', () =>
      reader
        .selectFrom('things')
        .selectAll()
        .where('thing_id', '>=', slot<number>('from'))
        .orderBy('thing_id'),
    );
    assert.deepEqual(await query.execute(reader, { from: 2 }), [
      { thingId: 2, displayName: null },
      { thingId: 3, displayName: 'three' },
    ]);
    assert.deepEqual(await query.execute(reader, { from: 3 }), [
      { thingId: 3, displayName: 'three' },
    ]);
  });

  test('a value missing for a named slot is an error, not a NULL', async () => {
    const query = prepared.get('things.byId', () =>
      reader.selectFrom('things').select('display_name').where('thing_id', '=', slot('id')),
    );
    await assert.rejects(query.execute(reader, {}), /no value for id/);
  });

  test('columns that are not plain names keep their names', async () => {
    const query = prepared.get('things.odd', () =>
      reader
        .selectFrom('things')
        .select([sql<string>`display_name`.as('shown name'), 'thing_id'])
        .where('thing_id', '=', slot('id')),
    );
    assert.deepEqual(await query.execute(reader, { id: 1 }), [{ 'shown name': 'one', thingId: 1 }]);
  });
});
