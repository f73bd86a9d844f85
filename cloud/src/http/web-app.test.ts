import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { startHarness, type Harness } from '../testing/harness.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { API_PATHS, CONTENT_SECURITY_POLICY, webAppRoutes } from './web-app.js';

const INDEX =
  '<!doctype html><title>Printwire</title><script type="module" src="/assets/index-abc123.js"></script>';

async function serve(dist: string): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.get('/v1/printers', (_req, res) => {
    res.json({ data: [] });
  });
  app.use(webAppRoutes(dist));
  app.use(notFoundHandler);
  app.use(errorHandler);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the web dashboard served by the cloud', () => {
  let built: { url: string; close: () => Promise<void> };
  let unbuilt: { url: string; close: () => Promise<void> };
  before(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'pw-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    built = await serve(dist);
    unbuilt = await serve(join(dist, 'never-built'));
  });
  after(async () => {
    await built.close();
    await unbuilt.close();
  });

  test('every page path answers the app with a strict CSP, no caching and no framing', async () => {
    for (const path of [
      '/',
      '/login',
      '/o/org_1/members?mode=test',
      '/invitations/accept?token=x',
      '/verify-email?token=abc',
    ]) {
      const res = await fetch(built.url + path);
      assert.equal(res.status, 200, path);
      assert.equal(await res.text(), INDEX);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.equal(csp, CONTENT_SECURITY_POLICY);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/, 'no inline script, no other origin');
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
    }
  });

  test('hashed assets are cached for a year; an asset not in the build is a 404, not the app', async () => {
    const asset = await fetch(`${built.url}/assets/index-abc123.js`);
    assert.equal(asset.status, 200);
    assert.match(
      asset.headers.get('cache-control') ?? '',
      /max-age=31536000.*immutable|immutable.*max-age=31536000/,
    );
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    const missing = await fetch(`${built.url}/assets/index-old999.js`);
    assert.equal(missing.status, 404);
    assert.notEqual(await missing.text(), INDEX);
    const icon = await fetch(`${built.url}/favicon.svg`);
    assert.match(icon.headers.get('content-type') ?? '', /svg/);
  });

  test('the API paths are never the app: an unknown one is still the API’s JSON 404', async () => {
    assert.deepEqual(API_PATHS, [
      '/v1',
      '/auth',
      '/orgs',
      '/agent',
      '/health',
      '/openapi.json',
      '/gallery',
    ]);
    for (const path of [
      '/v1/nope',
      '/v1',
      '/auth/nope',
      '/orgs',
      '/orgs/org_1/nope',
      '/agent/v1/x',
      '/health/x',
      '/gallery/x',
      '/openapi.json',
    ]) {
      const res = await fetch(built.url + path);
      assert.equal(res.status, 404, path);
      const body = (await res.json()) as { error: { code: string } };
      assert.equal(body.error.code, 'NOT_FOUND', path);
    }
    const api = await fetch(`${built.url}/v1/printers`);
    assert.deepEqual(await api.json(), { data: [] });
  });

  test('a page path that is not GET is the API’s 404, not the app', async () => {
    const res = await fetch(`${built.url}/login`, { method: 'POST' });
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });

  test('an app that was never built answers 503 saying how to build it; the API still works', async () => {
    const res = await fetch(`${unbuilt.url}/login`);
    assert.equal(res.status, 503);
    assert.match(await res.text(), /npm run build -w @printwire\/dashboard/);
    assert.equal((await fetch(`${unbuilt.url}/v1/printers`)).status, 200);
  });
});

describe('the dashboard inside the cloud app', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('mounted after the API: /openapi.json, /health and the dashboard API still answer as before', async () => {
    const openapi = await h.call('GET', '/openapi.json');
    assert.equal(openapi.status, 200);
    assert.equal(openapi.body.openapi.startsWith('3.1'), true);
    assert.equal((await h.call('GET', '/health/live')).status, 200);
    const me = await h.call('GET', '/auth/me');
    assert.equal(me.status, 401);
    const unknown = await h.call('GET', '/v1/unknown-thing');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'NOT_FOUND');
    const page = await fetch(`${h.url}/members`);
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  });
});
