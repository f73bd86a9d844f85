import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPrivateAddress } from '../download/private-network.js';
import type { QueuedJob } from '../queue/types.js';
import { AgentRenderer } from './agent-render.js';
import { findBrowser, HtmlRenderer } from './html.js';
import type { RenderTarget } from './render-job.js';

/**
 * What an HTML job's page can reach from the shop's computer, through the agent's render path
 * (AgentRenderer, the browser the agent finds): its pictures load as before, but nothing a
 * script opens (WebSocket, fetch, EventSource, beacon, XMLHttpRequest, WebRTC), no pop-up, frame
 * or navigation reaches a listener on the loopback or on a private address of this computer.
 */

const work = mkdtempSync(join(tmpdir(), 'pw-html-reach-'));
const OFFICE: RenderTarget = {
  language: 'escpos',
  paper: '80mm',
  codepage: null,
  cut: null,
  profileId: null,
  connection: 'system',
  kind: 'office',
};

function htmlJob(content: string): QueuedJob {
  return {
    id: `job-${Math.random().toString(36).slice(2)}`,
    agentPrinterId: 'office',
    type: 'html',
    encoding: 'utf8',
    content,
    options: {},
    attempt: 1,
    maxAttempts: 3,
    state: 'printing',
    nextAttemptAt: 0,
    expiresAt: null,
    errorCode: null,
    errorMessage: null,
    createdAt: new Date(0).toISOString(),
    receivedAt: 0,
  };
}

function pdfText(pdf: Uint8Array): string {
  const file = join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}

/** An address of this computer on the shop's network (private, unique-local), if it has one. */
function privateAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) {
      if (!info.internal && isPrivateAddress(info.address) && !info.address.startsWith('fe80:')) {
        return info.address;
      }
    }
  }
  return null;
}

/** A TCP listener that counts every connection made to it. */
async function listener(
  host: string,
): Promise<{ server: Server; hostPort: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((socket) => {
    seen.push(`connection from ${socket.remoteAddress}`);
    socket.on('error', () => undefined);
    socket.once('data', (d) => seen.push(d.toString('latin1').split('\r\n')[0]!));
    setTimeout(() => socket.end(), 200);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { server, hostPort: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`, seen };
}

describe('what an HTML job’s page reaches through the agent', () => {
  let renderer: AgentRenderer | null = null;
  let skip = '';
  before(() => {
    try {
      const html = new HtmlRenderer({ executablePath: findBrowser() });
      execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
      renderer = new AgentRenderer({ dataDir: work, production: false, html });
    } catch (error) {
      if (process.env.CI) throw error;
      skip = `needs Chromium and poppler-utils: ${(error as Error).message}`;
    }
  });
  after(async () => {
    await renderer?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('WebSocket, fetch, EventSource, beacon, XMLHttpRequest, WebRTC, pop-ups, frames and navigations reach neither the loopback nor a private address; the page’s pictures load and it prints', async (t) => {
    if (!renderer) return t.skip(skip);
    const targets = [await listener('127.0.0.1')];
    const shop = privateAddress();
    if (shop) targets.push(await listener(shop));
    else t.diagnostic('this computer has no private address: only the loopback is tried');

    // The page's own picture (http from the loopback: allowed outside production, as before) is
    // held until the page reports how its attempts ended, so the page prints only after them.
    const reports: string[] = [];
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pictures = createHttpServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/report.svg') {
        reports.push(url.searchParams.get('r') ?? '');
        release();
      }
      void held.then(() => {
        res.setHeader('content-type', 'image/svg+xml');
        res.end('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="10"/>');
      });
    });
    await new Promise<void>((resolve) => pictures.listen(0, '127.0.0.1', resolve));
    const picture = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;

    const attempts = targets
      .map(({ hostPort }) => [
        `settle('ws', new Promise((ok) => { const w = new WebSocket('ws://${hostPort}/ws'); w.onopen = () => ok('open'); w.onerror = () => ok('error'); }));`,
        `settle('fetch', fetch('http://${hostPort}/fetch').then(() => 'answered'));`,
        `settle('xhr', new Promise((ok) => { const x = new XMLHttpRequest(); x.open('GET', 'http://${hostPort}/xhr'); x.onload = () => ok('answered'); x.onerror = () => ok('error'); x.send(); }));`,
        `settle('eventsource', new Promise((ok) => { const e = new EventSource('http://${hostPort}/es'); e.onopen = () => ok('open'); e.onerror = () => ok('error'); }));`,
        `settle('beacon', Promise.resolve(navigator.sendBeacon('http://${hostPort}/beacon', 'x') ? 'queued' : 'refused'));`,
        `settle('rtc', Promise.resolve(typeof RTCPeerConnection === 'undefined' ? 'absent' : (new RTCPeerConnection({ iceServers: [{ urls: 'turn:${hostPort}?transport=tcp', username: 'u', credential: 'p' }] }).createDataChannel('d'), 'created')));`,
        `settle('popup', Promise.resolve(window.open('http://${hostPort}/popup') ? 'opened' : 'blocked'));`,
        `frame('http://${hostPort}/frame');`,
      ])
      .flat()
      .join('\n');
    const last = targets[targets.length - 1]!.hostPort;
    const html = `<!doctype html><p>Order 1042 ready</p>
      <img src="${picture}/logo.svg" id="logo">
      <script>
        const results = [];
        const settle = (name, attempt) => results.push(
          Promise.resolve(attempt).then((v) => name + '=' + v, (e) => name + '=' + e.name));
        const frame = (src) => { const f = document.createElement('iframe'); f.src = src; document.body.append(f); };
        ${attempts}
        Promise.all(results).then((r) => {
          new Image().src = '${picture}/report.svg?r=' + encodeURIComponent(r.join(' '));
          location.href = 'http://${last}/navigate';
        });
      </script>`;
    try {
      const pdf = await renderer.render(htmlJob(html), OFFICE);
      const text = pdfText(Buffer.from(pdf));
      assert.match(text, /Order 1042 ready/, 'the page printed, not an error page');
      assert.equal(reports.length, 1);
      for (const outcome of reports[0]!.split(' ')) {
        assert.match(
          outcome,
          /^(ws=error|fetch=TypeError|xhr=error|eventsource=error|beacon=(refused|queued)|rtc=absent|popup=blocked)$/,
        );
      }
      for (const { hostPort, seen } of targets) assert.deepEqual(seen, [], hostPort);
    } finally {
      for (const { server } of targets) server.close();
      pictures.close();
    }
  });

  test('a page that carries its content (inline styles and scripts, data: pictures) prints whole', async (t) => {
    if (!renderer) return t.skip(skip);
    const dot =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const html = `<!doctype html><style>@page { size: A6; margin: 5mm } p { font: 16px sans-serif }</style>
      <img id="dot" src="${dot}" width="20" height="20"><p id="out">waiting</p>
      <script>
        onload = () => { document.getElementById('out').textContent =
          'Table 7 picture ' + document.getElementById('dot').naturalWidth + ' px'; };
      </script>`;
    const text = pdfText(Buffer.from(await renderer.render(htmlJob(html), OFFICE)));
    assert.match(text, /Table 7 picture 1 px/);
  });
});
