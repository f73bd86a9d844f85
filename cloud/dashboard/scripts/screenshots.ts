/**
 * Screenshots of every dashboard page, taken in Chromium against a real cloud process with a
 * shop's worth of data (an agent process activated and online, a local webhook receiver):
 * docs/dashboard/<page>.png (English, 1280 px) and <page>-phone.png (375 px).
 * `--languages en,fr,ht --out DIR` takes them in other languages too, for a translator's review.
 *
 *   node --import tsx cloud/dashboard/scripts/screenshots.ts
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import {
  DESKTOP,
  DashboardWorld,
  PHONE,
  logIn,
  verifiedAccount,
} from '../../../test/dashboard-support.js';
import { AgentProcess, tempDir } from '../../../test/e2e-support.js';
import { startReceiver, type Receiver } from '../../src/testing/webhook-receiver.js';

const { values } = parseArgs({
  options: {
    languages: { type: 'string', default: 'en' },
    out: { type: 'string', default: new URL('../../../docs/dashboard/', import.meta.url).pathname },
  },
});
const languages = values.languages.split(',');
const out = values.out.endsWith('/') ? values.out : `${values.out}/`;
mkdirSync(out, { recursive: true });

const OWNER = {
  name: 'Marie Joseph',
  email: 'marie@boulangerie.example',
  password: 'a long owner password',
};
const CASHIER = {
  name: 'Jean Pierre',
  email: 'jean@boulangerie.example',
  password: 'a long cashier password',
};

const world = await DashboardWorld.start();
let receiver: Receiver | undefined;
let agent: AgentProcess | undefined;
try {
  await verifiedAccount(world, OWNER);
  await verifiedAccount(world, CASHIER);
  // The shop: an organization, a member, an invitation waiting, a live and a test key.
  const { page: setup } = await world.page();
  await setup.goto('/login');
  await logIn(setup, OWNER);
  await setup.getByLabel('Organization name').fill('Boulangerie Marie');
  await setup.getByRole('button', { name: 'Create organization' }).click();
  await setup.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
  const org = new URL(setup.url()).pathname;
  await setup.goto(`${org}/members`);
  for (const email of [CASHIER.email, 'paul@boulangerie.example']) {
    await setup.getByLabel('Email').fill(email);
    await setup.getByRole('button', { name: 'Send invitation' }).click();
    await setup.getByText(`Invitation sent to ${email}.`).waitFor();
  }
  const { page: cashier } = await world.page();
  await cashier.goto(await world.mailLink(CASHIER.email, '/invitations/accept?token='));
  await cashier.getByRole('link', { name: 'Log in' }).click();
  await logIn(cashier, CASHIER);
  await cashier.getByRole('button', { name: 'Accept invitation' }).click();
  await cashier.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
  await setup.goto(`${org}/developers`);
  for (const [name, test] of [
    ['Till 1', false],
    ['Web shop', false],
    ['Till 2', true],
  ] as const) {
    if (test) await setup.goto(`${org}/developers?mode=test`);
    await setup.getByRole('button', { name: 'New API key' }).click();
    await setup.getByLabel('Key name').fill(name);
    await setup.getByRole('button', { name: 'Create key' }).click();
    await setup.getByRole('button', { name: 'Done' }).click();
  }
  const printers = await fetch(`${world.url}/v1/printers`); // a key's "last used" stays empty: fine
  void printers;

  // Templates, webhooks and devices (issue 19): the Business plan, two gallery templates, an
  // endpoint with a delivered test event and an alert rule, an agent activated and online.
  await world.setPlan(org.split('/')[2]!, 'business');
  const templateIds: string[] = [];
  for (const index of [0, 5]) {
    await setup.goto(`${org}/templates`);
    await setup.locator('.gallery-item button').nth(index).click();
    await setup.waitForURL(/\/templates\/tpl_/);
    templateIds.push(new URL(setup.url()).pathname.split('/').pop()!);
  }
  receiver = await startReceiver();
  await setup.goto(`${org}/webhooks`);
  await setup.getByRole('button', { name: 'New endpoint' }).click();
  await setup.getByLabel('Endpoint URL').fill(receiver.url);
  await setup.getByLabel('Description (optional)').fill('Order system');
  await setup.getByRole('button', { name: 'Create endpoint' }).click();
  await setup.getByRole('button', { name: 'Done' }).click();
  await setup.getByRole('button', { name: receiver.url }).click();
  await setup.getByRole('button', { name: 'Send test event' }).click();
  await setup.getByRole('row').filter({ hasText: 'webhook.test' }).getByText('Delivered').waitFor();
  const endpoint = new URL(setup.url()).search;
  await setup.getByRole('button', { name: 'New alert rule' }).click();
  await setup.getByRole('button', { name: 'Create rule' }).click();
  await setup.getByRole('row').filter({ hasText: 'A printer goes offline' }).waitFor();
  await setup.goto(`${org}/devices`);
  await setup.getByRole('button', { name: 'Create an activation code' }).click();
  const code = (await setup.getByLabel('Activation code', { exact: true }).textContent()) ?? '';
  agent = AgentProcess.start([
    ...['--data-dir', tempDir('pw-screens-agent-'), '--cloud', world.url],
    ...['--activation-code', code, '--name', 'Comptoir'],
  ]);
  await setup.getByRole('row').filter({ hasText: 'Comptoir' }).getByText('Online').waitFor({
    timeout: 30_000,
  });

  const shots: {
    name: string;
    path: string;
    signedIn: boolean;
    then?: (p: Page) => Promise<void>;
  }[] = [
    { name: 'login', path: '/login', signedIn: false },
    { name: 'signup', path: '/signup', signedIn: false },
    { name: 'forgot-password', path: '/forgot-password', signedIn: false },
    { name: 'overview', path: org, signedIn: true },
    { name: 'members', path: `${org}/members`, signedIn: true },
    { name: 'developers', path: `${org}/developers`, signedIn: true },
    {
      name: 'developers-test-new-key',
      path: `${org}/developers?mode=test`,
      signedIn: true,
      then: async (p) => {
        await p.getByRole('button', { name: /./ }).filter({ hasText: /API/ }).first().click();
      },
    },
    { name: 'settings', path: `${org}/settings`, signedIn: true },
    { name: 'billing', path: `${org}/billing`, signedIn: true },
    { name: 'templates', path: `${org}/templates`, signedIn: true },
    {
      name: 'template-editor-receipt',
      path: `${org}/templates/${templateIds[0]}`,
      signedIn: true,
      then: async (p) => {
        await p.locator('.receipt-paper img').waitFor();
      },
    },
    {
      name: 'template-editor-error',
      path: `${org}/templates/${templateIds[1]}`,
      signedIn: true,
      then: async (p) => {
        await p.locator('.commands').waitFor();
        const editor = p.locator('.code-layer textarea');
        await editor.fill(`${await editor.inputValue()}{{#items}}\n`);
        await p.locator('.gutter .error-line').waitFor();
      },
    },
    { name: 'webhooks', path: `${org}/webhooks${endpoint}`, signedIn: true },
    {
      name: 'devices',
      path: `${org}/devices`,
      signedIn: true,
      then: async (p) => {
        await p.locator('.state.ok').waitFor();
      },
    },
    {
      name: 'account-two-factor',
      path: '/account',
      signedIn: true,
      then: async (p) => {
        await p.locator('#two-factor + div button').click();
        await p.locator('canvas').waitFor();
      },
    },
  ];

  for (const lang of languages) {
    for (const [suffix, viewport] of [
      ['', DESKTOP],
      ['-phone', PHONE],
    ] as const) {
      const { page } = await world.page({ viewport });
      await page.goto('/login');
      await page.evaluate(`localStorage.setItem('printwire.language', ${JSON.stringify(lang)})`);
      const prefix = lang === 'en' && out.includes('docs/dashboard') ? '' : `${lang}-`;
      for (const shot of shots.filter((s) => !s.signedIn)) {
        await page.goto(shot.path);
        await page.locator('h1').waitFor();
        await page.screenshot({ path: `${out}${prefix}${shot.name}${suffix}.png`, fullPage: true });
      }
      await page.goto('/login');
      await page.locator('input[type=email]').fill(OWNER.email);
      await page.locator('input[type=password]').fill(OWNER.password);
      await page.locator('button[type=submit]').click();
      await page.locator('h1', { hasText: 'Boulangerie Marie' }).waitFor();
      for (const shot of shots.filter((s) => s.signedIn)) {
        await page.goto(shot.path);
        await page.locator('h1').waitFor();
        await page.locator('.loading').waitFor({ state: 'detached' });
        await shot.then?.(page);
        await page.screenshot({ path: `${out}${prefix}${shot.name}${suffix}.png`, fullPage: true });
      }
      await page.context().close();
    }
  }
  console.log(`screenshots in ${out}`);
} finally {
  await agent?.kill();
  await receiver?.close();
  await world.stop();
}
