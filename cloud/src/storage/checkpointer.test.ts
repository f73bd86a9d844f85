import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type OpenedDatabase } from './db.js';
import { GroupCommitter } from './group-commit.js';
import { WalCheckpointer, type CheckpointResult } from './checkpointer.js';

describe('WAL checkpoints on a worker thread', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'printwire-checkpointer-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A group-committing database whose checkpoints the test sees. */
  function open(name: string, everyCommits: number, restartFrames?: number, idleMs?: number) {
    const seen: CheckpointResult[] = [];
    const waiters: Array<() => void> = [];
    const db = openDatabase({
      url: join(dir, name),
      checkpoints: {
        everyCommits,
        ...(restartFrames ? { restartFrames } : {}),
        ...(idleMs ? { idleMs } : {}),
        onCheckpoint: (r) => {
          seen.push(r);
          for (const w of waiters.splice(0)) w();
        },
      },
    });
    const committer = new GroupCommitter(db.writer, {
      afterCommit: db.syncWal!,
      native: db.nativeWriter!,
      beforeBatch: () => db.checkpointer!.beforeBatch(),
    });
    const nextCheckpoint = () => new Promise<void>((resolve) => waiters.push(resolve));
    return { db, committer, seen, nextCheckpoint };
  }

  async function writeRows(db: OpenedDatabase, committer: GroupCommitter, n: number) {
    for (let i = 0; i < n; i++) {
      await committer.run((trx) =>
        sql`insert into filler (body) values (${Buffer.alloc(3000, i % 251)})`.execute(trx),
      );
    }
  }

  test('the writer no longer checkpoints by itself', async () => {
    const { db } = open('off.db', 64);
    try {
      assert.equal(db.nativeWriter!.pragma('wal_autocheckpoint', { simple: true }), 0);
    } finally {
      await db.close();
    }
  });

  test('every few commits the worker copies the whole WAL into the database', async () => {
    const { db, committer, seen, nextCheckpoint } = open('every.db', 5);
    try {
      await sql`create table filler (id integer primary key, body blob)`.execute(db.raw);
      const checkpointed = nextCheckpoint();
      await writeRows(db, committer, 5);
      await checkpointed;
      assert.equal(seen.length, 1, 'one checkpoint for five commits');
      assert.ok(seen[0]!.log > 0);
      assert.equal(seen[0]!.checkpointed, seen[0]!.log, 'every frame copied');
    } finally {
      await db.close();
    }
  });

  test('a WAL left by a few commits is copied soon after, without more writes', async () => {
    const { db, committer, seen, nextCheckpoint } = open('idle.db', 64, undefined, 20);
    try {
      await sql`create table filler (id integer primary key, body blob)`.execute(db.raw);
      const checkpointed = nextCheckpoint();
      await writeRows(db, committer, 2);
      await checkpointed;
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.checkpointed, seen[0]!.log);
    } finally {
      await db.close();
    }
  });

  test('the WAL stays bounded under a stream of commits', async () => {
    const { db, committer, seen } = open('bounded.db', 16, 100);
    try {
      await sql`create table filler (id integer primary key, body blob)`.execute(db.raw);
      // 600 commits of ~3 KB: 1.8 MB of rows, about 1,200 WAL frames (4.9 MB) if it never started
      // over; it should start over at about 100 frames.
      await writeRows(db, committer, 600);
      assert.ok(seen.length >= 10, `${seen.length} checkpoints`);
      const wal = statSync(join(dir, 'bounded.db-wal')).size;
      assert.ok(wal < 1_000_000, `the WAL is ${wal} bytes`);
      const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(db.reader);
      assert.equal(rows.rows[0]!.n, 600);
    } finally {
      await db.close();
    }
  });

  test('when the worker cannot work, the writer checkpoints by itself again', async () => {
    const failures: Error[] = [];
    const { db } = open('fallback.db', 64);
    try {
      // A checkpointer whose worker cannot open its database (a directory) fails at once.
      const notADatabase = join(dir, 'a-directory');
      mkdirSync(notADatabase);
      const failed = new Promise<void>((resolve) => {
        new WalCheckpointer(notADatabase, db.nativeWriter!, {
          onFailure: (error) => {
            failures.push(error);
            resolve();
          },
        });
      });
      assert.equal(db.nativeWriter!.pragma('wal_autocheckpoint', { simple: true }), 0);
      await failed;
      assert.equal(failures.length, 1);
      assert.equal(db.nativeWriter!.pragma('wal_autocheckpoint', { simple: true }), 1000);
    } finally {
      await db.close();
    }
  });
});
