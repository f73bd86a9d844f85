/**
 * Documents on label printers end to end: a carrier's PDF label, a PNG and an HTML page created
 * with POST /v1/jobs on a real cloud process, printed by a real agent process on fake ZPL and EPL
 * printers listening on real TCP sockets. What each printer received is decoded (`^GF`, `GW`)
 * and compared with the page poppler's pdftoppm draws, and zbar reads its barcodes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import QRCode from 'qrcode';
import { skipWithout } from '@printwire/shared/testing/escpos';
import {
  bitmapPng,
  differingBlocks,
  eplLabels,
  pdftoppmPage,
  zbarRead,
  zplLabels,
} from '@printwire/shared/testing/label-graphics';
import { findBrowser } from '@printwire/agent';
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

const SHIPPING = readFileSync(
  new URL('../agent/src/render/fixtures/shipping-label-4x6.pdf', import.meta.url),
);
const BARCODES = [
  'CODE-128:1Z999AA10123456784',
  'QR-Code:https://printwire.example/t/1Z999AA10123456784',
];

function browserMissing(): string | false {
  try {
    findBrowser();
    return false;
  } catch (error) {
    return process.env.CI ? false : (error as Error).message;
  }
}

describe('documents on label printers, from the REST API to the printer', () => {
  let cloud: CloudProcess;
  let agent: AgentProcess;
  let org: Bootstrap;
  let deviceId: string;
  let zpl: FakePrinter;
  let epl: FakePrinter;

  before(async () => {
    [zpl, epl] = await Promise.all([FakePrinter.start(), FakePrinter.start()]);
    const env = CloudProcess.env(tempDir('pw-e2e-labels-cloud-'), await freePort());
    org = await CloudProcess.bootstrap(env);
    cloud = await CloudProcess.start(env);
    agent = AgentProcess.start([
      '--data-dir',
      tempDir('pw-e2e-labels-agent-'),
      '--cloud',
      cloud.url,
      '--activation-code',
      org.activationCode,
      '--printer',
      zpl.uri('name=Shipping&alias=zpl&lang=zpl&paper=4x6in&dpi=203'),
      '--printer',
      epl.uri('name=Shelf&alias=epl&lang=epl&paper=2x1in'),
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
    await Promise.all([zpl?.stop(), epl?.stop()]);
  });

  /** Creates the job on the printer with that alias; resolves once it is printed. */
  async function print(alias: string, body: Record<string, unknown>): Promise<void> {
    const res = await cloud.call(org.liveKey, 'POST', '/v1/jobs', { deviceId, alias, ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const id = (res.body as JobView).id;
    const job = await waitUntil(
      `job ${id} finished`,
      async () => {
        const view = (await cloud.call(org.liveKey, 'GET', `/v1/jobs/${id}`)).body as JobView;
        return ['printed', 'failed'].includes(view.state) ? view : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.equal(job.state, 'printed', `${job.errorCode}: ${job.errorMessage}\n${agent.logs()}`);
  }

  test(
    'a carrier PDF arrives as a ^GF label that matches pdftoppm and whose barcodes read',
    { skip: skipWithout('zbarimg') || skipWithout('pdftoppm') },
    async () => {
      zpl.clear();
      await print('zpl', {
        type: 'pdf',
        encoding: 'base64',
        data: SHIPPING.toString('base64'),
        options: { copies: 2 },
      });
      const labels = zplLabels(zpl.bytes());
      assert.equal(labels.length, 1, 'one label for one page');
      const [label] = labels;
      assert.deepEqual([label!.width, label!.height, label!.copies], [812, 1218, 2]);
      const reference = pdftoppmPage(SHIPPING, 203);
      assert.ok(reference, 'pdftoppm drew the page');
      assert.deepEqual([reference.width, reference.height], [812, 1218]);
      // 4 × 4 dot squares whose darkness differs from poppler's page (a dithered grey keeps its
      // darkness); the same label moved by 3 dots differs in about 5 %.
      const share = differingBlocks(label!.bitmap, reference);
      assert.ok(share < 0.005, `${(share * 100).toFixed(2)} % of the label differs from pdftoppm`);
      assert.deepEqual(zbarRead(bitmapPng(label!.bitmap, 812)), BARCODES);
    },
  );

  test(
    'a PNG on an EPL printer is a GW label of its size, with the job copies',
    { skip: skipWithout('zbarimg') },
    async () => {
      epl.clear();
      const png = await QRCode.toBuffer('SHELF-0042', { margin: 2, scale: 6 });
      await print('epl', {
        type: 'image',
        encoding: 'base64',
        data: png.toString('base64'),
        options: { copies: 3 },
      });
      const [label, more] = eplLabels(epl.bytes());
      assert.equal(more, undefined);
      assert.deepEqual([label!.width, label!.height, label!.copies], [406, 203, 3]);
      assert.deepEqual(zbarRead(bitmapPng(label!.bitmap, 406)), ['QR-Code:SHELF-0042']);
    },
  );

  test(
    'an HTML page is laid out by the browser on the label and printed as ^GF',
    { skip: skipWithout('zbarimg') || browserMissing() },
    async () => {
      zpl.clear();
      const qr = await QRCode.toDataURL('ORDER-1042', { margin: 1, scale: 8 });
      const html =
        '<style>@page{size:4in 6in;margin:0}body{margin:0;font:bold 40px sans-serif}</style>' +
        `<p>Order 1042</p><img src="${qr}" style="width:2in">` +
        '<p style="break-before:page">Page two</p>';
      await print('zpl', { type: 'html', encoding: 'utf8', data: html });
      const labels = zplLabels(zpl.bytes());
      assert.equal(labels.length, 2, 'two pages, two labels');
      assert.deepEqual(zbarRead(bitmapPng(labels[0]!.bitmap, 812)), ['QR-Code:ORDER-1042']);
    },
  );
});
