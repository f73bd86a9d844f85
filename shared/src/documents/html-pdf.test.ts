import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { PrintwireError } from '../errors/index.js';
import { HtmlPdfRenderer } from './html-pdf.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `needs Chromium at ${CHROMIUM}`;

const renderFailed = (pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof PrintwireError, String(e));
  assert.equal(e.code, 'RENDER_FAILED');
  assert.match(e.message, pattern);
  return true;
};

describe('HTML to PDF with one shared browser', { skip }, () => {
  // Limits of 3 s for each step (6 s in all): Chromium 156 under a CI run's load took more than
  // 1.5 s to render the next page after the spinning one was killed.
  const agent = new HtmlPdfRenderer({ executablePath: CHROMIUM, renderTimeoutMs: 3000 });
  const offline = new HtmlPdfRenderer({
    executablePath: CHROMIUM,
    offline: true,
    // Chromium 156 on a busy 2-core machine takes 2-4 s to lay out the million-pixel page below.
    totalTimeoutMs: 10_000,
  });
  after(async () => {
    await agent.close();
    await offline.close();
  });

  test('a page that spins after it loaded fails within the whole render’s limit; the next renders', async () => {
    const started = Date.now();
    await assert.rejects(
      agent.renderToPdf('<p>x</p><script>onload = () => setTimeout(() => { for (;;); })</script>'),
      // The PDF step’s own limit speaks first here; the whole render’s is the backstop.
      renderFailed(/timed out|did not finish/i),
    );
    assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
    const pdf = await agent.renderToPdf('<p>next</p>');
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  });

  test('maxPages stops the browser there, however long the page', async () => {
    const pdf = await offline.renderToPdf('<div style="height: 1000000px"></div>', {
      pageMm: { width: 50, height: 25 },
      maxPages: 3,
    });
    assert.equal(pdf.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length, 3);
  });

  test('a WebSocket (which request interception never sees) reaches nothing, offline or not', async () => {
    const seen: string[] = [];
    const server = createServer((socket) => {
      seen.push('connection');
      socket.on('error', () => undefined);
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // The agent's page may load http pictures from 127.0.0.1 (outside production), not this.
    const html = `<p id="state">opening</p><script>
      const ws = new WebSocket('ws://127.0.0.1:${port}/');
      ws.onerror = ws.onopen = (e) => { document.getElementById('state').textContent = e.type };
    </script>`;
    try {
      await offline.renderToPdf(html);
      await agent.renderToPdf(html);
      assert.deepEqual(seen, [], 'nothing reached the listener');
    } finally {
      server.close();
    }
  });
});
