import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { SerialPort } from 'serialport';
import type { DispatchedJob } from '@printwire/shared/protocol/index';
import { encodeReceipt } from '@printwire/shared/receipt/index';
import { cupsQueueForTests, type CupsTestQueue } from '../../test/cups.js';
import { FakeCloud } from '../../test/fake-cloud.js';
import { FakePrinter } from '../../test/fake-printer.js';
import { Agent, defaultRegistry } from './agent.js';
import { silentLogger } from './logs/logger.js';
import { renderImageForThermal } from './render/image.js';
import { renderPdfForThermal } from './render/pdf.js';
import { PtyPair } from './transports/serial/pty-pair.js';
import { createSystemTransport } from './transports/system/system-transport.js';
import type { TransportOptions } from './transports/transport.js';
import {
  printerClassInterface,
  RecordingUsbBackend,
  RecordingUsbDevice,
} from './transports/usb/recording-usb-device.js';
import { usbTransportFactory } from './transports/usb/usb-transport.js';

const PDF = readFileSync(new URL('./render/fixtures/rectangle.pdf', import.meta.url));

let seq = 0;
function makeJob(agentPrinterId: string, extra: Partial<DispatchedJob>): DispatchedJob {
  seq += 1;
  return {
    id: `job_w${seq}`,
    attempt: 1,
    maxAttempts: 2,
    agentPrinterId,
    type: 'text',
    encoding: 'utf8',
    content: `job ${seq}`,
    options: {},
    expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

/** The printer's end of a serial line: records bytes and answers DLE EOT as online. */
class SerialPrinterEnd {
  readonly received: Buffer[] = [];
  constructor(readonly port: SerialPort) {
    port.on('data', (chunk: Buffer) => {
      this.received.push(chunk);
      for (let i = 0; i + 2 < chunk.length; i++) {
        if (chunk[i] === 0x10 && chunk[i + 1] === 0x04) port.write([0x12]);
      }
    });
  }
  get bytes(): Buffer {
    return Buffer.concat(this.received);
  }
}

function openPort(path: string): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    const port = new SerialPort({ path, baudRate: 115200, autoOpen: false });
    port.open((error) => (error ? reject(error) : resolve(port)));
  });
}

