import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PrintwireError } from '@printwire/shared/errors/index';
import { cupsQueueForTests, type CupsTestQueue } from '../../../../test/cups.js';
import { parsePrinterUri } from '../../config/printer-uri.js';
import { CupsSpooler } from './cups-spooler.js';
import { systemTransportFactory, type SystemTransportOptions } from './system-transport.js';
import type { Spooler } from './spooler.js';

const QUEUE = `printwire_test_${process.pid}`;
const PDF = readFileSync(new URL('../../render/fixtures/rectangle.pdf', import.meta.url));

/** CupsSpooler that tells the test about every job it submits and every state it reads. */
class WatchedSpooler extends CupsSpooler {
  submitted: string[] = [];
  states: string[] = [];
  onSubmit: ((jobId: string) => void) | null = null;
  override async submit(...args: Parameters<Spooler['submit']>) {
    const id = await super.submit(...args);
    this.submitted.push(id);
    this.onSubmit?.(id);
    return id;
  }
  override async jobState(queue: string, jobId: string) {
    const state = await super.jobState(queue, jobId);
    this.states.push(state);
    return state;
  }
}

function jobNumber(jobId: string): number {
  return Number(jobId.split('-').pop());
}

async function rejectsWith(promise: Promise<unknown>, code: string, retryable: boolean) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof PrintwireError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.retryable, retryable);
    return true;
  });
}

describe('system spooler transport on CUPS', () => {
  let queue: CupsTestQueue | null = null;
  const spooler = new WatchedSpooler();
  const transportFor = (options: SystemTransportOptions = {}) =>
    systemTransportFactory(spooler)(parsePrinterUri(`system:${QUEUE}`).target, {
      pollIntervalMs: 50,
      ...options,
    });

  let skipReason = '';
  before(async () => {
    ({ queue, skipReason } = await cupsQueueForTests(QUEUE));
  });
  after(async () => {
    await queue?.remove();
  });

  test('raw bytes arrive byte-identical in the queue backend output', async (t) => {
    if (!queue) return t.skip(skipReason);
    const job = randomBytes(200_000);
    job[0] = 0x1b; // ESC/POS, not a document signature
    const transport = transportFor();
    await transport.open();
    await transport.write(job);
    await transport.close();
    const id = spooler.submitted.at(-1)!;
    assert.equal(Buffer.compare(await queue.output(jobNumber(id)), job), 0);
  });

  test('a PDF goes as a document and comes out as a PDF', async (t) => {
    if (!queue) return t.skip(skipReason);
    const transport = transportFor();
    await transport.open();
    await transport.write(PDF);
    const out = await queue.output(jobNumber(spooler.submitted.at(-1)!));
    assert.equal(out.subarray(0, 5).toString('latin1'), '%PDF-');
  });

  test('copies are asked of the spooler', async (t) => {
    if (!queue) return t.skip(skipReason);
    await transportFor({ copies: 3 }).write(PDF);
    const id = jobNumber(spooler.submitted.at(-1)!);
    await queue.output(id);
    assert.equal(await queue.copies(id), 3);
  });

  test('a job is reported printed only once CUPS reports it completed', async (t) => {
    if (!queue) return t.skip(skipReason);
    await queue.hold();
    const transport = transportFor();
    await transport.open();
    spooler.states = [];
    let printed = false;
    const writing = transport.write(Buffer.from('held job')).then(() => {
      printed = true;
    });
    // Wait until CUPS has handed the job to the backend, which holds it.
    while (!spooler.states.includes('processing')) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(printed, false);
    assert.deepEqual(
      await queue.jobs().then((j) => j.includes(jobNumber(spooler.submitted.at(-1)!))),
      false,
    );
    await queue.release();
    await writing;
    assert.equal(spooler.states.at(-1), 'completed');
    assert.equal((await queue.output(jobNumber(spooler.submitted.at(-1)!))).toString(), 'held job');
  });

  test('a job cancelled in the spooler fails, not retryable', async (t) => {
    if (!queue) return t.skip(skipReason);
    await queue.hold();
    const transport = transportFor();
    spooler.onSubmit = (id) => {
      spooler.onSubmit = null;
      void spooler.cancel(QUEUE, id);
    };
    try {
      await rejectsWith(transport.write(Buffer.from('cancel me')), 'PRINTER_ERROR', false);
    } finally {
      await queue.release();
    }
  });

  test('a stopped queue reads offline, a queue rejecting jobs reads error', async (t) => {
    if (!queue) return t.skip(skipReason);
    const transport = transportFor();
    assert.deepEqual(await transport.readStatus(), { status: 'online', detail: null });
    await queue.stop();
    try {
      const stopped = await transport.readStatus();
      assert.equal(stopped?.status, 'offline');
      assert.match(stopped?.detail ?? '', /stopped/);
    } finally {
      await queue.start();
    }
    const { execFileSync } = await import('node:child_process');
    execFileSync('cupsreject', [QUEUE]);
    try {
      assert.equal((await transport.readStatus())?.status, 'error');
    } finally {
      execFileSync('cupsaccept', [QUEUE]);
    }
  });

  test('a job waiting on a queue that stops is withdrawn and fails PRINTER_OFFLINE', async (t) => {
    if (!queue) return t.skip(skipReason);
    await queue.stop();
    try {
      const before = await queue.jobs();
      await rejectsWith(transportFor().write(Buffer.from('never')), 'PRINTER_OFFLINE', true);
      await queue.start();
      // Nothing comes out once the queue runs again: the job was cancelled.
      const id = jobNumber(spooler.submitted.at(-1)!);
      assert.equal(await spooler.jobState(QUEUE, spooler.submitted.at(-1)!), 'canceled');
      assert.deepEqual(await queue.jobs(), before);
      assert.ok(id > 0);
    } finally {
      await queue.start();
    }
  });

  test('a job that does not complete within the write timeout is cancelled: TIMEOUT', async (t) => {
    if (!queue) return t.skip(skipReason);
    await queue.hold();
    try {
      await rejectsWith(
        transportFor({ writeTimeoutMs: 300 }).write(Buffer.from('slow')),
        'TIMEOUT',
        true,
      );
      assert.equal(await spooler.jobState(QUEUE, spooler.submitted.at(-1)!), 'canceled');
    } finally {
      await queue.release();
    }
  });

  test('an unknown queue fails to open with PRINTER_NOT_FOUND', async (t) => {
    if (!queue) return t.skip(skipReason);
    const transport = systemTransportFactory(spooler)(
      parsePrinterUri('system:printwire_no_such_queue').target,
    );
    await rejectsWith(transport.open(), 'PRINTER_NOT_FOUND', false);
    assert.equal((await transport.readStatus())?.status, 'offline');
  });

  test('the queue is listed with its device', async (t) => {
    if (!queue) return t.skip(skipReason);
    const listed = (await spooler.listQueues()).find((q) => q.name === QUEUE);
    assert.equal(listed?.device, `printwire-file:${queue.dir}`);
  });
});
