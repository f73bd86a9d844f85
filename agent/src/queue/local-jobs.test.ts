import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DispatchedJob } from '@printwire/shared/protocol/index';
import { FakeClock } from '../core/clock.js';
import { JobQueue } from './job-queue.js';

const job = (id: string): DispatchedJob => ({
  id,
  attempt: 1,
  maxAttempts: 3,
  agentPrinterId: 'prn_1',
  type: 'text',
  encoding: 'utf8',
  content: 'hello',
  options: {},
  expiresAt: null,
  createdAt: '2026-11-25T00:00:00.000Z',
});
const fields = { idempotencyKey: null, templateId: null, metadata: {} };
const ID = 'job_01JD3M0000000000000000000A';
const open = (clock = new FakeClock(Date.parse('2026-11-25T00:00:00Z'))) =>
  new JobQueue(join(mkdtempSync(join(tmpdir(), 'pw-q-')), 'queue.db'), {
    clock,
    durability: 'process',
  });

test('a local job is stored once per idempotency key', () => {
  const q = open();
  const first = q.acceptLocal(job(ID), { ...fields, idempotencyKey: 'k' });
  const again = q.acceptLocal(job('job_01JD3M0000000000000000000B'), {
    ...fields,
    idempotencyKey: 'k',
  });
  assert.deepEqual(first, { id: ID, created: true });
  assert.deepEqual(again, { id: ID, created: false });
  assert.equal(q.summary().queued, 1);
});

test('each state of a local job replaces its pending job.local report; no job.result is queued', () => {
  const q = open();
  q.acceptLocal(job(ID), fields);
  assert.equal(q.pendingReport(ID)?.job.state, 'queued');
  assert.equal(q.pendingReport(ID)?.job.attempt, 0);
  q.markPrinting(ID);
  q.markPrinted(ID);
  const outbox = q.outbox();
  assert.equal(outbox.length, 1);
  assert.equal(outbox[0]!.type, 'job.local');
  const report = q.pendingReport(ID)!;
  assert.deepEqual(
    report.job.events.map((e) => e.state),
    ['queued', 'sending', 'printed'],
  );
  assert.equal(report.job.attempt, 1);
  assert.ok(report.job.printedAt);
  q.confirm(report.id);
  assert.equal(q.pendingReport(ID), null);
});

test('a cancelled local job is reported as cancelled, with no job.cancelled answer', () => {
  const q = open();
  q.acceptLocal(job(ID), fields);
  q.cancel(ID);
  assert.equal(q.outbox().length, 1);
  assert.equal(q.pendingReport(ID)?.job.state, 'cancelled');
});

test('a nonce is refused within the window and forgotten after twice the window', () => {
  const q = open();
  assert.equal(q.rememberNonce('n-1', 1000, 300), true);
  assert.equal(q.rememberNonce('n-1', 1600, 300), false);
  assert.equal(q.rememberNonce('n-1', 1601, 300), true);
});
