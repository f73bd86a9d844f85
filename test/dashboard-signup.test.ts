/**
 * The web dashboard's account pages in Chromium against a real cloud process: sign up, verify
 * from the mailed link, log in, a first organization, the session across a reload, the three
 * languages, the account's name and language, two-factor setup and login with a computed code, a
 * lost connection; axe-core on every page.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  DashboardWorld,
  OWNER,
  assertAccessible,
  logIn,
  signUpAndVerify,
  totp,
} from './dashboard-support.js';

describe('the dashboard’s sign-up, session and account pages in a browser', () => {
  let world: DashboardWorld;
  let owner: Page;
  let secret = '';
  let orgPath = '';
  const problems: string[][] = [];

  before(async () => {
    world = await DashboardWorld.start();
  });
  after(async () => {
    await world?.stop();
  });

  test('a shop owner signs up, confirms the address from the mail, logs in and creates an organization', async () => {
    const opened = await world.page();
    owner = opened.page;
    problems.push(opened.problems);
    await owner.goto('/');
    await owner.waitForURL(/\/login\?next=/);
    await owner.getByRole('link', { name: 'Sign up' }).click();
    await assertAccessible(owner, 'sign up');
    // The API's message lands under the field it names.
    await owner.getByLabel('Name').fill(OWNER.name);
    await owner.getByLabel('Email').fill(OWNER.email);
    await owner.getByLabel('Password').fill('short');
    await owner.getByRole('button', { name: 'Sign up' }).click();
    await owner.getByRole('alert').filter({ hasText: 'At least 10 characters.' }).waitFor();
    assert.equal(await owner.getByLabel('Password').getAttribute('aria-invalid'), 'true');
    await owner.goto('/signup');
    await signUpAndVerify(world, owner, OWNER);
    await owner.getByRole('link', { name: 'Log in' }).click();
    await assertAccessible(owner, 'log in');
    await logIn(owner, OWNER);
    await owner.getByRole('heading', { name: 'New organization' }).waitFor();
    await assertAccessible(owner, 'new organization');
    await owner.getByLabel('Organization name').fill('Boulangerie Marie');
    await owner.getByRole('button', { name: 'Create organization' }).click();
    await owner.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    orgPath = new URL(owner.url()).pathname;
    assert.match(orgPath, /^\/o\/[\w-]+$/);
    await assertAccessible(owner, 'overview');
  });

  test('the session survives a reload through the refresh cookie, and no token is kept in storage', async () => {
    await owner.reload();
    await owner.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    // Page code as strings: this folder's TypeScript has no DOM types.
    const stored = await owner.evaluate(
      '({ local: Object.keys(localStorage), session: Object.keys(sessionStorage) })',
    );
    assert.deepEqual(stored, { local: [], session: [] });
    const cookies = await owner.context().cookies();
    const refresh = cookies.find((c) => c.name === 'pw_refresh');
    assert.ok(refresh?.httpOnly, 'the refresh cookie is httpOnly');
  });

  test('the language switcher offers English, Français and Kreyòl ayisyen, and <html lang> follows', async () => {
    const { page, problems: p } = await world.page({ locale: 'fr-FR' });
    problems.push(p);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Se connecter' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    await page.getByLabel('Langue').selectOption({ label: 'Kreyòl ayisyen' });
    await page.getByRole('button', { name: 'Konekte' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'ht');
    await page.getByLabel('Modpas').waitFor();
    await assertAccessible(page, 'login in Creole');
    await page.reload();
    await page.getByRole('button', { name: 'Konekte' }).waitFor();
    await page.getByLabel('Lang').selectOption({ label: 'English' });
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await page.context().close();
  });

  test('two-factor is set up from the QR code page, then logging in asks for a code', async () => {
    await owner.goto('/account');
    await owner.getByRole('heading', { name: 'Your account' }).waitFor();
    await assertAccessible(owner, 'account');
    await owner.getByRole('button', { name: 'Set up two-factor' }).click();
    await owner.getByRole('img', { name: 'QR code to scan with the authenticator app' }).waitFor();
    // The QR code is drawn: the canvas is not blank.
    const drawn = await owner.evaluate(`(() => {
      const canvas = document.querySelector('canvas');
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      return pixels.some((v, i) => i % 4 === 0 && v < 50);
    })()`);
    assert.equal(drawn, true);
    secret = (await owner.getByLabel('Setup key').textContent())?.trim() ?? '';
    assert.match(secret, /^[A-Z2-7]{16,}$/);
    await assertAccessible(owner, 'two-factor setup');
    await owner.getByRole('textbox', { name: 'Code' }).fill(totp(secret, -1));
    await owner.getByRole('button', { name: 'Turn on two-factor' }).click();
    await owner.getByText('Two-factor authentication is on.').waitFor();
    const codes = (await owner.locator('.secret pre').textContent()) ?? '';
    assert.equal(codes.trim().split('\n').length, 10);
    await owner.getByRole('button', { name: 'Download' }).waitFor();
    await assertAccessible(owner, 'recovery codes');
    await owner.getByRole('button', { name: 'I have saved my codes' }).click();
    await owner.getByText('Your account asks for a code', { exact: false }).waitFor();

    await owner.locator('.user-menu summary').click();
    await owner.getByRole('button', { name: 'Log out' }).click();
    await owner.getByRole('heading', { name: 'Log in to Printwire' }).waitFor();
    await logIn(owner, OWNER);
    await owner.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await assertAccessible(owner, 'two-factor challenge');
    await owner.getByRole('textbox', { name: 'Code' }).fill('000000');
    await owner.getByRole('button', { name: 'Log in' }).click();
    await owner.getByText('That code is not right, or it was already used.').waitFor();
    await owner.getByRole('textbox', { name: 'Code' }).fill(totp(secret, 0));
    await owner.getByRole('button', { name: 'Log in' }).click();
    await owner.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
  });

  test('two-factor is turned off with a code from the app, after which logging in asks for none', async () => {
    await owner.goto('/account');
    const main = owner.getByRole('main');
    await main.getByRole('button', { name: 'Turn off two-factor' }).waitFor();
    await main.getByLabel('Code or recovery code').fill('000000');
    await main.getByRole('button', { name: 'Turn off two-factor' }).click();
    await main.getByText('That code is not right, or it was already used.').waitFor();
    await main.getByLabel('Code or recovery code').fill(totp(secret, 1));
    await main.getByRole('button', { name: 'Turn off two-factor' }).click();
    await main.getByRole('button', { name: 'Set up two-factor' }).waitFor();
    await assertAccessible(owner, 'account with two-factor off');

    await owner.locator('.user-menu summary').click();
    await owner.getByRole('button', { name: 'Log out' }).click();
    await owner.getByRole('heading', { name: 'Log in to Printwire' }).waitFor();
    await logIn(owner, OWNER);
    await owner.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
  });

  test('the account page changes the name and the language, and the saved language becomes the interface’s', async () => {
    await owner.goto('/account');
    const main = owner.getByRole('main');
    await main.getByRole('heading', { name: 'Your account' }).waitFor();
    assert.equal(await main.getByLabel('Name').inputValue(), OWNER.name);
    await main.getByLabel('Name').fill('');
    await main.getByRole('button', { name: 'Save' }).click();
    await main.getByText('Required.').waitFor();
    assert.equal(await main.getByLabel('Name').getAttribute('aria-invalid'), 'true');
    await main.getByLabel('Name').fill('Marie-Claire Joseph');
    await main.getByLabel('Language').selectOption({ label: 'Français' });
    await main.getByRole('button', { name: 'Save' }).click();
    await main.getByRole('heading', { name: 'Votre compte' }).waitFor();
    await main.getByText('Enregistré.').waitFor();
    assert.equal(await owner.getAttribute('html', 'lang'), 'fr');
    await assertAccessible(owner, 'account in French');
    // Both are the account's now, not just the page's.
    await owner.reload();
    await main.getByRole('heading', { name: 'Votre compte' }).waitFor();
    assert.equal(await main.getByLabel('Nom').inputValue(), 'Marie-Claire Joseph');
    assert.equal(await main.getByLabel('Langue').inputValue(), 'fr');
    // The API's field errors are said in the page's language, under the field they name.
    await main.getByLabel('Nom').fill('');
    await main.getByRole('button', { name: 'Enregistrer' }).click();
    await main.getByText('Obligatoire.').waitFor();
    assert.equal(await main.getByLabel('Nom').getAttribute('aria-invalid'), 'true');
    await main.getByLabel('Nom').fill('Marie-Claire Joseph');
    await main.getByLabel('Langue').selectOption({ label: 'English' });
    await main.getByRole('button', { name: 'Enregistrer' }).click();
    await main.getByRole('heading', { name: 'Your account' }).waitFor();
    assert.equal(await owner.getAttribute('html', 'lang'), 'en');
  });

  test('a lost connection shows what happened and Retry, which loads the page once it is back', async () => {
    let down = true;
    await owner.route('**/orgs/*/billing', (route) =>
      down ? route.abort('connectionrefused') : route.continue(),
    );
    await owner.goto(`${orgPath}/billing`);
    await owner.getByText('Printwire cannot be reached.', { exact: false }).waitFor();
    down = false;
    await owner.getByRole('button', { name: 'Retry' }).click();
    await owner.getByRole('heading', { name: 'Billing' }).waitFor();
    await owner.unroute('**/orgs/*/billing');
  });

  test('no page broke the Content-Security-Policy or threw', () => {
    assert.deepEqual(problems.flat(), []);
  });
});
