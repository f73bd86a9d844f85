/**
 * The login page's weight: the JavaScript a browser loads for /login before anyone touches the
 * page, gzipped, stays within 150 KB (the signed-in pages and their query cache are chunks of
 * their own). Measured in Chromium from the built app the cloud serves: every script response
 * until the network is idle, each gzipped here as a server would send it (the cloud itself does
 * not compress). Rebuild first after a change: `npm run build -w @printwire/dashboard`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { DashboardWorld } from './dashboard-support.js';

/** The budget, in bytes of gzipped JavaScript. */
const LOGIN_PAGE_BUDGET = 150 * 1024;

describe('the login page', () => {
  let world: DashboardWorld;
  before(async () => {
    world = await DashboardWorld.start();
  });
  after(async () => {
    await world?.stop();
  });

  test('loads at most 150 KB of JavaScript gzipped before any interaction', async () => {
    const { page, problems } = await world.page();
    const scripts = new Map<string, Promise<number>>();
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.set(
        new URL(response.url()).pathname,
        response.body().then((body) => gzipSync(body).length),
      );
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    const sizes = await Promise.all(
      [...scripts].map(async ([path, size]) => [path, await size] as const),
    );
    const total = sizes.reduce((sum, [, size]) => sum + size, 0);
    const listing = sizes.map(([path, size]) => `${path} ${(size / 1024).toFixed(1)} KB`);
    assert.ok(sizes.length > 0, 'the page loaded its scripts');
    assert.ok(
      sizes.every(([path]) => !/\/(signed-in|frame|data)-/.test(path)),
      `the login page loads no signed-in chunk:\n${listing.join('\n')}`,
    );
    assert.ok(
      total <= LOGIN_PAGE_BUDGET,
      `${(total / 1024).toFixed(1)} KB of JavaScript gzipped (budget 150 KB):\n${listing.join('\n')}`,
    );
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
