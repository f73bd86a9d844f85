import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type OpenedDatabase } from './db.js';
import { GroupCommitter } from './group-commit.js';

/**
 * A sync held until the test lets syncs finish (then every later one finishes at once), counting
 * how often one was asked for.
 */
class HeldSync {
  started = 0;
  private released = false;
  private waiting: Array<() => void> = [];

  readonly sync = (): Promise<void> => {
    this.started++;
    if (this.released) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  };

  finish(): void {
    this.released = true;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

const settled = (p: Promise<unknown>): Promise<boolean> =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);

describe('group commit', () => {
  let dir: string;
  let db: OpenedDatabase;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'printwire-group-commit-'));
    db = openDatabase({ url: join(dir, 'db.sqlite') });
    db.nativeWriter!.exec('create table notes (id integer primary key, body text not null unique)');
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (body: string) => (trx: Parameters<Parameters<GroupCommitter['run']>[0]>[0]) =>
    sql`insert into notes (body) values (${body})`.execute(trx);
  const stored = async (body: string): Promise<boolean> => {
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from notes where body = ${body}`.execute(db.reader);
    return rows[0]!.n === 1;
  };

  test('a write resolves only after the sync that follows its commit', async () => {
    const held = new HeldSync();
    const committer = new GroupCommitter(db.writer, {
      afterCommit: held.sync,
      native: db.nativeWriter,
    });
    const write = committer.run(insert('durable'));
    assert.equal(await settled(write), false, 'resolved before its sync');
    assert.equal(held.started, 1);
    assert.equal(await stored('durable'), true, 'committed while the sync runs');
    held.finish();
    await write;
  });

  test('a write with durable false resolves at its commit and asks for no sync of its own', async () => {
    const held = new HeldSync();
    const committer = new GroupCommitter(db.writer, {
      afterCommit: held.sync,
      native: db.nativeWriter,
    });
    await committer.run(insert('lazy'), { durable: false });
    assert.equal(held.started, 0);
    assert.equal(await stored('lazy'), true);
  });

  test('in a batch with a durable write, one with durable false does not wait for its sync', async () => {
    const held = new HeldSync();
    const committer = new GroupCommitter(db.writer, {
      afterCommit: held.sync,
      native: db.nativeWriter,
    });
    const durable = committer.run(insert('batched durable'));
    const lazy = committer.run(insert('batched lazy'), { durable: false });
    await lazy;
    assert.equal(held.started, 1, 'one batch, one sync');
    assert.equal(await settled(durable), false, 'the durable write waits for the sync');
    held.finish();
    await durable;
    assert.equal(await stored('batched durable'), true);
  });

  test('writes asked for in the same turn of the event loop commit in one batch with one sync', async () => {
    const held = new HeldSync();
    const committer = new GroupCommitter(db.writer, {
      afterCommit: held.sync,
      native: db.nativeWriter,
    });
    const writes = ['one', 'two', 'three'].map((body) => committer.run(insert(`turn ${body}`)));
    held.finish();
    await Promise.all(writes);
    assert.equal(held.started, 1);
  });

  test('a failing write in a batch fails alone: the others of its batch are committed', async () => {
    const committer = new GroupCommitter(db.writer, { native: db.nativeWriter });
    const results = await Promise.allSettled([
      committer.run(insert('unique body')),
      committer.run(insert('neighbour one')),
      committer.run(insert('unique body')), // violates the unique constraint
      committer.run(insert('neighbour two')),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal(await stored('neighbour one'), true);
    assert.equal(await stored('neighbour two'), true);
  });
});
