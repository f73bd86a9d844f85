import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentMessageOf } from '@printwire/shared/protocol/index';
import { parsePrinterUri } from '../../config/printer-uri.js';
import { FakeClock } from '../../core/clock.js';
import { PrinterWorker } from '../../core/printer-worker.js';
import { silentLogger } from '../../logs/logger.js';
import { JobQueue } from '../../queue/job-queue.js';
import { TransportRegistry } from '../registry.js';
import {
  printerClassInterface,
  RecordingUsbBackend,
  RecordingUsbDevice,
} from './recording-usb-device.js';
import { usbTransportFactory } from './usb-transport.js';

describe('a USB printer unplugged mid-job, through the printer worker', () => {
  test('the job is retried when the printer is back, and reported printed only then', async () => {
    const device = new RecordingUsbDevice({
      vendorId: 0x04b8,
      productId: 0x0202,
      interfaces: [printerClassInterface()],
      answersStatus: true,
      unplugAfterBytes: 40_000,
    });
    const clock = new FakeClock();
    const queue = new JobQueue(join(mkdtempSync(join(tmpdir(), 'pw-usb-')), 'q.db'), { clock });
    const bus = new EventEmitter();
    const spec = parsePrinterUri('usb://04b8:0202');
    const worker = new PrinterWorker(
      { agentPrinterId: 'prn_usb', spec },
      {
        queue,
        registry: new TransportRegistry().register(
          'usb',
          usbTransportFactory(new RecordingUsbBackend([device])),
        ),
        clock,
        logger: silentLogger(),
        events: {
          onStatus: () => undefined,
          onProgress: (m) => bus.emit('progress', m),
          onResult: (m) => bus.emit('result', m),
        },
        target: () => ({
          language: 'escpos',
          paper: '80mm',
          codepage: null,
          cut: null,
          profileId: null,
        }),
      },
      { pollIntervalMs: 0, retryBaseMs: 2000, transport: { statusTimeoutMs: 100 } },
    );
    const job = Buffer.alloc(100_000, 0x41);
    try {
      worker.start();
      queue.accept({
        id: 'job_usb',
        attempt: 1,
        maxAttempts: 3,
        agentPrinterId: 'prn_usb',
        type: 'raw',
        encoding: 'base64',
        content: job.toString('base64'),
        options: {},
        expiresAt: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      const retry = new Promise<AgentMessageOf<'job.progress'>>((resolve) =>
        bus.on('progress', (m: AgentMessageOf<'job.progress'>) => {
          if (m.stage === 'retry_scheduled') resolve(m);
        }),
      );
      worker.wake();
      const scheduled = await retry;
      assert.equal(scheduled.errorCode, 'CONNECTION_LOST');
      assert.equal(queue.isPrinted('job_usb'), false);
      assert.equal(device.received.length, 40_000);

      device.replug();
      const printed = once(bus, 'result');
      clock.advance(2000);
      const [result] = (await printed) as [AgentMessageOf<'job.result'>];
      assert.equal(result.outcome, 'printed');
      assert.equal(result.attempt, 2);
      assert.equal(queue.isPrinted('job_usb'), true);
      // The second attempt sent the whole job after the 40 000 bytes of the first.
      const second = device.received.subarray(40_000).filter((b) => b === 0x41);
      assert.equal(second.length, job.length);
    } finally {
      await worker.stop();
      queue.close();
    }
  });
});
