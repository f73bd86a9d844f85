/**
 * Every job type end to end: created with POST /v1/jobs on a real cloud process, printed by a
 * real agent process on a fake network receipt printer, fake ZPL and EPL label printers, and a
 * real CUPS queue whose backend writes each job to a file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { cupsQueueForTests, type CupsTestQueue } from './cups.js';
import { FakePrinter } from './fake-printer.js';
import {
  AgentProcess,
  CloudProcess,
  freePort,
  tempDir,
  waitUntil,
  type Bootstrap,
  type JobView,
} from './e2e-support.js';

const run = promisify(execFile);
const QUEUE = 'printwire_e2e_types';

describe('every job type from the REST API to a printer', () => {
  let cloud: CloudProcess;
  let agent: AgentProcess;
  let org: Bootstrap;
  let deviceId: string;
  let receipt: FakePrinter;
  let zpl: FakePrinter;
  let epl: FakePrinter;
  let cups: CupsTestQueue | null = null;
  let cupsSkip = '';

  before(async () => {
    ({ queue: cups, skipReason: cupsSkip } = await cupsQueueForTests(QUEUE));
    [receipt, zpl, epl] = await Promise.all([
      FakePrinter.start(),
      FakePrinter.start(),
      FakePrinter.start(),
    ]);
    const env = CloudProcess.env(tempDir('pw-e2e-types-cloud-'), await freePort());
    org = await CloudProcess.bootstrap(env);
    cloud = await CloudProcess.start(env);
    const printers = [
      receipt.uri('name=Receipt&alias=receipt&paper=80mm'),
      zpl.uri('name=Shipping&alias=zpl&lang=zpl'),
      epl.uri('name=Prices&alias=epl&lang=epl'),
      ...(cups ? [`system:${QUEUE}?name=Office&alias=office`] : []),
    ];
    agent = AgentProcess.start([
      '--data-dir',
      tempDir('pw-e2e-types-agent-'),
      '--cloud',
      cloud.url,
      '--activation-code',
      org.activationCode,
      ...printers.flatMap((uri) => ['--printer', uri]),
    ]);
    const device = await waitUntil('the agent online', async () => {
      const list = (await cloud.call(org.liveKey, 'GET', '/v1/devices')).body.data as Array<{
        id: string;
        status: string;
      }>;
      return list.find((d) => d.status === 'online');
    }).catch((e: Error) => {
      throw new Error(`${e.message}\n${agent.logs()}\n${cloud.logs()}`);
    });
    deviceId = device.id;
  });

  after(async () => {
    await agent?.kill();
    await cloud?.stop();
    await Promise.all([receipt?.stop(), zpl?.stop(), epl?.stop()]);
    await cups?.remove();
  });

  /** Creates the job on the printer with that alias and waits until it is printed. */
  async function print(alias: string, body: Record<string, unknown>): Promise<JobView> {
    const res = await cloud.call(org.liveKey, 'POST', '/v1/jobs', { deviceId, alias, ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const id = (res.body as JobView).id;
    return waitUntil(
      `job ${id} finished`,
      async () => {
        const job = (await cloud.call(org.liveKey, 'GET', `/v1/jobs/${id}`)).body as JobView;
        return ['printed', 'failed'].includes(job.state) ? job : undefined;
      },
      { timeoutMs: 30_000 },
    );
  }

  function assertPrinted(job: JobView): void {
    assert.equal(job.state, 'printed', `${job.errorCode}: ${job.errorMessage}\n${agent.logs()}`);
  }

  test('text prints as ESC/POS text on the receipt printer', async () => {
    assertPrinted(
      await print('receipt', { type: 'text', encoding: 'utf8', data: 'PLAIN TEXT 42\n' }),
    );
    assert.ok(receipt.bytes().toString('latin1').includes('PLAIN TEXT 42'));
  });

  test('escpos bytes in base64 arrive exactly as sent', async () => {
    const bytes = Buffer.from('\x1b@\x1bE\x01RAW ESCPOS\x1bE\x00\n', 'latin1');
    assertPrinted(
      await print('receipt', {
        type: 'escpos',
        encoding: 'base64',
        data: bytes.toString('base64'),
      }),
    );
    assert.ok(receipt.bytes().includes(bytes));
  });

  test('raw bytes in base64 arrive exactly as sent, on a label printer too', async () => {
    const bytes = Buffer.from('^XA^FDRAW LABEL^FS^XZ', 'latin1');
    assertPrinted(
      await print('zpl', { type: 'raw', encoding: 'base64', data: bytes.toString('base64') }),
    );
    assert.ok(zpl.bytes().includes(bytes));
  });

  test('an image prints as a GS v 0 raster on the receipt printer', async () => {
    const png = new PNG({ width: 64, height: 32 });
    png.data.fill(0);
    for (let i = 3; i < png.data.length; i += 4) png.data[i] = 255;
    const before = receipt.bytes().length;
    assertPrinted(
      await print('receipt', {
        type: 'image',
        encoding: 'base64',
        data: PNG.sync.write(png).toString('base64'),
      }),
    );
    const sent = receipt.bytes().subarray(before);
    assert.ok(sent.includes(Buffer.from([0x1d, 0x76, 0x30])), 'a GS v 0 raster was sent');
  });

  test('ZPL prints on the ZPL printer with its copies as ^PQ', async () => {
    const label = '^XA^FO20,20^A0N,40,40^FDSHIP TO ZPL^FS^XZ';
    assertPrinted(
      await print('zpl', { type: 'zpl', encoding: 'utf8', data: label, options: { copies: 2 } }),
    );
    const sent = zpl.bytes().toString('latin1');
    assert.ok(sent.includes('^FDSHIP TO ZPL^FS'));
    assert.match(sent, /\^PQ2/);
  });

  test('EPL prints on the EPL printer with its copies in the P command', async () => {
    const label = 'N\nA50,50,0,3,1,1,N,"PRICE EPL"\nP1\n';
    assertPrinted(
      await print('epl', { type: 'epl', encoding: 'utf8', data: label, options: { copies: 3 } }),
    );
    const sent = epl.bytes().toString('latin1');
    assert.ok(sent.includes('"PRICE EPL"'));
    assert.match(sent, /\nP3\b/);
  });

  test('a PDF prints on the system printer as a PDF', async (t) => {
    if (!cups) return t.skip(cupsSkip);
    const pdf = readFileSync(
      new URL('../agent/src/render/fixtures/rectangle.pdf', import.meta.url),
    );
    const known = new Set(await cups.jobs());
    assertPrinted(
      await print('office', { type: 'pdf', encoding: 'base64', data: pdf.toString('base64') }),
    );
    const jobId = (await cups.jobs()).find((j) => !known.has(j));
    assert.ok(jobId !== undefined, 'CUPS printed a new job');
    const out = await cups.output(jobId);
    assert.equal(out.subarray(0, 5).toString('latin1'), '%PDF-');
  });

  test('an HTML page prints on the system printer as a PDF holding its text', async (t) => {
    if (!cups) return t.skip(cupsSkip);
    const html =
      '<!doctype html><html><head><style>@page { size: A5; margin: 10mm }</style></head>' +
      '<body><h1>Quarterly report E2E</h1></body></html>';
    const known = new Set(await cups.jobs());
    assertPrinted(await print('office', { type: 'html', encoding: 'utf8', data: html }));
    const jobId = (await cups.jobs()).find((j) => !known.has(j));
    assert.ok(jobId !== undefined, 'CUPS printed a new job');
    const file = join(tempDir('pw-e2e-types-pdf-'), 'out.pdf');
    writeFileSync(file, await cups.output(jobId));
    const { stdout } = await run('pdftotext', [file, '-']);
    assert.match(stdout, /Quarterly report E2E/);
  });
});
