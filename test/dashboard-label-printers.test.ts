/**
 * A label printer's settings in the dashboard (Chromium against a real cloud process and a real
 * agent process with a fake ZPL printer on TCP): its label size and resolution are offered where
 * a receipt printer's paper, codepage and cut are; what is saved reaches the agent, whose next
 * PDF job arrives drawn on that label at that resolution. A size that is not one is refused under
 * its field. axe-core, 375 px, English, French and Haitian Creole.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { zplLabels } from '@printwire/shared/testing/label-graphics';
import {
  DashboardWorld,
  DESKTOP,
  OWNER,
  PHONE,
  assertAccessible,
  logIn,
  scrollsSideways,
  verifiedAccount,
} from './dashboard-support.js';
import { AgentProcess, tempDir, waitUntil } from './e2e-support.js';
import { FakePrinter } from './fake-printer.js';

const RECTANGLE = readFileSync(
  new URL('../agent/src/render/fixtures/rectangle.pdf', import.meta.url),
);
/** Screenshots for a person to look at (not compared): PRINTWIRE_SCREENSHOTS=DIR keeps them. */
const SHOTS = process.env.PRINTWIRE_SCREENSHOTS;

describe('a label printer’s settings in the dashboard', () => {
  let world: DashboardWorld;
  let zebra: FakePrinter;
  let agent: AgentProcess | undefined;
  let orgId: string;
  let liveKey: string;
  let page: Page;
  const problems: string[][] = [];

  const api = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${world.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  before(async () => {
    world = await DashboardWorld.start();
    zebra = await FakePrinter.start();
    await verifiedAccount(world, OWNER);
    const login = await fetch(`${world.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    orgId = (await api(accessToken, 'POST', '/orgs', { name: 'Entrepôt Jacmel' })).body.id;
    const key = await api(accessToken, 'POST', `/orgs/${orgId}/api-keys`, {
      name: 'Shipping',
      mode: 'live',
      scopes: ['jobs:write', 'jobs:read', 'printers:read'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    liveKey = key.body.key;
    const code = (await api(accessToken, 'POST', `/orgs/${orgId}/activation-codes`)).body.code;
    agent = AgentProcess.start([
      ...['--data-dir', tempDir('pw-dash-labels-agent-'), '--cloud', world.url],
      ...['--activation-code', code, '--printer', zebra.uri('name=Zebra&lang=zpl')],
    ]);
    await waitUntil(
      'the agent’s label printer online',
      async () => {
        const list = await api(accessToken, 'GET', `/orgs/${orgId}/printers`);
        return list.body.data?.[0]?.status === 'online' ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const opened = await world.page();
    page = opened.page;
    problems.push(opened.problems);
    await page.goto('/login');
    await logIn(page, OWNER);
    await page.getByRole('heading', { name: 'Entrepôt Jacmel' }).waitFor();
  });

  after(async () => {
    await agent?.kill();
    await world?.stop();
    await zebra?.stop();
    assert.deepEqual(problems.flat(), [], 'no CSP violation or page error');
  });

  const card = () =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Zebra' }) });

  /** A PDF job through the public API; resolves with the labels the printer received. */
  async function printPdf(): Promise<ReturnType<typeof zplLabels>> {
    zebra.clear();
    const printerId = (await api(liveKey, 'GET', '/v1/printers')).body.data[0].id as string;
    const created = await api(liveKey, 'POST', '/v1/jobs', {
      printerId,
      type: 'pdf',
      encoding: 'base64',
      data: RECTANGLE.toString('base64'),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const job = await waitUntil(
      'the PDF printed',
      async () => {
        const view = (await api(liveKey, 'GET', `/v1/jobs/${created.body.id}`)).body;
        return ['printed', 'failed'].includes(view.state) ? view : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.equal(job.state, 'printed', `${job.errorCode}: ${job.errorMessage}`);
    return zplLabels(zebra.bytes());
  }

  test('a label printer offers label sizes and resolutions, not paper widths, codepages or cuts', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Printers' }).click();
    await card().getByText('Online', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit printer Zebra' }).click();
    const dialog = page.getByRole('dialog');
    const sizes = await dialog.getByLabel('Label size').locator('option').allTextContents();
    assert.ok(
      sizes.includes('4x6in') && sizes.includes('100x150mm') && sizes.includes('Other size'),
    );
    const dpis = await dialog.getByLabel('Resolution').locator('option').allTextContents();
    assert.deepEqual(dpis.slice(1), [
      '203 dpi (8 dots per mm)',
      '300 dpi (12 dots per mm)',
      '600 dpi (24 dots per mm)',
    ]);
    assert.equal(await dialog.getByLabel('Codepage').count(), 0);
    assert.equal(await dialog.getByLabel('Cut').count(), 0);
    await assertAccessible(page, 'label printer edit dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('a size and resolution saved reach the agent: the next PDF is drawn on that label at that dpi', async () => {
    // Before: the contract's default label, 4 × 6 in at 203 dpi.
    const [before] = await printPdf();
    assert.deepEqual([before!.width, before!.height], [812, 1218]);

    await page.getByRole('button', { name: 'Edit printer Zebra' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Label size').selectOption('100x150mm');
    await dialog.getByLabel('Resolution').selectOption('300');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card().getByText('100x150mm').first().waitFor();
    await card().getByText('300 dpi').first().waitFor();

    // 100 × 150 mm at 300 dpi: 1181 × 1772 dots.
    const labels = await waitUntil(
      'the agent’s configuration applied',
      async () => {
        const sent = await printPdf();
        return sent[0]?.width === 1181 ? sent : undefined;
      },
      { timeoutMs: 20_000 },
    );
    assert.deepEqual([labels[0]!.width, labels[0]!.height], [1181, 1772]);
  });

  test('a size that is not one is refused under its field', async () => {
    await page.getByRole('button', { name: 'Edit printer Zebra' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Label size').selectOption({ label: 'Other size' });
    await dialog.getByLabel('Width x height (mm or in)').fill('4x60in');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('at most 1000 mm long').waitFor();
    await assertAccessible(page, 'label size refused');
    await dialog.getByLabel('Width x height (mm or in)').fill('2.25x1.25in');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card().getByText('2.25x1.25in').first().waitFor();
  });

  test('in French and Creole, on a phone: the dialog fits and names its fields', async () => {
    const words = {
      en: ['Label size', 'Resolution'],
      fr: ['Taille d’étiquette', 'Résolution'],
      ht: ['Gwosè etikèt', 'Rezolisyon'],
    } as const;
    for (const lang of ['en', 'fr', 'ht'] as const) {
      for (const viewport of [DESKTOP, PHONE]) {
        const { page: p, problems: pp } = await world.page({ viewport });
        problems.push(pp);
        await p.goto('/login');
        await logIn(p, OWNER);
        await p.getByRole('heading', { name: 'Entrepôt Jacmel' }).waitFor();
        // The language as the switcher keeps it, then the page opened afresh in it.
        await p.evaluate(`localStorage.setItem('printwire.language', '${lang}')`);
        await p.goto(`/o/${orgId}/printers`);
        await p
          .locator('html')
          .and(p.locator(`[lang="${lang}"]`))
          .waitFor();
        await p.locator('.printer-card').first().getByRole('button').first().click();
        const dialog = p.getByRole('dialog');
        await dialog.getByLabel(words[lang][0]).waitFor();
        await dialog.getByLabel(words[lang][1]).waitFor();
        assert.equal(await scrollsSideways(p), false, `${lang} ${viewport.width} px`);
        await assertAccessible(p, `label printer dialog, ${lang}, ${viewport.width} px`);
        if (SHOTS) {
          mkdirSync(SHOTS, { recursive: true });
          await p.screenshot({ path: `${SHOTS}/label-printer-${lang}-${viewport.width}.png` });
        }
        await p.context().close();
      }
    }
  });
});
