import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SerialPort } from 'serialport';
import { PrintwireError } from '@printwire/shared/errors/index';
import { parsePrinterUri } from '../../config/printer-uri.js';
import { PtyPair } from './pty-pair.js';
import { createSerialTransport } from './serial-transport.js';
import type { TransportOptions } from '../transport.js';

/** The printer's end of the line: records bytes and answers DLE EOT like an Epson printer. */
class SerialPrinterEnd {
  received: Buffer[] = [];
  answersStatus = true;
  paperOut = false;
  statusRequests = 0;
  #waiters: Array<() => void> = [];

  constructor(readonly port: SerialPort) {
    port.on('data', (chunk: Buffer) => {
      this.received.push(chunk);
      for (let i = 0; i + 2 < chunk.length + 1; i++) {
        if (chunk[i] === 0x10 && chunk[i + 1] === 0x04 && chunk[i + 2] !== undefined) {
          this.statusRequests++;
          if (this.answersStatus) port.write([this.#answer(chunk[i + 2]!)]);
        }
      }
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  #answer(n: number): number {
    if (n === 4 && this.paperOut) return 0x12 | 0x60;
    if (n === 2 && this.paperOut) return 0x12 | 0x20;
    return 0x12;
  }

  get bytes(): Buffer {
    return Buffer.concat(this.received);
  }

  async waitForBytes(n: number): Promise<Buffer> {
    while (this.bytes.length < n) await new Promise<void>((r) => this.#waiters.push(r));
    return this.bytes;
  }
}

function openPort(path: string): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    const port = new SerialPort({ path, baudRate: 115200, autoOpen: false });
    port.open((error) => (error ? reject(error) : resolve(port)));
  });
}

async function rejectsWith(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof PrintwireError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.retryable, true);
    return true;
  });
}

describe('serial transport over a socat pty pair', () => {
  let pair: PtyPair;
  let printer: SerialPrinterEnd;
  const transportFor = (options: TransportOptions = {}) =>
    createSerialTransport(parsePrinterUri(`serial:${pair.agentPath}?baud=115200`).target, options);

  before(async () => {
    pair = await PtyPair.start();
    printer = new SerialPrinterEnd(await openPort(pair.printerPath));
  });
  after(async () => {
    if (printer.port.isOpen) await new Promise((r) => printer.port.close(r));
    await pair.stop();
  });

  test('every byte of a 256 KB job arrives at the other end in order', async () => {
    printer.received = [];
    const job = randomBytes(256 * 1024).map((b) => (b === 0x10 ? 0x11 : b));
    const transport = transportFor();
    await transport.open();
    await transport.write(job);
    await transport.close();
    assert.equal(Buffer.compare(await printer.waitForBytes(job.length), Buffer.from(job)), 0);
  });

  test('the status answered at the other end reads online, then paper out', async () => {
    const transport = transportFor();
    await transport.open();
    assert.deepEqual(await transport.readStatus(), { status: 'online', detail: null });
    printer.paperOut = true;
    assert.deepEqual(await transport.readStatus(), { status: 'paper_out', detail: 'paper out' });
    printer.paperOut = false;
    await transport.close();
  });

  test('a printer that does not answer status reads null after the status timeout', async () => {
    printer.answersStatus = false;
    const transport = transportFor({ statusTimeoutMs: 60 });
    await transport.open();
    const started = performance.now();
    assert.equal(await transport.readStatus(), null);
    assert.ok(performance.now() - started >= 55);
    await transport.close();
    printer.answersStatus = true;
  });

  test('a label printer is never sent DLE EOT', async () => {
    const before = printer.statusRequests;
    const transport = transportFor({ language: 'zpl' });
    await transport.open();
    assert.equal(await transport.readStatus(), null);
    await transport.write(Buffer.from('^XA^FDhi^FS^XZ'));
    await transport.close();
    await printer.waitForBytes(1);
    assert.equal(printer.statusRequests, before);
  });

  test('a port another program holds fails with CONNECTION_REFUSED after the connect timeout', async () => {
    const holder = transportFor();
    await holder.open();
    try {
      const started = performance.now();
      await rejectsWith(transportFor({ connectTimeoutMs: 300 }).open(), 'CONNECTION_REFUSED');
      assert.ok(performance.now() - started >= 200);
    } finally {
      await holder.close();
    }
  });

  test('a port released while waiting to open is opened', async () => {
    const holder = transportFor();
    await holder.open();
    setTimeout(() => void holder.close(), 150);
    const next = transportFor({ connectTimeoutMs: 2000 });
    await next.open();
    await next.close();
  });

  test('a port that does not exist fails to open with PRINTER_OFFLINE', async () => {
    const target = parsePrinterUri('serial:/dev/printwire-no-such-port').target;
    await rejectsWith(createSerialTransport(target).open(), 'PRINTER_OFFLINE');
  });
});

describe('a serial port that vanishes mid-job', () => {
  test('fails the write with a retryable CONNECTION_LOST', async () => {
    const pair = await PtyPair.start();
    // The printer end stops reading, so the job backs up in the terminals' buffers.
    const end = await openPort(pair.printerPath);
    end.pause();
    const transport = createSerialTransport(parsePrinterUri(`serial:${pair.agentPath}`).target, {
      writeTimeoutMs: 5000,
    });
    await transport.open();
    const writing = transport.write(Buffer.alloc(4 * 1024 * 1024, 0x41));
    // Unplug once the job is under way.
    setTimeout(() => void pair.stop(), 100);
    await rejectsWith(writing, 'CONNECTION_LOST');
    await transport.close();
    end.close(() => undefined);
  });
});
