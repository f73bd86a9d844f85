/**
 * The web dashboard's organization pages in Chromium against a real cloud process: API keys with
 * the test/live switch (used with the REST API, then revoked), settings and deleting with the
 * typed name, billing, and the last data kept under Retry when a refetch fails; axe-core on every
 * page.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import type { Page } from 'playwright-core';
import { DashboardWorld, assertAccessible, ownerWithOrganization } from './dashboard-support.js';

describe('the dashboard’s organization pages in a browser', () => {
  let world: DashboardWorld;
  let owner: Page;
  let orgPath = '';
  const problems: string[][] = [];

  before(async () => {
    world = await DashboardWorld.start();
    const opened = await ownerWithOrganization(world);
    owner = opened.page;
    problems.push(opened.problems);
    orgPath = opened.orgPath;
  });
  after(async () => {
    await world?.stop();
  });

  test('a test API key is created and shown once, prints with the REST API, and once revoked is refused', async () => {
    await owner.goto(`${orgPath}/developers`);
    await owner.getByText('No live key yet.', { exact: false }).waitFor();
    await owner.getByRole('switch', { name: 'Test mode' }).check();
    await owner.getByText('Test data:', { exact: false }).waitFor();
    assert.match(owner.url(), /mode=test/);
    await owner.getByRole('button', { name: 'New API key' }).click();
    await owner.getByLabel('Key name').fill('Till 2');
    assert.equal(await owner.getByRole('radio', { name: /^Test/ }).isChecked(), true);
    await owner.getByRole('button', { name: 'Create key' }).click();
    const key =
      (
        await owner.getByRole('region').or(owner.locator('.secret pre')).first().textContent()
      )?.trim() ?? '';
    assert.match(key, /^pw_test_/);
    await owner.getByText('it will not be shown again', { exact: false }).waitFor();
    await assertAccessible(owner, 'developers, key shown once');

    const printers = await fetch(`${world.url}/v1/printers`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(printers.status, 200);

    await owner.getByRole('button', { name: 'Done' }).click();
    await owner.getByRole('cell', { name: 'Till 2', exact: true }).waitFor();
    assert.equal(await owner.locator('.secret').count(), 0, 'the key is not shown again');
    await owner.getByRole('button', { name: 'Revoke Till 2' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Revoke the key "Till 2"?' });
    await dialog.waitFor();
    await assertAccessible(owner, 'revoke dialog');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await owner.getByText('No test key yet.', { exact: false }).waitFor();
    const refused = await fetch(`${world.url}/v1/printers`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(refused.status, 401);

    await owner.getByRole('switch', { name: 'Test mode' }).uncheck();
    // Back to live data: the band goes once the page shows them.
    await owner.getByText('Test data:', { exact: false }).waitFor({ state: 'detached' });
    await owner.getByText('No live key yet.', { exact: false }).waitFor();
  });

  test('local mode: a signing key is created with its private key shown once, then revoked; allowed origins are checked line by line and saved', async () => {
    await owner.goto(`${orgPath}/developers`);
    const main = owner.getByRole('main');
    await main.getByText('No signing key yet.', { exact: false }).waitFor();
    await main.getByRole('button', { name: 'New signing key' }).click();
    await main.getByLabel('Key name').fill('Web shop server');
    await main.getByRole('button', { name: 'Create signing key' }).click();
    await main.getByRole('heading', { name: 'Signing key "Web shop server" created' }).waitFor();
    const pem = (await main.locator('.secret pre').textContent())?.trim() ?? '';
    assert.equal(createPrivateKey(pem).asymmetricKeyType, 'ed25519');
    await assertAccessible(owner, 'developers, signing key shown once');
    await main.getByRole('button', { name: 'Done' }).click();
    await main.getByRole('cell', { name: 'Web shop server', exact: true }).waitFor();
    assert.equal(await main.locator('.secret').count(), 0, 'the private key is not shown again');
    await main.getByRole('button', { name: 'Revoke Web shop server' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Revoke the signing key "Web shop server"?' });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await main.getByText('No signing key yet.', { exact: false }).waitFor();

    const origins = main.getByLabel('Origins that may print without a signature');
    await origins.fill('https://shop.example.com\nhttps://shop.example.com/till');
    await main.getByRole('button', { name: 'Save origins' }).click();
    await main.getByText('https://shop.example.com/till:', { exact: false }).waitFor();
    assert.equal(await origins.getAttribute('aria-invalid'), 'true');
    await assertAccessible(owner, 'developers, an origin refused');
    await origins.fill('https://shop.example.com\n\nhttp://localhost:3000');
    await main.getByRole('button', { name: 'Save origins' }).click();
    await main.getByText('Saved. The agents receive the list within seconds.').waitFor();
    await owner.reload();
    await main.getByLabel('Origins that may print without a signature').waitFor();
    assert.equal(
      await main.getByLabel('Origins that may print without a signature').inputValue(),
      'https://shop.example.com\nhttp://localhost:3000',
    );
  });

  test('a 5xx after the page loaded keeps the last data, greyed and busy, under the message and Retry', async () => {
    await owner.goto(`${orgPath}/developers`);
    await owner.getByText('No live key yet.', { exact: false }).waitFor();
    let down = true;
    // The list answers 503 from now on; creating a key still works, and refreshes the list.
    await owner.route('**/orgs/*/api-keys', (route) =>
      down && route.request().method() === 'GET'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({
              error: { code: 'UNAVAILABLE', message: 'down', retryable: true },
              requestId: 'req_test',
            }),
          })
        : route.continue(),
    );
    await owner.getByRole('button', { name: 'New API key' }).click();
    await owner.getByLabel('Key name').fill('Till 3');
    await owner.getByRole('button', { name: 'Create key' }).click();
    const alert = owner.getByRole('alert').filter({ hasText: 'Something went wrong on our side' });
    await alert.waitFor();
    const main = owner.getByRole('main');
    // The page is still there, greyed, with the key shown once still on it.
    await main.getByRole('heading', { name: 'Developers', level: 1 }).waitFor();
    assert.match((await owner.locator('.secret pre').textContent()) ?? '', /^pw_live_/);
    const content = main.locator('.last-data');
    assert.equal(await content.getAttribute('aria-busy'), 'true');
    assert.equal(
      await owner.evaluate(
        `document.querySelector('[role=alert]').compareDocumentPosition(document.querySelector('.last-data')) & Node.DOCUMENT_POSITION_FOLLOWING`,
      ),
      4,
      'the message and Retry come before the data',
    );
    down = false;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await alert.waitFor({ state: 'detached' });
    assert.equal(await content.getAttribute('aria-busy'), null);
    await owner.getByRole('button', { name: 'Done' }).click();
    await owner.getByRole('cell', { name: 'Till 3', exact: true }).waitFor();
    await owner.unroute('**/orgs/*/api-keys');
  });

  test('settings are saved, and deleting an organization asks for its typed name', async () => {
    await owner.goto(`${orgPath}/settings`);
    await owner.getByLabel('Keep jobs for').selectOption('30');
    await owner.getByLabel('Development mode').check();
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await owner.getByText('Settings saved.').waitFor();
    await owner.reload();
    assert.equal(await owner.getByLabel('Keep jobs for').inputValue(), '30');
    assert.equal(await owner.getByLabel('Development mode').isChecked(), true);
    await assertAccessible(owner, 'settings');

    await owner
      .getByLabel('Organization', { exact: true })
      .selectOption({ label: 'New organization…' });
    await owner.getByRole('heading', { name: 'New organization' }).waitFor();
    await owner.getByLabel('Organization name').fill('Closing shop');
    await owner.getByRole('button', { name: 'Create organization' }).click();
    await owner.getByRole('heading', { name: 'Closing shop' }).waitFor();
    await owner.getByRole('link', { name: 'Settings' }).click();
    await owner.getByRole('button', { name: 'Delete organization…' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Delete Closing shop?' });
    const confirm = dialog.getByRole('button', { name: 'Delete organization' });
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel('Type Closing shop to confirm').fill('Closing sho');
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel('Type Closing shop to confirm').fill('Closing shop');
    await assertAccessible(owner, 'delete dialog');
    await confirm.click();
    await owner.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    assert.equal(await owner.getByRole('option', { name: 'Closing shop' }).count(), 0);
  });

  test('billing shows the plan, the monthly quota, the use and the next reset', async () => {
    await owner.goto(`${orgPath}/billing`);
    await owner.getByRole('heading', { name: 'Billing' }).waitFor();
    await owner.getByText('1,000 jobs a month').waitFor();
    await owner.getByText('0 of 1,000 jobs used this month').waitFor();
    await owner.getByText('The count starts again on', { exact: false }).waitFor();
    await assertAccessible(owner, 'billing');
  });

  test('no page broke the Content-Security-Policy or threw', () => {
    assert.deepEqual(problems.flat(), []);
  });
});