describe('the agent drives every transport and job type', () => {
  let cloud: FakeCloud;
  let receipt: FakePrinter;
  let zebra: FakePrinter;
  let eltron: FakePrinter;
  let pair: PtyPair;
  let serialEnd: SerialPrinterEnd;
  let usbDevice: RecordingUsbDevice;
  let cups: CupsTestQueue | null = null;
  let cupsSkip = '';
  let pdftotext = true;
  let images: Server;
  let imagesUrl = '';
  let png: Buffer;
  let imageRequests = 0;
  let dataDir: string;
  let agent: Agent;
  const systemOptions: TransportOptions[] = [];
  const ids: Record<'receipt' | 'zebra' | 'eltron' | 'serial' | 'usb' | 'office', string> = {
    receipt: '',
    zebra: '',
    eltron: '',
    serial: '',
    usb: '',
    office: '',
  };

  async function print(job: DispatchedJob) {
    const result = cloud.waitFor('job.result', (m) => m.jobId === job.id, { timeoutMs: 30_000 });
    cloud.dispatch(job);
    return result;
  }

  before(async () => {
    png = await sharp({
      create: { width: 120, height: 40, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .png()
      .toBuffer();
    images = createServer((req, res) => {
      imageRequests += 1;
      if (req.url === '/logo.png') {
        res.setHeader('content-type', 'image/png');
        res.end(png);
      } else if (req.url === '/label.zpl') {
        res.end('^XA^FDby url^FS^XZ');
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    images.listen(0, '127.0.0.1');
    await once(images, 'listening');
    imagesUrl = `http://127.0.0.1:${(images.address() as { port: number }).port}`;

    cloud = await FakeCloud.start();
    cloud.activationCodes.set('code_w', { deviceId: 'dev_w', deviceToken: 'pwd_token_w' });
    [receipt, zebra, eltron] = await Promise.all([
      FakePrinter.start(),
      FakePrinter.start(),
      FakePrinter.start(),
    ]);
    pair = await PtyPair.start();
    serialEnd = new SerialPrinterEnd(await openPort(pair.printerPath));
    usbDevice = new RecordingUsbDevice({
      vendorId: 0x04b8,
      productId: 0x0202,
      interfaces: [printerClassInterface()],
      serial: 'TM001',
      product: 'TM-T20III',
      manufacturer: 'EPSON',
      answersStatus: true,
    });
    ({ queue: cups, skipReason: cupsSkip } = await cupsQueueForTests('printwire_wiring'));
    try {
      execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    } catch {
      pdftotext = false;
    }

    dataDir = mkdtempSync(join(tmpdir(), 'pw-wiring-'));
    const printers = [
      receipt.uri('name=Counter'),
      zebra.uri('lang=zpl'),
      eltron.uri('lang=epl'),
      `serial:${pair.agentPath}?baud=115200&flow=none&name=Serial`,
      'usb://04b8:0202/TM001?name=USB',
      ...(cups ? [`system:${cups.name}?name=Office`] : []),
    ];
    agent = await Agent.open({
      dataDir,
      cloudUrl: cloud.url,
      activationCode: 'code_w',
      printers,
      logger: silentLogger(),
      registry: defaultRegistry()
        .register('usb', usbTransportFactory(new RecordingUsbBackend([usbDevice])))
        .register('system', (target, options) => {
          systemOptions.push(options);
          return createSystemTransport(target, options);
        }),
      runner: {
        pollIntervalMs: 0,
        retryBaseMs: 50,
        transport: { statusTimeoutMs: 300, writeTimeoutMs: 15_000 },
      },
    });
    const byName = new Map(agent.printers.map((p) => [p.spec.name, p.agentPrinterId]));
    ids.receipt = byName.get('Counter')!;
    ids.zebra = agent.printers[1]!.agentPrinterId;
    ids.eltron = agent.printers[2]!.agentPrinterId;
    ids.serial = byName.get('Serial')!;
    ids.usb = byName.get('USB')!;
    ids.office = byName.get('Office') ?? '';
    const welcome = cloud.waitFor('hello');
    agent.start();
    await welcome;
  });

  after(async () => {
    await agent?.stop();
    await cloud?.stop();
    await Promise.all([receipt?.stop(), zebra?.stop(), eltron?.stop()]);
    if (serialEnd?.port.isOpen) await new Promise((r) => serialEnd.port.close(r));
    await pair?.stop();
    await cups?.remove();
    images?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('hello reports every printer with its connection, kind and capabilities', async () => {
    const hello = await cloud.waitFor('hello', () => true, { past: true });
    const info = new Map(hello.printers.map((p) => [p.agentPrinterId, p]));
    assert.deepEqual(
      [ids.receipt, ids.zebra, ids.serial, ids.usb].map((id) => [
        info.get(id)!.connection,
        info.get(id)!.kind,
      ]),
      [
        ['tcp', 'receipt'],
        ['tcp', 'label'],
        ['serial', 'receipt'],
        ['usb', 'receipt'],
      ],
    );
    assert.ok(info.get(ids.receipt)!.capabilities.includes('pdf'));
    assert.deepEqual(info.get(ids.zebra)!.capabilities, ['zpl', 'raw']);
    if (cups) {
      assert.equal(info.get(ids.office)!.kind, 'office');
      assert.ok(!info.get(ids.office)!.capabilities.includes('receipt'));
    }
  });

  test('a receipt with an image URL prints the downloaded image through the receipt engine', async () => {
    const document = {
      blocks: [
        { type: 'text', value: 'Logo below' },
        { type: 'image', src: `${imagesUrl}/logo.png` },
      ],
    };
    receipt.clear();
    const before = imageRequests;
    const result = await print(
      makeJob(ids.receipt, { type: 'receipt', encoding: 'json', content: document }),
    );
    assert.equal(result.outcome, 'printed', result.errorMessage);
    assert.equal(imageRequests, before + 1);
    const expected = encodeReceipt(document, 'generic-80mm', {
      paper: '80mm',
      resolveImage: (url) => (url.endsWith('/logo.png') ? png : undefined),
    });
    const withoutImage = encodeReceipt(document, 'generic-80mm', { paper: '80mm' });
    assert.notDeepEqual(Buffer.from(expected), Buffer.from(withoutImage));
    const printed = await receipt.waitForBytes(expected.length);
    assert.ok(printed.includes(Buffer.from(expected)), 'the printer got the engine output');
  });

  test('pdf and image jobs reach a receipt printer as raster at its paper width', async () => {
    receipt.clear();
    const pdfResult = await print(
      makeJob(ids.receipt, { type: 'pdf', encoding: 'base64', content: PDF.toString('base64') }),
    );
    assert.equal(pdfResult.outcome, 'printed', pdfResult.errorMessage);
    const pdfBytes = await renderPdfForThermal(PDF, { paper: '80mm', cut: 'full' });
    assert.ok((await receipt.waitForBytes(pdfBytes.length)).includes(Buffer.from(pdfBytes)));

    receipt.clear();
    const imageResult = await print(
      makeJob(ids.receipt, { type: 'image', encoding: 'url', content: `${imagesUrl}/logo.png` }),
    );
    assert.equal(imageResult.outcome, 'printed', imageResult.errorMessage);
    const imageBytes = await renderImageForThermal(png, { paper: '80mm', cut: 'full' });
    assert.ok((await receipt.waitForBytes(imageBytes.length)).includes(Buffer.from(imageBytes)));
  });

  test('a job whose URL cannot be downloaded fails with the download error code', async () => {
    const result = await print(
      makeJob(ids.receipt, { type: 'image', encoding: 'url', content: `${imagesUrl}/missing.png` }),
    );
    assert.deepEqual(
      [result.outcome, result.errorCode, result.retryable],
      ['failed', 'DOWNLOAD_FAILED', false],
    );
  });

  test('a receipt whose image cannot be downloaded fails with the download error code', async () => {
    receipt.clear();
    const result = await print(
      makeJob(ids.receipt, {
        type: 'receipt',
        encoding: 'json',
        content: { blocks: [{ type: 'image', src: `${imagesUrl}/gone.png` }] },
      }),
    );
    assert.deepEqual(
      [result.outcome, result.errorCode, result.retryable],
      ['failed', 'DOWNLOAD_FAILED', false],
    );
    assert.match(result.errorMessage ?? '', /gone\.png/);
    assert.equal(receipt.byteCount, 0);
  });

  test('ZPL copies are counted by the label printer, also for content by URL', async () => {
    zebra.clear();
    const result = await print(
      makeJob(ids.zebra, {
        type: 'zpl',
        encoding: 'url',
        content: `${imagesUrl}/label.zpl`,
        options: { copies: 3 },
      }),
    );
    assert.equal(result.outcome, 'printed', result.errorMessage);
    const expected = '^XA^FDby url^FS^PQ3^XZ';
    assert.equal((await zebra.waitForBytes(expected.length)).toString('latin1'), expected);
  });

  test('EPL copies multiply the print command', async () => {
    eltron.clear();
    const result = await print(
      makeJob(ids.eltron, {
        type: 'epl',
        content: 'N\nA10,10,0,3,1,1,N,"Hi"\nP1\n',
        options: { copies: 2 },
      }),
    );
    assert.equal(result.outcome, 'printed', result.errorMessage);
    assert.match((await eltron.waitForBytes(20)).toString('latin1'), /\nP2\n$/);
  });

  test('a serial printer over a pty gets its job and is asked for its status', async () => {
    const result = await print(makeJob(ids.serial, { content: 'over the serial line' }));
    assert.equal(result.outcome, 'printed', result.errorMessage);
    const bytes = serialEnd.bytes;
    assert.ok(bytes.includes(Buffer.from('over the serial line\n')));
    assert.ok(bytes.includes(Buffer.from([0x10, 0x04, 0x01])), 'DLE EOT 1 was sent');
    const status = await cloud.waitFor('printer.status', (m) => m.agentPrinterId === ids.serial, {
      past: true,
    });
    assert.equal(status.status, 'online');
  });

  test('a USB printer gets its job through the transport in the registry', async () => {
    const result = await print(makeJob(ids.usb, { content: 'over usb', options: { copies: 2 } }));
    assert.equal(result.outcome, 'printed', result.errorMessage);
    const sent = Buffer.concat(usbDevice.transfers).toString('latin1');
    assert.equal(sent.split('over usb\n').length - 1, 2);
    const status = await cloud.waitFor('printer.status', (m) => m.agentPrinterId === ids.usb, {
      past: true,
    });
    assert.equal(status.status, 'online');
  });

  test('a system queue prints a PDF job as a PDF with the copies asked, waiting for the spooler as long as it takes', async (t) => {
    if (!cups) return t.skip(cupsSkip);
    const before = new Set(await cups.jobs());
    systemOptions.length = 0;
    const result = await print(
      makeJob(ids.office, {
        type: 'pdf',
        encoding: 'base64',
        content: PDF.toString('base64'),
        options: { copies: 2 },
      }),
    );
    assert.equal(result.outcome, 'printed', result.errorMessage);
    const jobId = (await cups.jobs()).find((id) => !before.has(id))!;
    const out = await cups.output(jobId);
    assert.equal(out.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(await cups.copies(jobId), 2);
    // The raw printers' 15 s write timeout is not the spooler's (it waits up to 10 minutes).
    assert.ok(systemOptions.length > 0);
    for (const options of systemOptions) {
      assert.equal(options.writeTimeoutMs, undefined);
      assert.equal(options.statusTimeoutMs, 300);
    }
    assert.ok(systemOptions.some((o) => (o as { copies?: number }).copies === 2));
  });

  test('a system queue prints an HTML job as a PDF with the page text', async (t) => {
    if (!cups) return t.skip(cupsSkip);
    if (!pdftotext) return t.skip('needs poppler-utils (pdftotext)');
    const before = new Set(await cups.jobs());
    const result = await print(
      makeJob(ids.office, {
        type: 'html',
        content: '<!doctype html><p>Invoice 4711 from the wiring test</p>',
      }),
    );
    if (result.errorCode === 'NO_BROWSER' && !process.env.CI) return t.skip(result.errorMessage);
    assert.equal(result.outcome, 'printed', result.errorMessage);
    const jobId = (await cups.jobs()).find((id) => !before.has(id))!;
    const file = join(dataDir, 'html-out.pdf');
    writeFileSync(file, await cups.output(jobId));
    assert.match(execFileSync('pdftotext', [file, '-']).toString(), /Invoice 4711/);
  });

  test('an office queue refuses a receipt job for good, naming why', async (t) => {
    if (!cups) return t.skip(cupsSkip);
    const result = await print(makeJob(ids.office, { content: 'not for a laser' }));
    assert.deepEqual(
      [result.outcome, result.errorCode, result.retryable],
      ['failed', 'UNSUPPORTED_JOB', false],
    );
    assert.match(result.errorMessage ?? '', /office printer/);
  });

  test('a printer that stops answering status goes offline, and its job prints once it is back', async () => {
    receipt.answersStatus = false;
    const offline = cloud.waitFor(
      'printer.status',
      (m) => m.agentPrinterId === ids.receipt && m.status === 'offline',
    );
    const retry = cloud.waitFor('job.progress', (m) => m.stage === 'retry_scheduled');
    // Retries 50 ms, 100 ms, 200 ms… apart: enough attempts for the test to bring it back.
    const job = makeJob(ids.receipt, {
      content: 'after the outage',
      options: { cut: 'none' },
      maxAttempts: 8,
    });
    const result = cloud.waitFor('job.result', (m) => m.jobId === job.id, { timeoutMs: 30_000 });
    receipt.clear();
    cloud.dispatch(job);
    assert.equal((await retry).errorCode, 'PRINTER_OFFLINE');
    await offline;
    assert.equal(receipt.bytes().includes(Buffer.from('after the outage')), false);
    const online = cloud.waitFor(
      'printer.status',
      (m) => m.agentPrinterId === ids.receipt && m.status === 'online',
    );
    receipt.answersStatus = true;
    assert.equal((await result).outcome, 'printed');
    await online;
    assert.ok(receipt.bytes().includes(Buffer.from('after the outage')));
  });

  test('a stopped CUPS queue is reported offline and its job waits for it', async (t) => {
    if (!cups) return t.skip(cupsSkip);
    await cups.stop();
    const offline = cloud.waitFor(
      'printer.status',
      (m) => m.agentPrinterId === ids.office && m.status === 'offline',
    );
    const job = makeJob(ids.office, {
      type: 'pdf',
      encoding: 'base64',
      content: PDF.toString('base64'),
      maxAttempts: 8,
    });
    const retry = cloud.waitFor(
      'job.progress',
      (m) => m.jobId === job.id && m.stage === 'retry_scheduled',
    );
    const result = cloud.waitFor('job.result', (m) => m.jobId === job.id, { timeoutMs: 30_000 });
    cloud.dispatch(job);
    await offline;
    assert.equal((await retry).errorCode, 'PRINTER_OFFLINE');
    await cups.start();
    assert.equal((await result).outcome, 'printed');
  });

  test('per-printer defaults from the cloud apply to media jobs too (58 mm paper)', async () => {
    cloud.send({
      type: 'config',
      config: {
        printers: [{ agentPrinterId: ids.receipt, printerId: null, defaults: { paper: '58mm' } }],
      },
    });
    // Messages are handled in order: once the cancel is answered, the config was applied.
    cloud.send({ type: 'job.cancel', jobId: 'job_unknown' });
    await cloud.waitFor('job.cancelled');
    receipt.clear();
    const result = await print(
      makeJob(ids.receipt, { type: 'image', encoding: 'base64', content: png.toString('base64') }),
    );
    assert.equal(result.outcome, 'printed', result.errorMessage);
    const narrow = await renderImageForThermal(png, { paper: '58mm', cut: 'full' });
    assert.ok((await receipt.waitForBytes(narrow.length)).includes(Buffer.from(narrow)));
  });
});
