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
import { AgentProcess, tempDir, waitUntil } from '../../../test/e2e-support.js';
import { FakePrinter } from '../../../test/fake-printer.js';
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
const printer = await FakePrinter.start();
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
  // Jobs and printers (issue 19): a real agent with one printer, and test jobs on the sandbox.
  const orgId = org.split('/').pop()!;
  const login = await fetch(`${world.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${world.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (await res.json()) as any;
  };
  const { code } = await call('POST', `/orgs/${orgId}/activation-codes`, { name: 'Till' });
  agent = AgentProcess.start([
    '--data-dir',
    tempDir('pw-shots-agent-'),
    '--cloud',
    world.url,
    '--activation-code',
    code,
    '--printer',
    printer.uri('name=Counter&alias=counter'),
  ]);
  await waitUntil(
    'the agent’s printer online',
    async () =>
      (await call('GET', `/orgs/${orgId}/printers`)).data?.[0]?.status === 'online'
        ? true
        : undefined,
    { timeoutMs: 30_000 },
  );
  const sandbox = (await call('GET', `/orgs/${orgId}/printers?mode=test`)).data as Array<{
    id: string;
    status: string;
    kind: string;
  }>;
  const noPaper = sandbox.find((p) => p.status === 'paper_out')!;
  const receipt = (lines: string[], order: string, printerId?: string) => ({
    type: 'receipt',
    ...(printerId ? { printerId } : {}),
    metadata: { order },
    data: {
      blocks: [
        { type: 'text', value: 'BOULANGERIE MARIE', align: 'center', bold: true, size: 2 },
        { type: 'line' },
        ...lines.map((l) => {
          const [left, right] = l.split('|');
          return { type: 'pair', left, right };
        }),
        { type: 'line' },
        { type: 'qr', value: `https://boulangerie.example/r/${order}` },
        { type: 'cut' },
      ],
    },
  });
  await call('POST', `/orgs/${orgId}/jobs?mode=test`, receipt(['1 x Pain|1,20 €'], '1040'));
  await call(
    'POST',
    `/orgs/${orgId}/jobs?mode=test`,
    receipt(['1 x Tarte|9,00 €'], '1041', noPaper.id),
  );
  const shown = await call(
    'POST',
    `/orgs/${orgId}/jobs?mode=test`,
    receipt(['2 x Croissant|2,60 €', '1 x Café crème|2,50 €', 'TOTAL|5,10 €'], '1042'),
  );
  await call('POST', `/orgs/${orgId}/jobs?mode=test`, {
    type: 'zpl',
    printerId: sandbox.find((p) => p.kind === 'label')!.id,
    metadata: { order: '1043' },
    data: '^XA\n^CF0,40\n^FO40,40^FDBoulangerie Marie^FS\n^FO40,100^BCN,60,Y,N,N^FD1043^FS\n^XZ',
  });

  // Templates, webhooks and devices (issue 19): the Business plan, two gallery templates, an
  // endpoint with a delivered test event and an alert rule (the devices page shows the agent
  // started above).
  await world.setPlan(orgId, 'business');
  const [device] = (await call('GET', `/orgs/${orgId}/devices`)).data as Array<{ id: string }>;
  await call('PATCH', `/orgs/${orgId}/devices/${device!.id}`, {
    name: 'Comptoir',
    groupId: 'Pétion-Ville',
  });
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
  // A printer that connects by itself (issue 29), online from a CloudPRNT poll, beside the agent's.
  const star = await call('POST', `/orgs/${orgId}/cloud-printers`, {
    name: 'Cuisine',
    protocol: 'cloudprnt',
  });
  await fetch(star.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ statusCode: '200%20OK', printerMAC: '00:11:62:31:f0:57' }),
  });
  /** Removes the printers the add-printer shot made, so that the next pass's pages are the same. */
  const removeAdded = async () => {
    const printers = (await call('GET', `/orgs/${orgId}/printers`)).data as Array<{
      id: string;
      name: string;
    }>;
    for (const p of printers.filter((x) => x.name === 'Bar'))
      await call('DELETE', `/orgs/${orgId}/cloud-printers/${p.id}`);
  };

  const shots: {
    name: string;
    path: string;
    signedIn: boolean;
    then?: (p: Page) => Promise<void>;
    /** Run after the screenshot. */
    after?: () => Promise<void>;
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
    { name: 'overview-test', path: `${org}?mode=test`, signedIn: true },
    { name: 'jobs', path: `${org}/jobs?mode=test`, signedIn: true },
    {
      name: 'job',
      path: `${org}/jobs/${shown.id}?mode=test`,
      signedIn: true,
      then: async (p) => {
        await p.locator('.preview img').waitFor();
        await p.locator('ol.code-lines').waitFor();
      },
    },
    {
      name: 'jobs-new',
      path: `${org}/jobs`,
      signedIn: true,
      then: async (p) => {
        await p.locator('.toolbar button').click();
        await p.locator('dialog textarea').first().waitFor();
      },
    },
    { name: 'printers', path: `${org}/printers`, signedIn: true },
    {
      name: 'printers-edit',
      path: `${org}/printers`,
      signedIn: true,
      then: async (p) => {
        await p.locator('.printer-card .actions button').first().click();
        await p.locator('dialog select').first().waitFor();
      },
    },
    { name: 'printers-test', path: `${org}/printers?mode=test`, signedIn: true },
    { name: 'add-printer', path: `${org}/printers/connect`, signedIn: true },
    {
      name: 'add-printer-created',
      path: `${org}/printers/connect`,
      signedIn: true,
      then: async (p) => {
        await p.locator('form input').first().fill('Bar');
        await p.locator('input[type=radio][value=sdp]').check();
        await p.locator('form button[type=submit]').click();
        await p.locator('.secret pre').waitFor();
      },
      after: removeAdded,
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
        await p.locator('.status-ok').first().waitFor();
        await p.locator('.actions > .button.primary').click();
        await p.locator('.activation .secret pre').waitFor();
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
        await page.locator('.loading').first().waitFor({ state: 'detached' });
        await shot.then?.(page);
        await page.screenshot({ path: `${out}${prefix}${shot.name}${suffix}.png`, fullPage: true });
        await shot.after?.();
      }
      await page.context().close();
    }
  }
  console.log(`screenshots in ${out}`);
} finally {
  await agent?.kill();
  await receiver?.close();
  await world.stop();
  await printer.stop();
}
