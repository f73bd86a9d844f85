import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PrintwireError } from '@printwire/shared/errors/index';
import { browserCandidates, findBrowser, HtmlRenderer, removeOrphanProfiles } from './html.js';

const work = mkdtempSync(join(tmpdir(), 'pw-html-'));

/** What poppler-utils says about a PDF: its first page size in points and its text. */
function inspect(pdf: Buffer): { width: number; height: number; pages: number; text: string } {
  const file = join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
  const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  return { width: Number(size?.[1]), height: Number(size?.[2]), pages, text };
}

/** Process ids whose command line mentions `text` (Linux, /proc). */
function processesWith(text: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1').includes(text)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function noBrowser(e: unknown): boolean {
  assert.ok(e instanceof PrintwireError, String(e));
  assert.equal(e.code, 'NO_BROWSER');
  assert.equal(e.retryable, false);
  return true;
}

describe('finding the browser', () => {
  test('PRINTWIRE_BROWSER wins over the usual places', () => {
    const path = findBrowser({
      env: { PRINTWIRE_BROWSER: '/opt/edge/msedge' },
      platform: 'linux',
      exists: (p) => p === '/opt/edge/msedge' || p === '/usr/bin/chromium',
    });
    assert.equal(path, '/opt/edge/msedge');
  });

  test('Chrome is preferred to Chromium, and Edge is found on Windows', () => {
    const installed = new Set(['/usr/bin/chromium', '/usr/bin/google-chrome-stable']);
    assert.equal(
      findBrowser({ env: {}, platform: 'linux', exists: (p) => installed.has(p) }),
      '/usr/bin/google-chrome-stable',
    );
    const edge = browserCandidates('win32', { 'PROGRAMFILES(X86)': 'C:\\PF86' }).find((p) =>
      p.endsWith('msedge.exe'),
    );
    assert.ok(edge?.startsWith('C:\\PF86'));
    assert.equal(
      findBrowser({
        env: { 'PROGRAMFILES(X86)': 'C:\\PF86' },
        platform: 'win32',
        exists: (p) => p === edge,
      }),
      edge,
    );
  });

  test('no browser anywhere fails with NO_BROWSER naming the fix', () => {
    assert.throws(
      () => findBrowser({ env: {}, platform: 'darwin', exists: () => false }),
      (e) => {
        noBrowser(e);
        assert.match((e as Error).message, /PRINTWIRE_BROWSER/);
        return true;
      },
    );
    assert.throws(
      () => findBrowser({ env: { PRINTWIRE_BROWSER: '/nope/chrome' }, exists: () => false }),
      noBrowser,
    );
  });

  test('an HTML job on a computer without a browser fails with NO_BROWSER', async () => {
    const saved = process.env.PRINTWIRE_BROWSER;
    process.env.PRINTWIRE_BROWSER = join(work, 'no-such-browser');
    try {
      await assert.rejects(new HtmlRenderer().renderToPdf('<p>hi</p>'), noBrowser);
    } finally {
      if (saved === undefined) delete process.env.PRINTWIRE_BROWSER;
      else process.env.PRINTWIRE_BROWSER = saved;
    }
  });
});

