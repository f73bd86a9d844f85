import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PrintwireError } from '@printwire/shared/errors/index';
import { FakePrinter } from '../../../../test/fake-printer.js';
import { parsePrinterUri } from '../../config/printer-uri.js';
import { createTcpTransport } from './tcp-transport.js';
import type { TransportOptions } from '../transport.js';

function transportFor(printer: FakePrinter, options: TransportOptions = {}) {
  return createTcpTransport(parsePrinterUri(printer.uri()).target, options);
}

async function rejectsWith(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof PrintwireError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.retryable, true);
    return true;
  });
}

describe('raw TCP transport', () => {
  let printer: FakePrinter;
  before(async () => {
    printer = await FakePrinter.start();
  });
  after(() => printer.stop());

  test('every byte of a 3 MB job arrives in order', async () => {
    printer.clear();
    const job = randomBytes(3 * 1024 * 1024).map((b) => (b === 0x10 ? 0x11 : b));
    const transport = transportFor(printer);
    await transport.open();
    await transport.write(job);
    await transport.close();
    const received = await printer.waitForBytes(job.length);
    assert.equal(Buffer.compare(received, Buffer.from(job)), 0);
  });

  test('the status of a ready printer reads online', async () => {
    const transport = transportFor(printer);
    await transport.open();
    assert.deepEqual(await transport.readStatus(), { status: 'online', detail: null });
    await transport.close();
  });

  test('paper out and cover open are told apart', async () => {
    const transport = transportFor(printer);
    await transport.open();
    printer.paperOut = true;
    assert.equal((await transport.readStatus())?.status, 'paper_out');
    printer.paperOut = false;
    printer.coverOpen = true;
    assert.equal((await transport.readStatus())?.status, 'cover_open');
    printer.coverOpen = false;
    assert.equal((await transport.readStatus())?.status, 'online');
    await transport.close();
  });

  test('a printer that does not answer status reads null after the status timeout', async () => {
    printer.answersStatus = false;
    const transport = transportFor(printer, { statusTimeoutMs: 50 });
    await transport.open();
    const started = performance.now();
    assert.equal(await transport.readStatus(), null);
    assert.ok(performance.now() - started >= 45);
    await transport.close();
    printer.answersStatus = true;
  });

  test('a label printer is never sent DLE EOT', async () => {
    const before = printer.statusRequests;
    const transport = transportFor(printer, { language: 'zpl' });
    await transport.open();
    assert.equal(await transport.readStatus(), null);
    await transport.close();
    assert.equal(printer.statusRequests, before);
  });

  test('a printer that drops the connection mid-job fails the write with CONNECTION_LOST', async () => {
    printer.clear();
    printer.dropAfter(1000);
    const transport = transportFor(printer);
    await transport.open();
    await rejectsWith(
      (async () => {
        await transport.write(Buffer.alloc(200_000, 0x41));
        // The kernel may take all bytes before the reset arrives; the status read sees it.
        await transport.readStatus();
      })(),
      'CONNECTION_LOST',
    );
    await transport.close();
    assert.equal(printer.byteCount, 1000);
  });

  test('a printer that stops taking data fails the write with TIMEOUT', async () => {
    const stuck = await FakePrinter.start();
    stuck.stall();
    const transport = transportFor(stuck, { writeTimeoutMs: 300 });
    await transport.open();
    // More than loopback's socket buffers can hold, so the write must wait for the printer.
    await rejectsWith(transport.write(Buffer.alloc(64 * 1024 * 1024, 0x41)), 'TIMEOUT');
    await transport.close();
    await stuck.stop();
  });

  test('a closed port fails with CONNECTION_REFUSED', async () => {
    const closed = await FakePrinter.start();
    await closed.refuseConnections();
    await rejectsWith(transportFor(closed).open(), 'CONNECTION_REFUSED');
  });

  test('a host name that does not resolve fails with PRINTER_OFFLINE', async () => {
    const target = parsePrinterUri('tcp://printer.invalid:9100').target;
    await rejectsWith(createTcpTransport(target).open(), 'PRINTER_OFFLINE');
  });
});
