import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DispatchedJob } from '@printwire/shared/protocol/index';
import { FakeClock } from '../core/clock.js';
import Database from 'better-sqlite3';
import { JobQueue } from './job-queue.js';
import { MIGRATIONS } from './schema.js';

function dbPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'pw-queue-')), 'queue.db');
}

export function makeJob(id: string, extra: Partial<DispatchedJob> = {}): DispatchedJob {
  return {
    id,
    attempt: 1,
    maxAttempts: 3,
    agentPrinterId: 'prn_1',
    type: 'text',
    encoding: 'utf8',
    content: `job ${id}`,
    options: {},
    expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

describe('durable job queue', () => {
  test('a committed job survives closing and reopening the database', () => {
    const path = dbPath();
    const queue = new JobQueue(path);
    assert.equal(queue.accept(makeJob('job_1', { options: { copies: 2 } })), 'stored');
    queue.close();
    const reopened = new JobQueue(path);
    const job = reopened.get('job_1');
    assert.equal(job?.state, 'queued');
    assert.equal(job?.content, 'job job_1');
    assert.deepEqual(job?.options, { copies: 2 });
    reopened.close();
  });

  for (const durability of ['power-loss', 'process'] as const) {
    test(`with ${durability} durability a flushed commit survives SIGKILL of the process`, () => {
      const path = dbPath();
      const queueModule = new URL('./job-queue.ts', import.meta.url).pathname;
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `import { JobQueue } from ${JSON.stringify(queueModule)};
           const queue = new JobQueue(${JSON.stringify(path)}, { durability: '${durability}' });
           queue.accept(${JSON.stringify(makeJob('job_1'))});
           queue.markPrinting('job_1');
           await queue.flush();
           process.kill(process.pid, 'SIGKILL');`,
        ],
        { encoding: 'utf8' },
      );
      assert.equal(child.signal, 'SIGKILL', child.stderr);
      const reopened = new JobQueue(path);
      assert.equal(reopened.get('job_1')?.state, 'printing');
      reopened.close();
    });
  }

  test('a job an older agent already tried counts as started after the upgrade: never withdrawn', () => {
    const path = dbPath();
    const old = new Database(path);
    for (const migration of MIGRATIONS.slice(0, 2)) old.exec(migration);
    old.pragma('user_version = 2');
    const insert = old.prepare(
      `INSERT INTO jobs (id, agent_printer_id, type, encoding, content, options, attempt,
         max_attempts, state, next_attempt_at, created_at, received_at, updated_at, error_code)
       VALUES (?, 'prn_1', 'text', 'utf8', '"x"', '{}', ?, 3, 'queued', 0, '', 0, 0, ?)`,
    );
    insert.run('job_tried', 2, 'CONNECTION_LOST');
    insert.run('job_fresh', 1, null);
    old.close();
    const queue = new JobQueue(path);
    assert.deepEqual([queue.withdraw('job_tried').reason], ['started']);
    assert.equal(queue.get('job_tried')?.state, 'queued', 'it stays to print');
    assert.deepEqual([queue.withdraw('job_fresh').reason], ['not_started']);
    assert.equal(queue.get('job_fresh'), null);
    queue.close();
  });

  test('a job given back before deliveries (by attempt) is told apart by delivery after the upgrade', () => {
    const path = dbPath();
    const old = new Database(path);
    for (const migration of MIGRATIONS.slice(0, 3)) old.exec(migration);
    old.pragma('user_version = 3');
    old
      .prepare('INSERT INTO withdrawn_jobs (job_id, attempt, withdrawn_at) VALUES (?, ?, 0)')
      .run('job_w', 2);
    old.close();
    const queue = new JobQueue(path);
    // The cloud's deliveries of a job start above the attempts it dispatched it with.
    assert.equal(queue.accept(makeJob('job_w', { attempt: 1, delivery: 2 })), 'withdrawn');
    assert.equal(queue.accept(makeJob('job_w', { attempt: 1, delivery: 3 })), 'stored');
    // From a cloud that sends no delivery: by attempt, as before.
    assert.equal(queue.accept(makeJob('job_v', { attempt: 1 })), 'stored');
    assert.equal(queue.withdraw('job_v').delivery, undefined);
    assert.equal(queue.accept(makeJob('job_v', { attempt: 1 })), 'withdrawn');
    assert.equal(queue.accept(makeJob('job_v', { attempt: 2 })), 'stored');
    queue.close();
  });

  test('a job delivered twice is stored once', () => {
    const queue = new JobQueue(dbPath());
    assert.equal(queue.accept(makeJob('job_1')), 'stored');
    assert.equal(queue.accept(makeJob('job_1')), 'duplicate');
    assert.equal(queue.summary().queued, 1);
    queue.close();
  });

  test('a printed job id is remembered across restarts and never queued again', () => {
    const path = dbPath();
    const clock = new FakeClock();
    const queue = new JobQueue(path, { clock });
    queue.accept(makeJob('job_1'));
    assert.equal(queue.markPrinting('job_1'), true);
    queue.confirm(queue.markPrinted('job_1').id);
    clock.advance(1);
    queue.prune(0, 30 * 86_400_000);
    assert.equal(queue.get('job_1'), null, 'the job row itself was pruned');
    queue.close();
    const reopened = new JobQueue(path);
    assert.equal(reopened.isPrinted('job_1'), true);
    assert.equal(reopened.accept(makeJob('job_1')), 'finished');
    assert.equal(reopened.nextDue('prn_1'), null);
    assert.equal(reopened.resultFor('job_1')?.outcome, 'printed');
    reopened.close();
  });

  test('a job found printing after a crash is failed with INTERRUPTED, not printed again', () => {
    const path = dbPath();
    const queue = new JobQueue(path);
    queue.accept(makeJob('job_1'));
    queue.markPrinting('job_1');
    queue.close(); // the process dies here
    const reopened = new JobQueue(path);
    const results = reopened.recoverInterrupted();
    assert.equal(results.length, 1);
    assert.equal(results[0]!.errorCode, 'INTERRUPTED');
    assert.equal(reopened.get('job_1')?.state, 'failed');
    assert.equal(reopened.nextDue('prn_1'), null);
    assert.equal(reopened.accept(makeJob('job_1')), 'finished');
    reopened.close();
  });

  test('jobs come out oldest first and a retry waits for its next attempt time', () => {
    const clock = new FakeClock();
    const queue = new JobQueue(dbPath(), { clock });
    queue.accept(makeJob('a'));
    clock.advance(1);
    queue.accept(makeJob('b'));
    assert.equal(queue.nextDue('prn_1')?.id, 'a');
    queue.markPrinting('a');
    queue.scheduleRetry('a', 2, clock.now() + 5000, { code: 'PAPER_OUT', message: 'paper out' });
    assert.equal(queue.nextDue('prn_1')?.id, 'b');
    queue.markPrinting('b');
    queue.markPrinted('b');
    assert.equal(queue.nextDue('prn_1'), null);
    assert.equal(queue.nextDueAt('prn_1'), clock.now() + 5000);
    clock.advance(5000);
    const retried = queue.nextDue('prn_1');
    assert.equal(retried?.id, 'a');
    assert.equal(retried?.attempt, 2);
    assert.equal(retried?.errorCode, 'PAPER_OUT');
    queue.close();
  });

  test('a queued job can be cancelled; a started or finished one cannot', () => {
    const queue = new JobQueue(dbPath());
    queue.accept(makeJob('q'));
    queue.accept(makeJob('p'));
    queue.accept(makeJob('f'));
    queue.markPrinting('p');
    queue.markPrinting('f');
    queue.markPrinted('f');
    const q = queue.cancel('q');
    assert.deepEqual([q.cancelled, q.reason], [true, 'not_started']);
    assert.equal(queue.markPrinting('q'), false, 'a cancelled job never starts');
    const p = queue.cancel('p');
    assert.equal(p.reason, 'started');
    const f = queue.cancel('f');
    assert.equal(f.reason, 'finished');
    const u = queue.cancel('nope');
    assert.equal(u.reason, 'unknown_job');
    queue.close();
  });

  test('results stay in the outbox until the cloud confirms them, also across restarts', () => {
    const path = dbPath();
    const queue = new JobQueue(path);
    queue.accept(makeJob('job_1'));
    queue.markPrinting('job_1');
    const result = queue.markPrinted('job_1');
    queue.close();
    const reopened = new JobQueue(path);
    assert.deepEqual(
      reopened.outbox().map((m) => m.id),
      [result.id],
    );
    reopened.confirm(result.id);
    assert.deepEqual(reopened.outbox(), []);
    assert.equal(reopened.summary().unconfirmed, 0);
    reopened.close();
  });

  test('the summary counts jobs by state', () => {
    const queue = new JobQueue(dbPath());
    queue.accept(makeJob('a'));
    queue.accept(makeJob('b'));
    queue.markPrinting('b');
    queue.markFailed('b', { code: 'UNSUPPORTED_JOB', message: 'no', retryable: false });
    assert.deepEqual(queue.summary(), {
      queued: 1,
      printing: 0,
      printed: 0,
      failed: 1,
      cancelled: 0,
      unconfirmed: 1,
    });
    queue.close();
  });
});
