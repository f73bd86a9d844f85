import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { DispatchedJob } from '@printwire/shared/protocol/index';
import { FakePrinter } from '../../../test/fake-printer.js';
import { parsePrinterUri } from '../config/printer-uri.js';
import { JobQueue } from '../queue/job-queue.js';
import { TransportRegistry } from '../transports/registry.js';
import { createTcpTransport } from '../transports/tcp/tcp-transport.js';
import { silentLogger } from '../logs/logger.js';
import { FakeClock } from './clock.js';
import {
  PrinterWorker,
  retryDelayMs,
  type RenderFunction,
  type RunnerEvents,
  type RunnerOptions,
} from './printer-worker.js';

type Recorded =
  | { kind: 'status'; status: string }
  | {
      kind: 'progress';
      stage: string;
      attempt: number;
      started?: boolean;
      errorCode?: string;
      nextAttemptAt?: string;
    }
  | { kind: 'result'; outcome: string; errorCode?: string; retryable?: boolean; attempt: number };

function makeJob(id: string, extra: Partial<DispatchedJob> = {}): DispatchedJob {
  return {
    id,
    attempt: 1,
    maxAttempts: 3,
    agentPrinterId: 'prn_1',
    type: 'text',
    encoding: 'utf8',
    content: `job ${id}`,
    options: { cut: 'none' },
    expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

describe('printer worker', () => {
  let printer: FakePrinter;
  let clock: FakeClock;
  let queue: JobQueue;
  let log: Recorded[];
  let bus: EventEmitter;
  let worker: PrinterWorker;

  const events: RunnerEvents = {
    onStatus: (_id, r) => {
      log.push({ kind: 'status', status: r.status });
      bus.emit('status', r.status);
    },
    onProgress: (m) => {
      log.push({
        kind: 'progress',
        stage: m.stage,
        attempt: m.attempt,
        ...(m.started !== undefined ? { started: m.started } : {}),
        ...(m.errorCode ? { errorCode: m.errorCode } : {}),
        ...(m.nextAttemptAt ? { nextAttemptAt: m.nextAttemptAt } : {}),
      });
      bus.emit('progress', m);
    },
    onResult: (m) => {
      log.push({
        kind: 'result',
        outcome: m.outcome,
        attempt: m.attempt,
        ...(m.errorCode ? { errorCode: m.errorCode, retryable: m.retryable } : {}),
      });
      bus.emit('result', m);
    },
  };

  function startWorker(
    uriQuery = '',
    options: RunnerOptions = { pollIntervalMs: 0 },
    render?: RenderFunction,
  ) {
    const spec = parsePrinterUri(printer.uri(uriQuery));
    const registry = new TransportRegistry().register('tcp', createTcpTransport);
    worker = new PrinterWorker(
      { agentPrinterId: 'prn_1', spec },
      {
        queue,
        registry,
        clock,
        events,
        logger: silentLogger(),
        ...(render ? { render } : {}),
        target: () => ({
          language: spec.language,
          paper: '80mm',
          codepage: null,
          cut: null,
          profileId: null,
        }),
      },
      { retryBaseMs: 2000, retryMaxMs: 60_000, ...options, transport: { statusTimeoutMs: 200 } },
    );
    worker.start();
  }

  beforeEach(async () => {
    printer = await FakePrinter.start();
    clock = new FakeClock();
    queue = new JobQueue(join(mkdtempSync(join(tmpdir(), 'pw-worker-')), 'q.db'), { clock });
    log = [];
    bus = new EventEmitter();
  });

  afterEach(async () => {
    await worker.stop();
    queue.close();
    await printer.stop();
  });

  test('a queued job is printed and reported printed with all its bytes', async () => {
    startWorker();
    queue.accept(makeJob('job_1'));
    const done = once(bus, 'result');
    worker.wake();
    await done;
    assert.deepEqual(log, [
      { kind: 'status', status: 'online' },
      { kind: 'progress', stage: 'printing', attempt: 1, started: true },
      { kind: 'result', outcome: 'printed', attempt: 1 },
    ]);
    assert.ok(printer.bytes().includes('job job_1'));
    assert.equal(queue.isPrinted('job_1'), true);
    assert.equal(
      printer.statusRequests,
      4,
      'status (DLE EOT 1 and 4) read before and after the job',
    );
  });

  test('paper out sends the job back with backoff until maxAttempts, then fails PAPER_OUT', async () => {
    printer.paperOut = true;
    startWorker();
    queue.accept(makeJob('job_1'));
    worker.wake();
    await worker.idle();
    assert.equal(printer.byteCount, 0, 'nothing is written to a printer without paper');
    assert.equal(clock.nextAt(), clock.now() + 2000);
    clock.advance(1999);
    assert.equal(printer.connections, 1, 'no attempt before the backoff ends');
    clock.advance(1);
    await worker.idle();
    assert.equal(clock.nextAt(), clock.now() + 4000, 'the backoff doubles');
    const result = once(bus, 'result');
    clock.advance(4000);
    await result;
    assert.deepEqual(
      log.filter((e) => e.kind !== 'status'),
      [
        {
          kind: 'progress',
          stage: 'retry_scheduled',
          attempt: 2,
          started: false,
          errorCode: 'PAPER_OUT',
          nextAttemptAt: '2026-01-01T00:00:02.000Z',
        },
        // Picked again while the printer still says paper out: held, told once.
        { kind: 'progress', stage: 'waiting', attempt: 2, started: false, errorCode: 'PAPER_OUT' },
        {
          kind: 'progress',
          stage: 'retry_scheduled',
          attempt: 3,
          started: false,
          errorCode: 'PAPER_OUT',
          nextAttemptAt: '2026-01-01T00:00:06.000Z',
        },
        { kind: 'result', outcome: 'failed', attempt: 3, errorCode: 'PAPER_OUT', retryable: true },
      ],
    );
    assert.deepEqual(
      log.filter((e) => e.kind === 'status'),
      [{ kind: 'status', status: 'paper_out' }],
    );
    assert.equal(printer.byteCount, 0);
  });

  test('a refused connection is retried and prints once the printer is back', async () => {
    await printer.refuseConnections();
    startWorker();
    queue.accept(makeJob('job_1'));
    const retry = once(bus, 'progress');
    worker.wake();
    const [progress] = (await retry) as [{ errorCode: string; started: boolean }];
    assert.equal(progress.errorCode, 'CONNECTION_REFUSED');
    assert.equal(progress.started, false, 'a refused connection sent no byte');
    await printer.acceptConnections();
    await worker.idle();
    const result = once(bus, 'result');
    clock.advance(2000);
    await result;
    assert.deepEqual(log.at(-1), { kind: 'result', outcome: 'printed', attempt: 2 });
    assert.deepEqual(
      log.filter((e) => e.kind === 'status').map((e) => 'status' in e && e.status),
      ['offline', 'online'],
    );
  });

  test('a printer dropping the connection mid-job gives CONNECTION_LOST and a retry', async () => {
    printer.dropAfter(3);
    startWorker();
    queue.accept(makeJob('job_1', { content: 'x'.repeat(100_000) }));
    worker.wake();
    await worker.idle();
    assert.deepEqual(log.slice(1), [
      { kind: 'progress', stage: 'printing', attempt: 1, started: true },
      { kind: 'status', status: 'offline' },
      {
        kind: 'progress',
        stage: 'retry_scheduled',
        attempt: 2,
        started: true,
        errorCode: 'CONNECTION_LOST',
        nextAttemptAt: '2026-01-01T00:00:02.000Z',
      },
    ]);
    assert.equal(queue.get('job_1')?.state, 'queued');
  });

  test('a printer that runs out of paper during the job is not reported printed', async () => {
    printer.once('data', () => (printer.paperOut = true));
    startWorker();
    queue.accept(makeJob('job_1'));
    worker.wake();
    await worker.idle();
    assert.ok(printer.bytes().includes('job job_1'), 'the bytes went out');
    assert.deepEqual(log.slice(1), [
      { kind: 'progress', stage: 'printing', attempt: 1, started: true },
      { kind: 'status', status: 'paper_out' },
      {
        kind: 'progress',
        stage: 'retry_scheduled',
        attempt: 2,
        started: true,
        errorCode: 'PAPER_OUT',
        nextAttemptAt: '2026-01-01T00:00:02.000Z',
      },
    ]);
    assert.equal(queue.isPrinted('job_1'), false);
  });

  test('an async renderer that fails retryably sends the job back, then it prints', async () => {
    let calls = 0;
    startWorker('', { pollIntervalMs: 0 }, async () => {
      calls += 1;
      await Promise.resolve();
      if (calls === 1) throw new PrintwireError('DOWNLOAD_TIMEOUT', 'image server too slow');
      return Buffer.from('RENDERED');
    });
    queue.accept(makeJob('job_1'));
    worker.wake();
    await worker.idle();
    assert.deepEqual(log, [
      {
        kind: 'progress',
        stage: 'retry_scheduled',
        attempt: 2,
        started: false,
        errorCode: 'DOWNLOAD_TIMEOUT',
        nextAttemptAt: '2026-01-01T00:00:02.000Z',
      },
    ]);
    assert.equal(printer.connections, 0, 'nothing is sent before the job is rendered');
    const result = once(bus, 'result');
    clock.advance(2000);
    await result;
    assert.equal(printer.bytes().toString(), 'RENDERED');
  });

  test('a job the printer cannot print fails at once, not retried', async () => {
    startWorker();
    queue.accept(makeJob('job_1', { type: 'zpl' }));
    const result = once(bus, 'result');
    worker.wake();
    await result;
    assert.deepEqual(log.at(-1), {
      kind: 'result',
      outcome: 'failed',
      attempt: 1,
      errorCode: 'UNSUPPORTED_JOB',
      retryable: false,
    });
    assert.equal(printer.connections, 0);
  });

  test('a job past its expiry fails with EXPIRED without reaching the printer', async () => {
    startWorker();
    queue.accept(makeJob('job_1', { expiresAt: new Date(clock.now() - 1).toISOString() }));
    const result = once(bus, 'result');
    worker.wake();
    await result;
    assert.equal(log.at(-1)?.kind === 'result' && log.at(-1)?.['errorCode' as never], 'EXPIRED');
    assert.equal(printer.connections, 0);
  });

  test('an idle printer is polled, so paper out is seen without a job', async () => {
    startWorker('', { pollIntervalMs: 5000 });
    await worker.idle();
    assert.deepEqual(log, [{ kind: 'status', status: 'online' }]);
    assert.equal(printer.connections, 1);
    printer.paperOut = true;
    const changed = once(bus, 'status');
    clock.advance(5000);
    const [status] = await changed;
    assert.equal(status, 'paper_out');
    assert.equal(printer.connections, 2);
  });

  test('a job within keepOpenMs of the last one reuses its connection and its status', async () => {
    startWorker('', { pollIntervalMs: 0, keepOpenMs: 1000, statusMaxAgeMs: 1000 });
    for (const id of ['job_1', 'job_2']) {
      queue.accept(makeJob(id));
      const done = once(bus, 'result');
      worker.wake();
      await done;
    }
    assert.equal(printer.connections, 1, 'one connection for both jobs');
    assert.equal(printer.statusRequests, 6, 'status before job_1, after job_1, after job_2');
    assert.equal(printer.openConnections, 1);
    clock.advance(1000);
    await printer.waitForNoConnections();
    queue.accept(makeJob('job_3'));
    const done = once(bus, 'result');
    worker.wake();
    await done;
    assert.equal(printer.connections, 2, 'closed after keepOpenMs: a new connection');
    assert.equal(printer.statusRequests, 10, 'a status older than statusMaxAgeMs is read again');
    assert.equal(
      ['job_1', 'job_2', 'job_3'].filter((id) => queue.isPrinted(id)).length,
      3,
      'all three printed',
    );
  });

  test('a kept connection the printer closed is replaced, and the job prints at once', async () => {
    startWorker('', { pollIntervalMs: 0, keepOpenMs: 60_000 });
    queue.accept(makeJob('job_1'));
    let done = once(bus, 'result');
    worker.wake();
    await done;
    await printer.closeConnections();
    queue.accept(makeJob('job_2'));
    done = once(bus, 'result');
    worker.wake();
    await done;
    assert.deepEqual(
      log.filter((e) => e.kind === 'result'),
      [
        { kind: 'result', outcome: 'printed', attempt: 1 },
        { kind: 'result', outcome: 'printed', attempt: 1 },
      ],
    );
    assert.equal(printer.connections, 2);
    assert.ok(printer.bytes().includes('job job_2'));
  });

  test('a printer that does not answer status gets a connection per job, closed after it', async () => {
    printer.answersStatus = false;
    startWorker('', { pollIntervalMs: 0, keepOpenMs: 60_000 });
    for (const id of ['job_1', 'job_2']) {
      queue.accept(makeJob(id));
      const done = once(bus, 'result');
      worker.wake();
      await done;
    }
    assert.equal(printer.connections, 2);
    await printer.waitForNoConnections();
  });

  test('stop closes the connection kept open', async () => {
    startWorker('', { pollIntervalMs: 0, keepOpenMs: 60_000 });
    queue.accept(makeJob('job_1'));
    const done = once(bus, 'result');
    worker.wake();
    await done;
    assert.equal(printer.openConnections, 1);
    await worker.stop();
    await printer.waitForNoConnections();
  });

  test('a job withdrawn before it starts is dropped: the printer never receives a byte', async () => {
    printer.paperOut = true;
    startWorker();
    queue.accept(makeJob('job_1'));
    worker.wake();
    await worker.idle();
    assert.equal(queue.get('job_1')?.state, 'queued', 'held for its next attempt');
    const answer = queue.withdraw('job_1');
    assert.deepEqual([answer.withdrawn, answer.reason], [true, 'not_started']);
    assert.equal(queue.get('job_1'), null);
    printer.paperOut = false;
    clock.advance(60_000);
    await worker.idle();
    assert.equal(printer.byteCount, 0);
    assert.equal(
      log.filter((e) => e.kind === 'result').length,
      0,
      'no result for a job given back',
    );
  });

  test('a job withdrawn while the worker renders it never sends a byte', async () => {
    startWorker('', { pollIntervalMs: 0 }, async (job) => {
      // The withdraw arrives between the worker picking the job and its printing mark.
      assert.equal(queue.withdraw(job.id).withdrawn, true);
      await Promise.resolve();
      return Buffer.from('RENDERED');
    });
    queue.accept(makeJob('job_1'));
    worker.wake();
    await worker.idle();
    assert.equal(printer.byteCount, 0);
    assert.deepEqual(log, [{ kind: 'status', status: 'online' }]);
  });

  test('a job withdrawn after its first byte went out is not withdrawn and prints once', async () => {
    startWorker();
    queue.accept(makeJob('job_1'));
    let answer: ReturnType<JobQueue['withdraw']> | null = null;
    printer.once('data', () => (answer = queue.withdraw('job_1')));
    const result = once(bus, 'result');
    worker.wake();
    await result;
    assert.deepEqual([answer!.withdrawn, answer!.reason], [false, 'started']);
    assert.equal(printer.bytes().toString('latin1').split('job job_1').length - 1, 1);
    assert.deepEqual([queue.withdraw('job_1').reason], ['finished']);
  });

  test('a withdrawn job dispatched again with a higher attempt prints, a stale delivery does not', async () => {
    printer.paperOut = true;
    startWorker();
    queue.accept(makeJob('job_1'));
    worker.wake();
    await worker.idle();
    assert.equal(queue.withdraw('job_1').withdrawn, true);
    assert.equal(queue.withdraw('job_1').withdrawn, true, 'asked again: the same answer');
    assert.equal(queue.accept(makeJob('job_1')), 'withdrawn', 'the withdrawn attempt again');
    printer.paperOut = false;
    assert.equal(queue.accept(makeJob('job_1', { attempt: 2 })), 'stored');
    const result = once(bus, 'result');
    worker.wake();
    await result;
    assert.equal(printer.bytes().toString('latin1').split('job job_1').length - 1, 1);
    assert.equal(queue.accept(makeJob('job_1', { attempt: 3 })), 'finished', 'printed once only');
  });

  test('a job given back and dispatched again many times (delivery rising, attempt the same) prints once; a re-send of a given-back delivery does not', async () => {
    printer.paperOut = true;
    startWorker();
    const dispatch = (delivery: number) => makeJob('job_1', { maxAttempts: 2, delivery });
    // More dispatches than maxAttempts allows attempts: a move is not an attempt.
    for (let delivery = 1; delivery <= 6; delivery++) {
      assert.equal(queue.accept(dispatch(delivery)), 'stored', `delivery ${delivery}`);
      worker.wake();
      await worker.idle();
      const answer = queue.withdraw('job_1');
      assert.deepEqual([answer.withdrawn, answer.delivery], [true, delivery]);
      assert.equal(queue.withdraw('job_1').delivery, delivery, 'asked again: the same answer');
      assert.equal(queue.accept(dispatch(delivery)), 'withdrawn', 'a re-send of it');
      assert.equal(queue.accept(dispatch(1)), 'withdrawn', 'a re-send of an older one');
    }
    printer.paperOut = false;
    assert.equal(queue.accept(dispatch(7)), 'stored');
    const result = once(bus, 'result');
    worker.wake();
    await result;
    assert.equal(printer.bytes().toString('latin1').split('job job_1').length - 1, 1);
    assert.equal(queue.accept(dispatch(8)), 'finished', 'printed once only');
  });

  test('a job picked while the printer is known out of paper is told waiting, not started', async () => {
    printer.paperOut = true;
    startWorker('', { pollIntervalMs: 1000 });
    await once(bus, 'status');
    queue.accept(makeJob('job_1'));
    const progress = once(bus, 'progress');
    worker.wake();
    const [waiting] = (await progress) as [{ stage: string; started: boolean; errorCode: string }];
    assert.deepEqual(
      [waiting.stage, waiting.started, waiting.errorCode],
      ['waiting', false, 'PAPER_OUT'],
    );
    await worker.idle();
    assert.equal(printer.byteCount, 0);
  });

  test('the retry delay doubles from the base and stops at the cap', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7].map((a) => retryDelayMs(a, 2000, 60_000)),
      [2000, 4000, 8000, 16000, 32000, 60000, 60000],
    );
  });
});
