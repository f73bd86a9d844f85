import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrintwireError } from '@printwire/shared/errors/index';
import { DOWNLOAD_DEFAULTS, Downloader, type DownloaderOptions } from './downloader.js';
import { isPrivateAddress } from './private-network.js';

const MAX = DOWNLOAD_DEFAULTS.maxBytes;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const routes: Record<string, Handler> = {
  '/exact': (_req, res) => res.end(Buffer.alloc(MAX, 1)),
  '/one-over': (_req, res) => res.end(Buffer.alloc(MAX + 1, 1)),
  '/understated-length': (_req, res) => {
    res.setHeader('content-length', '10');
    res.flushHeaders();
    // Past node's own length check: more bytes than announced, straight on the socket.
    res.socket!.write(Buffer.alloc(MAX + 1, 1));
  },
  '/overstated-length': (_req, res) => {
    res.setHeader('content-length', String(MAX + 1));
    res.flushHeaders();
    res.socket!.write('tiny');
  },
  '/no-length': (_req, res) => {
    res.setHeader('transfer-encoding', 'chunked');
    for (let i = 0; i <= MAX; i += 64 * 1024)
      res.write(Buffer.alloc(Math.min(64 * 1024, MAX + 1 - i), 1));
    res.end();
  },
  '/stall': (_req, res) => {
    res.setHeader('content-type', 'image/png');
    res.write('half');
  },
  '/missing': (_req, res) => {
    res.statusCode = 404;
    res.end('nope');
  },
  '/broken': (_req, res) => {
    res.statusCode = 503;
    res.end();
  },
  '/redirect-ftp': (_req, res) => {
    res.statusCode = 302;
    res.setHeader('location', 'ftp://example.invalid/x');
    res.end();
  },
  '/redirect': (_req, res) => {
    res.statusCode = 302;
    res.setHeader('location', '/logo.png');
    res.end();
  },
  '/logo.png': (_req, res) => {
    res.setHeader('content-type', 'image/png; charset=binary');
    res.end('PNGDATA');
  },
};

function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port)),
  );
}

/** An IPv4 address of this machine outside the shop's network (none on a machine with only private ones). */
const publicAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal && !isPrivateAddress(a.address))?.address;

async function rejectsWith(promise: Promise<unknown>, code: string, retryable: boolean) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof PrintwireError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.retryable, retryable);
    return true;
  });
}

