/**
 * Which printer is which, and printers that connect by themselves, in the dashboard (Chromium
 * against a real cloud process, a real agent process and two fake TCP printers of one model):
 * each printer says how it is reached (address and port), so that the two are told apart; a Star
 * CloudPRNT printer is added, its address shown once with the steps for Star's settings page, and
 * it goes online at its first poll (a plain HTTP POST of a CloudPRNT poll body) without a reload;
 * removing it revokes its address. English, French and Haitian Creole, 1280 and 375 px, axe-core.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import {
  DashboardWorld,
  DESKTOP,
  OWNER,
  PHONE,
  accessTokenOf,
  assertAccessible,
  logIn,
  scrollsSideways,
  verifiedAccount,
} from './dashboard-support.js';
import { AgentProcess, tempDir, waitUntil } from './e2e-support.js';
import { FakePrinter } from './fake-printer.js';

/** Screenshots for a person to look at (not compared): PRINTWIRE_SCREENSHOTS=DIR keeps them. */
const SHOTS = process.env.PRINTWIRE_SCREENSHOTS;
const ORG = 'Restaurant Lakay';
const MODEL = 'EPSON TM-T20III';

/** A CloudPRNT poll as a Star printer sends it (Star CloudPRNT protocol guide, JSON request). */
const starPoll = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'CloudPRNT/3.0 mC-Print3/3.6' },
    body: JSON.stringify({
      statusCode: '200%20OK',
      printerMAC: '00:11:62:31:f0:57',
      status: '23 86 00 00 00 00 00 00 00 00 00',
    }),
  });

/** Keeps a screenshot under PRINTWIRE_SCREENSHOTS for a person to look at (not compared). */
async function shot(p: Page, name: string, fullPage = true): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

