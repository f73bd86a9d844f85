/**
 * The dashboard's live pages against a real cloud, a real agent process and a fake TCP printer,
 * in Chromium: printer status changes appear without a reload; a codepage set on the Printers
 * page reaches the agent, whose next job prints with it (bytes at the printer); a job created
 * from the Jobs page goes queued → sending → printed in the list without a reload; the job page
 * shows its timeline and content. axe-core on each page, and no sideways scrolling at 375 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  DashboardWorld,
  PHONE,
  assertAccessible,
  logIn,
  scrollsSideways,
  verifiedAccount,
} from './dashboard-support.js';
import { AgentProcess, tempDir, waitUntil } from './e2e-support.js';
import { FakePrinter } from './fake-printer.js';

const OWNER = {
  name: 'Marie Joseph',
  email: 'marie@live.example',
  password: 'a long owner password',
};
/** ESC t 19: CP858 selected (the generic profiles' number for it). */
const SELECT_CP858 = Buffer.from([0x1b, 0x74, 19]);
/** The euro sign in CP858. */
const EURO_CP858 = 0xd5;

describe('the live dashboard with a real agent and printer', () => {
  let world: DashboardWorld;
  let printer: FakePrinter;
  let agent: AgentProcess | undefined;
  let agentArgs: string[];
  let orgId: string;
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
    printer = await FakePrinter.start();
    await verifiedAccount(world, OWNER);
    const login = await fetch(`${world.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    orgId = (await api(accessToken, 'POST', '/orgs', { name: 'Boulangerie Live' })).body.id;
    const code = (await api(accessToken, 'POST', `/orgs/${orgId}/activation-codes`)).body.code;
    agentArgs = [
      '--data-dir',
      tempDir('pw-dash-live-agent-'),
      '--cloud',
      world.url,
      '--activation-code',
      code,
      '--printer',
      printer.uri('name=Counter'),
    ];
    agent = AgentProcess.start(agentArgs);
    await waitUntil(
      'the agent’s printer online',
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
    await page.getByRole('heading', { name: 'Boulangerie Live' }).waitFor();
  });

  after(async () => {
    await agent?.kill();
    await world?.stop();
    await printer?.stop();
    assert.deepEqual(problems.flat(), [], 'no CSP violation or page error');
  });

  test('the Overview counts the printer online and says the channel is live', async () => {
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const printers = page.locator('.overview-card').filter({ hasText: 'Printers' });
    await printers.getByText('1', { exact: true }).first().waitFor();
    await assertAccessible(page, 'overview');
  });

  test('printer status changes appear on the Printers page without a reload', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Printers' }).click();
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Counter' }) });
    await card.getByText('Online', { exact: true }).waitFor();
    await assertAccessible(page, 'printers');
    printer.paperOut = true;
    await card.getByText('Paper out', { exact: true }).waitFor({ timeout: 15_000 });
    printer.paperOut = false;
    await card.getByText('Online', { exact: true }).waitFor({ timeout: 15_000 });
  });

  test('a codepage set on the Printers page reaches the agent: its next receipt prints in CP858', async () => {
    await page.getByRole('button', { name: 'Edit printer Counter' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Codepage').selectOption('CP858');
    await assertAccessible(page, 'edit printer');
    await dialog.getByRole('button', { name: 'Save printer' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Counter' }) });
    await card.getByText('Codepage: CP858').waitFor();
    // The configuration goes out on the agent's socket before any job created after it.
    const before = printer.bytes().length;
    await page.getByRole('button', { name: 'Print a test receipt on Counter' }).click();
    await page.getByRole('link', { name: 'Follow it' }).waitFor();
    const bytes = await waitUntil(
      'the test receipt at the printer',
      () => {
        const b = printer.bytes().subarray(before);
        return b.includes(EURO_CP858) ? b : undefined;
      },
      { timeoutMs: 20_000 },
    );
    assert.ok(bytes.includes(SELECT_CP858), 'ESC t 19 selects CP858');
  });

  test('a job created on the Jobs page goes queued, sending, printed in the list without a reload', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
    await assertAccessible(page, 'jobs');
    // Every state word the list shows from now on, in order (the page is never reloaded).
    await page.evaluate(`
      window.__states = [];
      new MutationObserver(() => {
        const row = [...document.querySelectorAll('table.jobs tbody tr')].find((r) =>
          r.textContent.includes('order=1042'),
        );
        const word = row && row.querySelector('.status').textContent;
        if (word && window.__states[window.__states.length - 1] !== word) window.__states.push(word);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    `);
    await agent!.kill();
    await page.getByRole('button', { name: 'New job' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Printer').selectOption({ label: 'Counter' });
    await dialog
      .getByLabel('Content')
      .fill(
        JSON.stringify({ blocks: [{ type: 'text', value: 'Café crème 2,50 €' }, { type: 'cut' }] }),
      );
    await dialog.getByLabel('Metadata (optional)').fill('order=1042');
    await dialog.getByRole('button', { name: 'Print' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'order=1042' });
    await row.getByText('Queued', { exact: true }).waitFor();
    agent = AgentProcess.start(agentArgs);
    await row.getByText('Printed', { exact: true }).waitFor({ timeout: 30_000 });
    const seen = (await page.evaluate('window.__states')) as string[];
    assert.deepEqual(
      seen.filter((s) => ['Queued', 'Sending', 'Printed'].includes(s)),
      ['Queued', 'Sending', 'Printed'],
      `states seen: ${seen.join(' → ')}`,
    );
  });

  test('the job page shows the timeline, the metadata and the receipt as numbered lines', async () => {
    await page.getByRole('row').filter({ hasText: 'order=1042' }).getByRole('link').click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    const timeline = page.locator('ol.timeline');
    for (const state of ['Queued', 'Sending', 'Printed']) {
      await timeline.getByText(state, { exact: true }).first().waitFor();
    }
    await page
      .getByRole('list', { name: 'The receipt document' })
      .getByText('"Café crème 2,50 €"', { exact: false })
      .waitFor();
    await page.getByRole('button', { name: 'Print again' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Cancel job' }).count(), 0);
    await assertAccessible(page, 'job page');
  });

  test('a viewer reads jobs and printers but is offered no action', async () => {
    const viewer = {
      name: 'Paul Viewer',
      email: 'paul@live.example',
      password: 'a long viewer password',
    };
    await verifiedAccount(world, viewer);
    const tokenOf = async (who: { email: string; password: string }) => {
      const res = await fetch(`${world.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: who.email, password: who.password }),
      });
      return ((await res.json()) as { accessToken: string }).accessToken;
    };
    const invited = await api(await tokenOf(OWNER), 'POST', `/orgs/${orgId}/invitations`, {
      email: viewer.email,
      role: 'viewer',
    });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    const link = await world.mailLink(viewer.email, '/invitations/accept?token=');
    const token = new URL(link).searchParams.get('token');
    const accepted = await api(await tokenOf(viewer), 'POST', '/invitations/accept', { token });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));

    const { page: seen, problems: p } = await world.page();
    problems.push(p);
    await seen.goto('/login');
    await logIn(seen, viewer);
    await seen.getByRole('heading', { name: 'Boulangerie Live' }).waitFor();
    await seen.goto(`/o/${orgId}/jobs`);
    await seen.getByRole('link', { name: /^job_/ }).first().waitFor();
    assert.equal(await seen.getByRole('button', { name: 'New job' }).count(), 0);
    await seen.getByRole('link', { name: /^job_/ }).first().click();
    await seen.getByRole('heading', { name: 'Timeline' }).waitFor();
    assert.equal(await seen.getByRole('button', { name: 'Print again' }).count(), 0);
    await seen.goto(`/o/${orgId}/printers`);
    await seen.getByRole('heading', { name: 'Counter' }).waitFor();
    assert.equal(await seen.getByRole('button', { name: /Edit|test/ }).count(), 0);
    await seen.context().close();
  });

  test('a lost live channel says Reconnecting, then Live again, and the page catches up', async () => {
    const { page: p, problems: pp } = await world.page();
    problems.push(pp);
    await p.goto('/login');
    await logIn(p, OWNER);
    await p.getByRole('heading', { name: 'Boulangerie Live' }).waitFor();
    await p.goto(`/o/${orgId}/jobs`);
    const mark = p.locator('.live-mark');
    await mark.getByText('Live', { exact: true }).waitFor();
    // The stream is cut and refused for a while: the mark says so; a job created meanwhile is
    // missed by the channel, and shows once the channel is back.
    await p.route('**/events?**', (route) => route.abort());
    await p.goto(`/o/${orgId}/jobs`);
    await mark.getByText('Reconnecting…').waitFor();
    const token = await fetch(`${world.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
    }).then(async (r) => ((await r.json()) as { accessToken: string }).accessToken);
    const printers = await api(token, 'GET', `/orgs/${orgId}/printers`);
    const missed = await api(token, 'POST', `/orgs/${orgId}/jobs`, {
      printerId: printers.body.data[0].id,
      type: 'text',
      data: 'missed\n',
      metadata: { missed: 'yes' },
    });
    assert.equal(missed.status, 201);
    await p.unroute('**/events?**');
    await mark.getByText('Live', { exact: true }).waitFor({ timeout: 15_000 });
    await p.getByRole('row').filter({ hasText: 'missed=yes' }).waitFor();
    await p.context().close();
  });

  test('the live pages do not scroll sideways at 375 px and pass axe there', async () => {
    const { page: phone, problems: p } = await world.page({ viewport: PHONE });
    problems.push(p);
    await phone.goto('/login');
    await logIn(phone, OWNER);
    await phone.getByRole('heading', { name: 'Boulangerie Live' }).waitFor();
    for (const path of ['', '/jobs', '/printers']) {
      await phone.goto(`/o/${orgId}${path}`);
      await phone.locator('h1').waitFor();
      await phone.locator('.loading').waitFor({ state: 'detached' });
      assert.equal(await scrollsSideways(phone), false, path || 'overview');
      await assertAccessible(phone, `phone ${path || 'overview'}`);
    }
    await phone.goto(`/o/${orgId}/jobs?metadata.order=1042`);
    await phone.getByRole('link', { name: /^job_/ }).first().click();
    await phone.getByRole('heading', { name: 'Timeline' }).waitFor();
    await phone.getByRole('list', { name: 'The receipt document' }).waitFor();
    assert.equal(await scrollsSideways(phone), false, 'job page');
    await assertAccessible(phone, 'phone job page');
    await phone.context().close();
  });
});