describe('URL downloads', () => {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url!);
    (routes[req.url!] ?? routes['/missing']!)(req, res);
  });
  let base = '';
  const dirs: string[] = [];
  const downloader = (options: Partial<DownloaderOptions> = {}) =>
    new Downloader({ cacheDir: null, production: false, ...options });

  before(async () => {
    base = `http://127.0.0.1:${await listen(server)}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('a file of exactly 2 MB is downloaded whole', async () => {
    const file = await downloader().download(`${base}/exact`);
    assert.equal(file.bytes.length, MAX);
  });

  test('2 MB and one byte fails with DOWNLOAD_TOO_LARGE, not retryable', async () => {
    await rejectsWith(downloader().download(`${base}/one-over`), 'DOWNLOAD_TOO_LARGE', false);
  });

  test('a body longer than its Content-Length says is refused as malformed (DOWNLOAD_FAILED)', async () => {
    await rejectsWith(downloader().download(`${base}/understated-length`), 'DOWNLOAD_FAILED', true);
  });

  test('a Content-Length over 2 MB fails at once, whatever the body', async () => {
    const started = performance.now();
    await rejectsWith(
      downloader({ timeoutMs: 2000 }).download(`${base}/overstated-length`),
      'DOWNLOAD_TOO_LARGE',
      false,
    );
    assert.ok(performance.now() - started < 1000);
  });

  test('a body without Content-Length is cut at 2 MB with DOWNLOAD_TOO_LARGE', async () => {
    await rejectsWith(downloader().download(`${base}/no-length`), 'DOWNLOAD_TOO_LARGE', false);
  });

  test('a smaller limit option is enforced at its edge', async () => {
    await rejectsWith(
      downloader({ maxBytes: 6 }).download(`${base}/logo.png`),
      'DOWNLOAD_TOO_LARGE',
      false,
    );
    assert.equal((await downloader({ maxBytes: 7 }).download(`${base}/logo.png`)).bytes.length, 7);
  });

  test('a server that stalls past the timeout fails with DOWNLOAD_TIMEOUT, retryable', async () => {
    const started = performance.now();
    await rejectsWith(
      downloader({ timeoutMs: 150 }).download(`${base}/stall`),
      'DOWNLOAD_TIMEOUT',
      true,
    );
    assert.ok(performance.now() - started < 2000);
  });

  test('the default timeout is 5 seconds', () => {
    assert.equal(DOWNLOAD_DEFAULTS.timeoutMs, 5000);
  });

  test('a 404 fails with DOWNLOAD_FAILED, not retryable; a 503 is retryable', async () => {
    await rejectsWith(downloader().download(`${base}/missing`), 'DOWNLOAD_FAILED', false);
    await rejectsWith(downloader().download(`${base}/broken`), 'DOWNLOAD_FAILED', true);
  });

  test('a refused connection fails with DOWNLOAD_FAILED, retryable', async () => {
    const closed = createServer();
    const port = await listen(closed);
    closed.close();
    await rejectsWith(downloader().download(`http://127.0.0.1:${port}/x`), 'DOWNLOAD_FAILED', true);
  });

  test('http is refused in production before any request is made', async () => {
    const before = hits.length;
    await rejectsWith(
      downloader({ production: true }).download(`${base}/logo.png`),
      'DOWNLOAD_FAILED',
      false,
    );
    assert.equal(hits.length, before);
  });

  test('other schemes are refused', async () => {
    for (const url of ['ftp://example.com/a.pdf', 'file:///etc/passwd', 'data:,hi', 'not a url']) {
      await rejectsWith(downloader().download(url), 'DOWNLOAD_FAILED', false);
    }
  });

  test('redirects are followed and their target is checked like the first URL', async () => {
    const file = await downloader().download(`${base}/redirect`);
    assert.equal(file.bytes.toString(), 'PNGDATA');
    assert.equal(file.contentType, 'image/png');
    await rejectsWith(downloader().download(`${base}/redirect-ftp`), 'DOWNLOAD_FAILED', false);
  });

  test('the cache serves a second request within 24 hours and refetches after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-dl-'));
    dirs.push(dir);
    let now = Date.UTC(2026, 0, 1);
    const d = downloader({ cacheDir: dir, now: () => now });
    const count = () => hits.filter((h) => h === '/logo.png').length;
    const before = count();
    assert.equal((await d.download(`${base}/logo.png`)).bytes.toString(), 'PNGDATA');
    now += DOWNLOAD_DEFAULTS.cacheTtlMs - 1;
    const cached = await d.download(`${base}/logo.png`);
    assert.equal(cached.bytes.toString(), 'PNGDATA');
    assert.equal(cached.contentType, 'image/png');
    assert.equal(count(), before + 1);
    now += 1;
    await d.download(`${base}/logo.png`);
    assert.equal(count(), before + 2);
    // A second downloader on the same folder (an agent restart) uses the same cache.
    const again = downloader({ cacheDir: dir, now: () => now });
    await again.download(`${base}/logo.png`);
    assert.equal(again.requests, 0);
    now += DOWNLOAD_DEFAULTS.cacheTtlMs;
    assert.equal(await again.pruneCache(), 1);
  });

  test('https is downloaded from a server the agent trusts', async () => {
    // A self-signed certificate for 127.0.0.1 made for this test only (valid until 2125).
    const fixtures = new URL('./fixtures/', import.meta.url);
    const cert = readFileSync(new URL('test-cert.pem', fixtures));
    const key = readFileSync(new URL('test-key.pem', fixtures));
    const tls = createHttpsServer({ key, cert }, (_req, res) => res.end('secure'));
    const port = await listen(tls);
    try {
      const file = await downloader({ production: true, ca: cert }).download(
        `https://127.0.0.1:${port}/x`,
      );
      assert.equal(file.bytes.toString(), 'secure');
      // Without the CA the certificate is not trusted.
      await rejectsWith(
        downloader({ production: true }).download(`https://127.0.0.1:${port}/x`),
        'DOWNLOAD_FAILED',
        true,
      );
    } finally {
      tls.closeAllConnections();
      tls.close();
    }
  });

  test("public-only downloads refuse the shop's network by address, by name after DNS, and from the cache; others fetch as before", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-dl-private-'));
    dirs.push(dir);
    const d = downloader({ cacheDir: dir });
    const port = new URL(base).port;
    // A cloud job (no policy) fetches from the loopback, and the file goes into the cache.
    assert.equal((await d.download(`${base}/logo.png`)).bytes.toString(), 'PNGDATA');
    const before = hits.length;
    for (const url of [
      `${base}/logo.png`,
      `http://localhost:${port}/logo.png`,
      `http://[::ffff:127.0.0.1]:${port}/logo.png`,
      `http://0.0.0.0:${port}/logo.png`,
    ]) {
      await assert.rejects(d.download(url, { publicOnly: true }), (e: unknown) => {
        assert.ok(e instanceof PrintwireError);
        assert.equal(e.code, 'DOWNLOAD_FAILED');
        assert.equal(e.retryable, false);
        assert.match(e.message, /shop's network.*localDownloadsToPrivateNetwork/);
        return true;
      });
    }
    assert.equal(hits.length, before, 'the server saw no request');
  });

  test(
    "a public address redirecting to the shop's network is refused before the redirect is followed",
    {
      skip: publicAddress
        ? false
        : 'this machine has no IPv4 address outside the private ranges to serve the public side from',
    },
    async () => {
      const port = new URL(base).port;
      const targets: Record<string, string> = {
        '/to-literal': `${base}/logo.png`,
        '/to-name': `http://localhost:${port}/logo.png`,
        '/to-mapped': `http://[::ffff:7f00:1]:${port}/logo.png`,
      };
      const shop = createServer((req, res) => {
        if (req.url === '/public.png') return res.end('PUBLIC');
        res.statusCode = 302;
        res.setHeader('location', targets[req.url!]!);
        res.end();
      });
      const publicBase = `http://${publicAddress}:${await listen(shop, publicAddress)}`;
      try {
        const d = downloader();
        // The public side itself is reachable under the rule.
        const file = await d.download(`${publicBase}/public.png`, { publicOnly: true });
        assert.equal(file.bytes.toString(), 'PUBLIC');
        const before = hits.length;
        for (const path of Object.keys(targets)) {
          await assert.rejects(d.download(`${publicBase}${path}`, { publicOnly: true }), (e) => {
            assert.ok(e instanceof PrintwireError, String(e));
            assert.equal(e.code, 'DOWNLOAD_FAILED', path);
            assert.equal(e.retryable, false);
            assert.match(e.message, /shop's network.*localDownloadsToPrivateNetwork/);
            return true;
          });
        }
        assert.equal(hits.length, before, 'the shop-side server saw no request');
        // Without the rule (a cloud job) the same redirect is followed.
        assert.equal((await d.download(`${publicBase}/to-name`)).bytes.toString(), 'PNGDATA');
      } finally {
        shop.closeAllConnections();
        shop.close();
      }
    },
  );
});
