/**
 * The web dashboard's budgets (issue 18), measured in Chromium against a real cloud process on
 * loopback, each time in a fresh browser context (a cold cache):
 * - the JavaScript the login page loads before it can be used, gzipped: budget 150 KB;
 * - the first page interactive (navigation to the "Log in" button usable): budget 1 s, beside an
 *   empty page of the same server measured in the same run.
 * Each prints measured / budget (≤ 1 holds the budget).
 */
import { gzipSync } from 'node:zlib';
import { DashboardWorld } from '../test/dashboard-support.js';

const RUNS = Number(process.env.BENCH_ROUNDS ?? 7);
const JS_BUDGET_BYTES = 150 * 1024;
const INTERACTIVE_BUDGET_MS = 1000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const world = await DashboardWorld.start();
try {
  const scripts = new Map<string, number>();
  const interactive: number[] = [];
  const empty: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { page } = await world.page();
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      const body = await res.body().catch(() => undefined);
      if (body) scripts.set(new URL(res.url()).pathname, gzipSync(body).length);
    });
    const start = performance.now();
    await page.goto('/login');
    const button = page.getByRole('button', { name: 'Log in' });
    await button.waitFor();
    // Usable: the form takes typing (React has attached its handlers) and the button is enabled.
    await page.getByLabel('Email').fill('a@b.example');
    if (!(await button.isEnabled())) throw new Error('the Log in button is not enabled');
    interactive.push(performance.now() - start);
    await page.context().close();

    const { page: blank } = await world.page();
    const t0 = performance.now();
    await blank.goto('/health/live');
    empty.push(performance.now() - t0);
    await blank.context().close();
  }
  const jsBytes = [...scripts.values()].reduce((a, b) => a + b, 0);
  console.log(`login page scripts: ${[...scripts.keys()].join(', ')}`);
  console.log(
    `initial JavaScript of the login page: ${(jsBytes / 1024).toFixed(1)} KB gzip; budget 150 KB; ratio ${(jsBytes / JS_BUDGET_BYTES).toFixed(2)} (≤ 1 holds)`,
  );
  const ms = median(interactive);
  console.log(
    `first page interactive (cold cache, loopback, median of ${RUNS}): ${ms.toFixed(0)} ms; budget ${INTERACTIVE_BUDGET_MS} ms; ratio ${(ms / INTERACTIVE_BUDGET_MS).toFixed(2)} (≤ 1 holds); an empty page of the same server: ${median(empty).toFixed(0)} ms`,
  );
} finally {
  await world.stop();
}
