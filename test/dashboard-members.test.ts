/**
 * The web dashboard's members pages in Chromium against a real cloud process: an invitation
 * mailed, accepted by a second person who signs up from it, roles (a viewer is offered no write
 * action), and the password reset from the mailed link; axe-core on every page.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  DashboardWorld,
  OWNER,
  assertAccessible,
  logIn,
  ownerWithOrganization,
  signUpAndVerify,
} from './dashboard-support.js';

const SECOND = {
  name: 'Jean Pierre',
  email: 'jean@shop.example',
  password: 'a long second password',
};

describe('the dashboard’s members pages in a browser', () => {
  let world: DashboardWorld;
  let owner: Page;
  let second: Page;
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

  test('the owner invites a second person, who signs up from the mailed link and joins', async () => {
    await owner.getByRole('link', { name: 'Members' }).click();
    await owner.getByRole('heading', { name: 'Members' }).waitFor();
    await owner.getByText('The last owner cannot be removed or changed.').waitFor();
    await owner.getByLabel('Email').fill(SECOND.email);
    await owner.getByLabel('Role').selectOption('developer');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(`Invitation sent to ${SECOND.email}.`).waitFor();
    await owner.getByRole('cell', { name: SECOND.email, exact: true }).waitFor();
    await assertAccessible(owner, 'members');

    const link = await world.mailLink(SECOND.email, '/invitations/accept?token=');
    const opened = await world.page();
    second = opened.page;
    problems.push(opened.problems);
    await second.goto(link);
    await second.getByRole('heading', { name: 'Join an organization' }).waitFor();
    await assertAccessible(second, 'invitation, signed out');
    await second.getByRole('link', { name: 'Sign up' }).click();
    await signUpAndVerify(world, second, SECOND);
    await second.goto(link);
    await second.getByRole('link', { name: 'Log in' }).click();
    await logIn(second, SECOND);
    // Back on the invitation after logging in.
    await second.getByRole('button', { name: 'Accept invitation' }).click();
    await second.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    await second.getByText('Your role here: Developer.').waitFor();
  });

  test('the owner makes the second person a viewer, who is then offered no write action', async () => {
    await owner.reload();
    // Waited for from before the change: the list's refetch can answer before a later wait.
    const saved = owner.waitForResponse(
      (r) => r.url().includes('/members/') && r.request().method() === 'PATCH',
    );
    const refetched = saved.then(() =>
      owner.waitForResponse((r) => r.url().includes('/members') && r.request().method() === 'GET'),
    );
    await owner.getByLabel(`Role of ${SECOND.name}`).selectOption('viewer');
    assert.equal((await saved).status(), 200);
    await refetched;
    assert.equal(await owner.getByLabel(`Role of ${SECOND.name}`).inputValue(), 'viewer');

    await second.goto(`${orgPath}/members`);
    await second.getByRole('cell', { name: OWNER.email }).waitFor();
    assert.equal(await second.getByRole('button', { name: 'Send invitation' }).count(), 0);
    assert.equal(await second.getByRole('combobox', { name: /^Role of/ }).count(), 0);
    assert.equal(await second.getByRole('button', { name: 'Remove' }).count(), 0);
    await second.goto(`${orgPath}/developers`);
    await second.getByRole('heading', { name: 'Developers' }).waitFor();
    assert.equal(await second.getByRole('button', { name: 'New API key' }).count(), 0);
    await second.goto(`${orgPath}/settings`);
    await second.getByText('Only owners and admins can change these settings.').waitFor();
    assert.equal(await second.getByRole('button', { name: 'Save settings' }).count(), 0);
    assert.equal(await second.getByRole('button', { name: 'Delete organization…' }).count(), 0);
    await assertAccessible(second, 'settings (viewer)');
  });

  test('a forgotten password is reset from the mailed link', async () => {
    const { page, problems: p } = await world.page();
    problems.push(p);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await assertAccessible(page, 'forgot password');
    await page.getByLabel('Email').fill(SECOND.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page.goto(await world.mailLink(SECOND.email, '/reset-password?token='));
    await assertAccessible(page, 'reset password');
    SECOND.password = 'a brand new second password';
    await page.getByLabel('New password').fill(SECOND.password);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Your password is changed' }).waitFor();
    await page.getByRole('link', { name: 'Log in' }).click();
    await logIn(page, SECOND);
    await page.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    await page.context().close();
  });

  test('no page broke the Content-Security-Policy or threw', () => {
    assert.deepEqual(problems.flat(), []);
  });
});
