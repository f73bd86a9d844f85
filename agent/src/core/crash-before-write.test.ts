import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakePrinter } from '../../../test/fake-printer.js';
import { JobQueue } from '../queue/job-queue.js';

const here = (path: string) => JSON.stringify(new URL(path, import.meta.url).pathname);

/**
 * A process that prints one job through a real worker and TCP transport, and is killed by
 * SIGKILL when the worker calls the transport's write: after the printing mark was made
 * durable, before the first byte left.
 */
const CHILD = (dbPath: string, uri: string) => `
  import { JobQueue } from ${here('../queue/job-queue.ts')};
  import { PrinterWorker } from ${here('./printer-worker.ts')};
  import { systemClock } from ${here('./clock.ts')};
  import { TransportRegistry } from ${here('../transports/registry.ts')};
  import { createTcpTransport } from ${here('../transports/tcp/tcp-transport.ts')};
  import { parsePrinterUri } from ${here('../config/printer-uri.ts')};
  import { silentLogger } from ${here('../logs/logger.ts')};
  const queue = new JobQueue(${JSON.stringify(dbPath)});
  queue.accept({ id: 'job_1', attempt: 1, maxAttempts: 3, agentPrinterId: 'prn_1', type: 'text',
    encoding: 'utf8', content: 'KILLED BEFORE WRITE', options: { cut: 'none' }, expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z' });
  await queue.flush();
  const registry = new TransportRegistry().register('tcp', (target, options) => {
    const transport = createTcpTransport(target, options);
    return { ...transport, open: () => transport.open(), readStatus: () => transport.readStatus(),
      close: () => transport.close(), write: () => process.kill(process.pid, 'SIGKILL') };
  });
  const spec = parsePrinterUri(${JSON.stringify(uri)});
  new PrinterWorker({ agentPrinterId: 'prn_1', spec }, {
    queue, registry, clock: systemClock, logger: silentLogger(),
    events: { onStatus() {}, onProgress() {}, onResult() {} },
    target: () => ({ language: 'escpos', paper: '80mm', codepage: null, cut: null, profileId: null }),
  }, { pollIntervalMs: 0, transport: { statusTimeoutMs: 200 } }).start();
`;

test('a job whose printing mark was made before a SIGKILL is reported started after the restart', async () => {
  const printer = await FakePrinter.start();
  try {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'pw-crash-write-')), 'queue.db');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', CHILD(dbPath, printer.uri())],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
    assert.equal(signal, 'SIGKILL', stderr);
    assert.equal(printer.byteCount, 0, 'killed before the first byte');

    const queue = new JobQueue(dbPath);
    try {
      assert.equal(queue.isStarted('job_1'), true);
      const answer = queue.withdraw('job_1');
      assert.deepEqual([answer.withdrawn, answer.reason], [false, 'started']);
      const [interrupted] = queue.recoverInterrupted();
      assert.equal(interrupted?.errorCode, 'INTERRUPTED', 'never printed again');
      assert.deepEqual([queue.withdraw('job_1').reason], ['started']);
    } finally {
      queue.close();
    }
  } finally {
    await printer.stop();
  }
});
