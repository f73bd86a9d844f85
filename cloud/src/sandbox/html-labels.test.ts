import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import bwipjs from 'bwip-js';
import QRCode from 'qrcode';
import { readWithTesseract, skipWithout } from '@printwire/shared/testing/escpos';
import { zbarRead } from '@printwire/shared/testing/label-graphics';
import { startHarness, type Harness } from '../testing/harness.js';
import type { BootstrapResult } from '../services/bootstrap.js';

const CHROMIUM = '/usr/bin/chromium';
const noChromium = existsSync(CHROMIUM) ? false : `needs Chromium at ${CHROMIUM}`;

const size = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** A TCP listener that counts every connection made to it (none may be). */
async function listener(): Promise<{ server: Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((socket: Socket) => {
    seen.push(`connection from ${socket.remoteAddress}`);
    socket.on('data', (d) => seen.push(d.toString('latin1').split('\r\n')[0]!));
    socket.on('error', () => undefined);
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

describe('HTML label previews, laid out by the sandbox’s Chromium', { skip: noChromium }, () => {
  let h: Harness;
  let org: BootstrapResult;
  let labelPrinterId: string;
  before(async () => {
    h = await startHarness({
      sandboxBrowser: CHROMIUM,
      // Short, so that a page that never finishes fails within the test's time.
      // Chromium 156 under a CI run's load needs more than 4 s for a 4 × 6 in page at times.
      limits: { sandboxHtmlTimeoutMs: 8000 },
    });
    org = await h.org('starter');
    const printers = (await h.call('GET', '/v1/printers', { key: org.testKey })).body.data;
    labelPrinterId = printers.find((p: { alias: string }) => p.alias === 'label').id;
  });
  after(() => h.close());

  async function htmlJob(html: string, options?: Record<string, unknown>): Promise<string> {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: {
        printerId: labelPrinterId,
        type: 'html',
        encoding: 'utf8',
        data: html,
        ...(options ? { options } : {}),
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.hasPreview, true);
    return res.body.id as string;
  }
  const preview = (id: string, query = '') =>
    h.call('GET', `/v1/jobs/${id}/preview${query}`, { key: org.testKey });

  test(
    'a 4 × 6 in shipping label in HTML previews as the ^GF the printer gets: its text and barcodes read back',
    { skip: skipWithout('zbarimg') || skipWithout('tesseract') },
    async () => {
      const code128 = await bwipjs.toBuffer({
        bcid: 'code128',
        text: 'PW0042',
        scale: 3,
        height: 18,
      });
      const qr = await QRCode.toBuffer('https://printwire.example/t/PW0042', {
        margin: 2,
        scale: 6,
      });
      const id = await htmlJob(`<!doctype html><html><head><style>
        body { margin: 0; padding: 0.3in; font: bold 32px sans-serif }
        p { margin: 0 0 0.15in }
        img { display: block; margin: 0.3in 0 0; image-rendering: pixelated }
      </style></head><body>
        <p>SHIP TO ACME</p>
        <p>ORDER 1042</p>
        <img src="${dataUrl(code128)}" style="width: 3in">
        <img src="${dataUrl(qr)}" style="width: 1.5in">
      </body></html>`);
      const res = await preview(id);
      assert.equal(res.status, 200, res.raw.toString());
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.equal(res.headers.get('printwire-label-count'), '1');
      assert.equal(res.headers.get('printwire-skipped-commands'), '');
      // The sandbox label printer's label: 4 × 6 in at 203 dpi.
      assert.deepEqual(size(res.raw), { width: 812, height: 1218 });
      assert.deepEqual(zbarRead(res.raw), [
        'CODE-128:PW0042',
        'QR-Code:https://printwire.example/t/PW0042',
      ]);
      const text = await readWithTesseract(res.raw);
      assert.match(text, /SHIP TO ACME/);
      assert.match(text, /ORDER 1042/);
      // Asked again: the same picture, kept with the job.
      assert.ok((await preview(id)).raw.equals(res.raw));
    },
  );

  test('each page is a label, each printed copies times; ?label=N picks one; past the last is a 400', async () => {
    const page = (n: number, last = false) =>
      `<div style="${last ? '' : 'break-after: page;'}font: bold 200px sans-serif">${n}</div>`;
    const id = await htmlJob(`<body style="margin:0">${page(1)}${page(2)}${page(3, true)}</body>`, {
      copies: 2,
    });
    const first = await preview(id);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('printwire-label-count'), '6');
    const copy = await preview(id, '?label=1');
    assert.ok(copy.raw.equals(first.raw), 'the first page’s second copy');
    const second = await preview(id, '?label=2');
    const third = await preview(id, '?label=4');
    assert.equal(third.status, 200);
    assert.ok(!second.raw.equals(first.raw) && !third.raw.equals(second.raw));
    const past = await preview(id, '?label=6');
    assert.equal(past.status, 400);
    assert.equal(past.body.error.details[0].path, 'label');
  });

  test('the page’s own @page size wins, as on the agent (scaled to fit the label)', async () => {
    const id = await htmlJob(
      '<style>@page { size: 2in 1in; margin: 0 } body { margin: 0 }</style><div style="width:2in;height:1in;background:black"></div>',
    );
    const res = await preview(id);
    assert.equal(res.status, 200);
    assert.deepEqual(size(res.raw), { width: 812, height: 1218 });
  });

  test('a page that reaches for the network, the loopback or the metadata address gets nothing: the listener is never contacted', async () => {
    const { server, port, seen } = await listener();
    const local = `http://127.0.0.1:${port}`;
    try {
      const id = await htmlJob(`<!doctype html><html><head>
        <link rel="stylesheet" href="${local}/style.css">
        <link rel="prefetch" href="${local}/prefetch">
        <link rel="preconnect" href="${local}">
        <style>
          @import url(${local}/import.css);
          @font-face { font-family: far; src: url(${local}/font.woff) }
          body { background: url(${local}/background.png); font-family: far }
        </style>
        <meta http-equiv="refresh" content="0; url=${local}/refresh">
      </head><body>
        <img src="${local}/image.png">
        <img src="http://169.254.169.254/latest/meta-data/">
        <img src="http://localhost:${port}/by-name.png">
        <img src="file:///etc/passwd">
        <iframe src="${local}/frame"></iframe>
        <object data="${local}/object"></object>
        <form id="f" action="${local}/form" method="post"><input name="a" value="b"></form>
        <p style="font: 40px sans-serif">STILL DRAWN</p>
        <script>
          const go = (f) => { try { f(); } catch {} };
          go(() => fetch('${local}/fetch').catch(() => {}));
          go(() => fetch('http://169.254.169.254/latest/meta-data/').catch(() => {}));
          go(() => { const x = new XMLHttpRequest(); x.open('GET', '${local}/xhr'); x.send(); });
          go(() => new WebSocket('ws://127.0.0.1:${port}/socket'));
          go(() => new EventSource('${local}/events'));
          go(() => navigator.sendBeacon('${local}/beacon', 'x'));
          go(() => new Worker('${local}/worker.js'));
          go(() => {
            const pc = new RTCPeerConnection({ iceServers: [
              { urls: 'turn:127.0.0.1:${port}?transport=tcp', username: 'u', credential: 'c' },
              { urls: 'stun:127.0.0.1:${port}' },
            ] });
            pc.createDataChannel('x');
            pc.createOffer().then((o) => pc.setLocalDescription(o));
          });
          go(() => document.getElementById('f').submit());
          setTimeout(() => { location.href = '${local}/navigate'; }, 0);
        </script>
      </body></html>`);
      const res = await preview(id);
      assert.equal(res.status, 200, res.raw.toString());
      assert.deepEqual(size(res.raw), { width: 812, height: 1218 });
      // Whatever the page started in the background has had time to try: a second page is laid
      // out meanwhile in the same browser.
      assert.equal((await preview(await htmlJob('<p>after</p>'))).status, 200);
      assert.deepEqual(seen, [], 'nothing reached the listener');
      // The listener does count connections: one made from here is seen.
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'close');
      assert.equal(seen.length, 1);
    } finally {
      server.close();
    }
  });

  test('a page that never finishes fails with RENDER_FAILED within the time limit; the next one previews', async () => {
    const id = await htmlJob('<p>x</p><script>while (true) {}</script>');
    const started = Date.now();
    const res = await preview(id);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'RENDER_FAILED');
    assert.match(res.body.error.message, /did not finish within 8 s/);
    assert.ok(Date.now() - started < 20_000, `answered after ${Date.now() - started} ms`);
    // Asked again, the failure is answered at once rather than running the page again.
    const again = Date.now();
    assert.equal((await preview(id)).body.error.code, 'RENDER_FAILED');
    assert.ok(Date.now() - again < 1000);
    const next = await preview(await htmlJob('<p style="font:60px sans-serif">NEXT</p>'));
    assert.equal(next.status, 200);
  });

  test('a page that hoards memory crashes only its renderer: RENDER_FAILED, and the browser goes on', async () => {
    const id = await htmlJob(
      '<script>const a = []; for (;;) a.push(new Array(1e6).fill(Math.random()));</script>',
    );
    const res = await preview(id);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'RENDER_FAILED');
    assert.equal((await preview(await htmlJob('<p>fine</p>'))).status, 200);
  });

  test('a page 260 m long is cut off at 51 labels and refused like a PDF of too many pages', async () => {
    // 1,000,000 px (1,736 labels of 6 in): Chromium 156 lays a page ten times longer out in
    // about 8 s on a 2-core machine, at this harness's limit (a refusal too, but not this one).
    const id = await htmlJob('<div style="height: 1000000px; border-left: 8px solid black"></div>');
    const res = await preview(id);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'INVALID_JOB');
    assert.match(res.body.error.message, /more than 50 labels; at most 50 are printed/);
  });
});

describe('HTML label previews without a browser', () => {
  let h: Harness;
  let org: BootstrapResult;
  before(async () => {
    h = await startHarness({ sandboxBrowser: null });
    org = await h.org('starter');
  });
  after(() => h.close());

  test('the job has no preview, and the 404 says why and what to do', async () => {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: { printer: 'label', type: 'html', encoding: 'utf8', data: '<p>Hello</p>' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.hasPreview, false);
    const preview = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, { key: org.testKey });
    assert.equal(preview.status, 404);
    assert.equal(preview.body.error.code, 'NOT_FOUND');
    assert.match(
      preview.body.error.message,
      /laid out by a browser, and this cloud’s sandbox has none.*send the page as a PDF/,
    );
  });
});