describe('HTML to PDF with the installed Chromium', () => {
  let renderer: HtmlRenderer | null = null;
  let skipReason = '';

  before(() => {
    try {
      renderer = new HtmlRenderer({ executablePath: findBrowser() });
      execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
    } catch (error) {
      if (process.env.CI) throw error;
      renderer = null;
      skipReason = `needs Chromium and poppler-utils: ${(error as Error).message}`;
    }
  });
  after(async () => {
    await renderer?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('@page size A5 and its margins make an A5 PDF with the page text', async (t) => {
    if (!renderer) return t.skip(skipReason);
    const pdf = await renderer.renderToPdf(`<!doctype html><html><head><style>
      @page { size: A5; margin: 10mm }
      body { font: 14px sans-serif; margin: 0 }
    </style></head><body><h1>Order 1042</h1><p>Two flat whites, one croissant.</p></body></html>`);
    const { width, height, pages, text } = inspect(pdf);
    // A5 is 148 × 210 mm: 419.53 × 595.28 pt.
    assert.ok(Math.abs(width - 419.53) < 1, `width ${width}`);
    assert.ok(Math.abs(height - 595.28) < 1, `height ${height}`);
    assert.equal(pages, 1);
    assert.match(text, /Order 1042/);
    assert.match(text, /Two flat whites, one croissant\./);
  });

  test('an 80 mm receipt page size is honoured, and a page without @page is A4', async (t) => {
    if (!renderer) return t.skip(skipReason);
    const receipt = inspect(
      await renderer.renderToPdf(
        '<style>@page { size: 80mm 120mm; margin: 0 }</style><p>Thanks</p>',
      ),
    );
    assert.ok(Math.abs(receipt.width - 226.77) < 1, `width ${receipt.width}`);
    assert.ok(Math.abs(receipt.height - 340.16) < 1, `height ${receipt.height}`);
    const plain = inspect(await renderer.renderToPdf('<p>No page rule</p>'));
    assert.ok(Math.abs(plain.width - 595.28) < 1 && Math.abs(plain.height - 841.89) < 1);
  });

  test('http images load outside production and are refused in production', async (t) => {
    if (!renderer) return t.skip(skipReason);
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.url!);
      res.setHeader('content-type', 'image/svg+xml');
      res.end('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await renderer.renderToPdf(`<img src="http://127.0.0.1:${port}/dev.svg">`);
      await renderer.renderToPdf(`<img src="http://127.0.0.1:${port}/prod.svg">`, {
        production: true,
      });
    } finally {
      server.close();
    }
    assert.deepEqual(requests, ['/dev.svg']);
  });
  test('an agent killed with SIGKILL leaves no browser running; the next launch deletes its profile', async (t) => {
    if (!renderer) return t.skip(skipReason);
    if (process.platform !== 'linux') return t.skip('reads /proc to find the browser');
    const dir = mkdtempSync(join(tmpdir(), 'pw-html-kill-'));
    // A process that renders one page with the agent's renderer, says so, and waits to be killed.
    const script = join(dir, 'render.mts');
    writeFileSync(
      script,
      `import { HtmlRenderer } from ${JSON.stringify(new URL('./html.ts', import.meta.url).pathname)};
      await new HtmlRenderer().renderToPdf('<p>hello</p>');
      console.log('rendered');
      setInterval(() => undefined, 1000);`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: new URL('../../..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    assert.equal(line, 'rendered');
    const profile = readdirSync(tmpdir()).find((n) =>
      n.startsWith(`printwire-browser-${child.pid}-`),
    );
    assert.ok(profile, 'the browser profile carries the agent’s process id');
    const browsers = () => processesWith(join(tmpdir(), profile));
    assert.ok(browsers().length > 0, 'the browser runs while the agent does');

    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    // The browser notices its DevTools pipe closed and quits; give it a few seconds at most.
    const deadline = Date.now() + 10_000;
    while (browsers().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(browsers(), [], 'no browser process is left behind');

    assert.ok(existsSync(join(tmpdir(), profile)), 'a killed agent cannot delete its profile');
    assert.ok((await removeOrphanProfiles()) >= 1);
    assert.ok(!existsSync(join(tmpdir(), profile)), 'the next launch deletes it');
    rmSync(dir, { recursive: true, force: true });
  });

  test('a profile that cannot be deleted yet (its browser still quitting) is left for later, not an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'printwire-orphans-'));
    try {
      // Process ids far above any pid_max are never alive.
      for (const name of ['printwire-browser-999999991-a', 'printwire-browser-999999992-b']) {
        mkdirSync(join(dir, name));
      }
      const busy = join(dir, 'printwire-browser-999999991-a');
      const removed = await removeOrphanProfiles(dir, async (path) => {
        if (path === busy) {
          throw Object.assign(
            new Error(`ENOTEMPTY: directory not empty, rmdir '${path}/Default'`),
            {
              code: 'ENOTEMPTY',
            },
          );
        }
        rmSync(path, { recursive: true });
      });
      assert.equal(removed, 1);
      assert.ok(existsSync(busy), 'left for the next launch');
      assert.equal(await removeOrphanProfiles(dir), 1, 'the next launch deletes it');
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
