import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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

  test('once the WAL reaches restartFrames, the next write waits for a checkpoint and starts it over', async () => {
    const { db, committer, seen } = open('restart.db', 8, 50);
    try {
      await sql`create table filler (id integer primary key, body blob)`.execute(db.raw);
      // Without a restart every commit adds to the WAL: write until a checkpoint counts 50 frames.
      let written = 0;
      while (!seen.some((r) => r.log >= 50)) {
        await writeRows(db, committer, 1);
        assert.ok(++written < 5_000, 'no checkpoint saw the WAL reach 50 frames');
      }
      const before = Math.max(...seen.map((r) => r.log));
      await writeRows(db, committer, 1);
      const after = await db.checkpointer!.checkpoint();
      assert.ok(after.log < 10, `the WAL holds ${after.log} frames (it held ${before})`);
      const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(db.reader);
      assert.equal(rows.rows[0]!.n, written + 1);
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