describe('which printer is which, and printers that connect by themselves', () => {
  let world: DashboardWorld;
  const fakes: FakePrinter[] = [];
  let agent: AgentProcess | undefined;
  let orgId: string;
  let page: Page;
  const problems: string[][] = [];

  before(async () => {
    world = await DashboardWorld.start();
    fakes.push(await FakePrinter.start(), await FakePrinter.start());
    await verifiedAccount(world, OWNER);
    const token = await accessTokenOf(world, OWNER);
    const post = async (path: string, body?: unknown) => {
      const res = await fetch(`${world.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      assert.ok(res.ok, `${path}: ${res.status}`);
      return (await res.json()) as Record<string, string>;
    };
    orgId = (await post('/orgs', { name: ORG })).id!;
    const code = (await post(`/orgs/${orgId}/activation-codes`)).code!;
    // Two printers of one model on one computer: only their addresses tell them apart.
    agent = AgentProcess.start([
      ...['--data-dir', tempDir('pw-dash-reach-agent-'), '--cloud', world.url],
      ...['--activation-code', code],
      ...fakes.flatMap((f) => ['--printer', f.uri(`name=${encodeURIComponent(MODEL)}`)]),
    ]);
    await waitUntil(
      'both printers of the agent online',
      async () => {
        const res = await fetch(`${world.url}/orgs/${orgId}/printers`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const list = ((await res.json()) as { data?: Array<{ status: string }> }).data ?? [];
        return list.length === 2 && list.every((p) => p.status === 'online') ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const opened = await world.page();
    page = opened.page;
    problems.push(opened.problems);
    await page.goto('/login');
    await logIn(page, OWNER);
    await page.getByRole('heading', { name: ORG }).waitFor();
  });

  after(async () => {
    await agent?.kill();
    await world?.stop();
    for (const f of fakes) await f.stop();
    assert.deepEqual(problems.flat(), [], 'no CSP violation or page error');
  });

  const card = (p: Page, name: string) =>
    p.getByRole('listitem').filter({ has: p.getByRole('heading', { name, exact: true }) });

  test('two printers of one model are told apart by the address and port they are reached at', async () => {
    await page.goto(`/o/${orgId}/printers`);
    const twins = card(page, MODEL);
    await twins.nth(1).waitFor();
    assert.equal(await twins.count(), 2);
    const reached = await page.locator('.printer-card .reach').allInnerTexts();
    for (const fake of fakes) {
      assert.ok(
        reached.some(
          (r) => r.includes('Network, address 127.0.0.1') && r.includes(`port ${fake.port}`),
        ),
        `a card says port ${fake.port}: ${JSON.stringify(reached)}`,
      );
    }
    await assertAccessible(page, 'printers with their reach');
  });

  test('a Star printer is added: its address shown once with Star’s steps, online at its first poll without a reload, then removed', async () => {
    await page.goto(`/o/${orgId}/printers`);
    await page.getByRole('link', { name: 'Add a printer that connects by itself' }).click();
    await page.getByRole('heading', { name: 'Add a printer that connects by itself' }).waitFor();
    await assertAccessible(page, 'add a printer that connects by itself');
    // The API's rule, said under the field it names.
    await page.getByRole('button', { name: 'Add printer' }).click();
    await page.locator('.field-error').first().waitFor();
    await page.getByLabel('Printer name').fill('Kitchen Star');
    await page.getByRole('radio', { name: /Star \(CloudPRNT\)/ }).check();
    await page.getByLabel('Paper width').selectOption('80mm');
    await page.getByRole('button', { name: 'Add printer' }).click();

    const address = page.getByLabel('Address for the printer’s “Server URL”');
    const url = (await address.innerText()).trim();
    assert.ok(url.startsWith(world.url), `the address is on this cloud: ${url}`);
    await page.getByText('it will not be shown again').waitFor();
    await page.getByText('Paste the address above into “Server URL”').waitFor();
    await page.getByText('Set “Polling time” to 5 seconds').waitFor();
    await page.getByText('Waiting for the printer’s first poll').waitFor();
    await assertAccessible(page, 'a printer added, its address shown');

    await page.evaluate('window.notReloaded = true');
    const poll = await starPoll(url);
    assert.equal(poll.status, 200);
    const firstPoll = page.locator('.first-poll');
    await firstPoll.getByText('Online').waitFor({ timeout: 15_000 });
    await firstPoll.getByText('It has polled').waitFor();
    assert.equal(await page.evaluate('window.notReloaded'), true, 'went online without a reload');
    await shot(page, 'add-printer-online-en-1280');

    await page.getByRole('link', { name: 'Back to the printers' }).click();
    const star = card(page, 'Kitchen Star');
    await star.getByText('Star CloudPRNT (connects by itself), last poll').waitFor();
    await star.getByText('Online').waitFor();
    // The address (its secret) is never shown again.
    const secret = new URL(url).pathname.split('/').filter(Boolean).pop()!;
    assert.equal((await page.content()).includes(secret), false, 'the secret is not on the page');
    await star.scrollIntoViewIfNeeded();
    await shot(page, 'printers-cloud-en-1280', false);

    // On the Devices page it is a printer that connects by itself, not a computer to deactivate:
    // its address is revoked from the Printers page.
    await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).click();
    const device = page.getByRole('row').filter({ hasText: 'Kitchen Star' });
    await device.getByText('Star (CloudPRNT) printer, connects by itself').waitFor();
    assert.equal(
      await device.getByRole('button', { name: 'Deactivate Kitchen Star' }).count(),
      0,
      'no Deactivate for a printer that connects by itself',
    );
    await assertAccessible(page, 'devices with a printer that connects by itself');
    await device.getByRole('link', { name: 'Managed on the Printers page' }).click();
    await star.waitFor();

    await page.getByRole('button', { name: 'Remove printer Kitchen Star' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the printer “Kitchen Star”?' });
    await dialog.getByText('Its address stops working at once').waitFor();
    await assertAccessible(page, 'remove a printer that connects by itself');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await dialog.waitFor({ state: 'detached' });
    await star.waitFor({ state: 'detached' });
    const refused = await starPoll(url);
    assert.ok([401, 404].includes(refused.status), `a removed printer's poll: ${refused.status}`);
  });

  test('in English, French and Creole, at 1280 and 375 px: the add page before and after, the printers page and the question before removing', async () => {
    const words = {
      en: {
        title: 'Add a printer that connects by itself',
        name: 'Printer name',
        add: 'Add printer',
        steps: 'Web Config',
        printers: 'Printers',
        remove: (name: string) => `Remove printer ${name}`,
        confirm: 'Remove',
      },
      fr: {
        title: 'Ajouter une imprimante qui se connecte seule',
        name: 'Nom de l’imprimante',
        add: 'Ajouter l’imprimante',
        steps: 'Web Config',
        printers: 'Imprimantes',
        remove: (name: string) => `Retirer l’imprimante ${name}`,
        confirm: 'Retirer',
      },
      ht: {
        title: 'Ajoute yon enprimant ki konekte pou kont li',
        name: 'Non enprimant lan',
        add: 'Ajoute enprimant lan',
        steps: 'Web Config',
        printers: 'Enprimant',
        remove: (name: string) => `Retire enprimant ${name}`,
        confirm: 'Retire',
      },
    } as const;
    for (const lang of ['en', 'fr', 'ht'] as const) {
      for (const viewport of [DESKTOP, PHONE]) {
        const w = words[lang];
        const at = `${lang}, ${viewport.width} px`;
        const { page: p, problems: pp } = await world.page({ viewport });
        problems.push(pp);
        await p.goto('/login');
        await logIn(p, OWNER);
        await p.getByRole('heading', { name: ORG }).waitFor();
        await p.evaluate(`localStorage.setItem('printwire.language', '${lang}')`);
        await p.goto(`/o/${orgId}/printers/connect`);
        await p
          .locator('html')
          .and(p.locator(`[lang="${lang}"]`))
          .waitFor();
        await p.getByRole('heading', { name: w.title }).waitFor();
        const shoot = async (name: string) => {
          assert.equal(await scrollsSideways(p), false, `${name} ${at}`);
          await assertAccessible(p, `${name} ${at}`);
          await shot(p, `${name}-${lang}-${viewport.width}`);
        };
        await shoot('add-printer');
        // An Epson this time: its steps name Web Config's fields.
        const bar = `Bar ${lang} ${viewport.width}`;
        await p.getByLabel(w.name).fill(bar);
        await p.getByRole('radio', { name: /Epson/ }).check();
        await p.getByRole('button', { name: w.add }).click();
        await p.locator('.secret pre').waitFor();
        await p.getByRole('heading', { name: new RegExp(w.steps) }).waitFor();
        await shoot('add-printer-created');
        await p.goto(`/o/${orgId}/printers`);
        await p.getByRole('heading', { name: w.printers, level: 1 }).waitFor();
        await card(p, MODEL).nth(1).waitFor();
        await card(p, bar).waitFor();
        await shoot('printers');
        // Removed after a question in the page's language (the next page starts without it).
        await p.getByRole('button', { name: w.remove(bar) }).click();
        const dialog = p.getByRole('dialog');
        await dialog.getByText(bar, { exact: false }).first().waitFor();
        await shoot('remove-printer');
        await dialog.getByRole('button', { name: w.confirm, exact: true }).click();
        await card(p, bar).waitFor({ state: 'detached' });
        await p.context().close();
      }
    }
  });
});
