/**
 * The dashboard on a phone (375 px wide): the menu button opens the navigation, no page scrolls
 * sideways, and axe-core finds no serious violation at that width.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DashboardWorld,
  PHONE,
  assertAccessible,
  logIn,
  scrollsSideways,
  verifiedAccount,
} from './dashboard-support.js';

const OWNER = {
  name: 'Marie Joseph',
  email: 'marie@shop.example',
  password: 'a long owner password',
};

describe('the dashboard on a phone', () => {
  let world: DashboardWorld;
  let orgPath = '';
  const problems: string[][] = [];

  before(async () => {
    world = await DashboardWorld.start();
    await verifiedAccount(world, OWNER);
  });
  after(async () => {
    await world?.stop();
  });

  test('signing up for an organization works at 375 px', async () => {
    const { page, problems: p } = await world.page({ viewport: PHONE });
    problems.push(p);
    await page.goto('/login');
    assert.equal(await scrollsSideways(page), false, 'login');
    await assertAccessible(page, 'phone login');
    await logIn(page, OWNER);
    await page.getByLabel('Organization name').fill('Boulangerie Marie');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    orgPath = new URL(page.url()).pathname;
    await page.context().close();
  });

  test('on a phone (375 px) the menu button opens the navigation and no page scrolls sideways', async () => {
    const { page, problems: p } = await world.page({ viewport: PHONE });
    problems.push(p);
    await page.goto('/login');
    assert.equal(await scrollsSideways(page), false, 'login');
    await logIn(page, OWNER);
    await page.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Members' }).isVisible(), false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    for (const path of ['/members', '/developers', '/settings', '/billing', '']) {
      await page.goto(`${orgPath}${path}`);
      await page.locator('h1').waitFor();
      assert.equal(await scrollsSideways(page), false, path || 'overview');
      await assertAccessible(page, `phone ${path || 'overview'}`);
    }
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    assert.equal(await scrollsSideways(page), false, 'account');
    await page.context().close();
  });

  test('no page broke the Content-Security-Policy or threw', () => {
    assert.deepEqual(problems.flat(), []);
  });
});
