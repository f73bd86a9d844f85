/**
 * The dashboard's devices page in Chromium against a real cloud process and a real agent
 * process: an activation code created and shown with its expiry, the agent activated with it
 * appearing online without a reload (the live channel), then offline when it stops; renamed,
 * grouped and deactivated after a question naming it; a device-offline alert opened and resolved;
 * a viewer offered no action; axe-core and 375 px.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  DashboardWorld,
  OWNER,
  PHONE,
  assertAccessible,
  accessTokenOf,
  logIn,
  memberWithRole,
  ownerWithOrganization,
  scrollsSideways,
} from './dashboard-support.js';
import { AgentProcess, tempDir, waitUntil } from './e2e-support.js';

describe('the dashboard’s devices in a browser', () => {
  let world: DashboardWorld;
  let owner: Page;
  let orgPath = '';
  let orgId = '';
  let agent: AgentProcess | undefined;
  const agentDir = tempDir('pw-devices-agent-');
  const problems: string[][] = [];

  before(async () => {
    world = await DashboardWorld.start();
    const opened = await ownerWithOrganization(world);
    ({ page: owner, orgPath, orgId } = opened);
    problems.push(opened.problems);
  });
  after(async () => {
    await agent?.kill();
    await world?.stop();
  });

  test('with no device the page says what to do, and an activation code is created and shown with its expiry', async () => {
    await owner.goto(`${orgPath}/devices`);
    await owner
      .getByText('Install the agent on the shop’s computer, then enter this activation code.')
      .waitFor();
    await assertAccessible(owner, 'devices, empty');
    await owner.getByRole('button', { name: 'Create an activation code' }).click();
    const code = (await owner.getByLabel('Activation code', { exact: true }).textContent()) ?? '';
    assert.ok(code.length >= 8, `a code: ${code}`);
    await owner.getByText('Valid until', { exact: false }).waitFor();
    await owner.getByRole('button', { name: 'Copy' }).waitFor();
    await assertAccessible(owner, 'devices, a code shown');

    agent = AgentProcess.start([
      ...['--data-dir', agentDir, '--cloud', world.url],
      ...['--activation-code', code, '--name', 'Till PC'],
    ]);
    // No reload: the live channel brings the device in, online.
    const row = owner.getByRole('row').filter({ hasText: 'Till PC' });
    await row.getByText('Online', { exact: true }).waitFor({ timeout: 20_000 });
    await row.getByText(process.platform, { exact: false }).waitFor();
    await row.locator('time').first().waitFor();
    await assertAccessible(owner, 'devices, one online');
  });

  test('the devices page with a device at 375 px: no sideways scrolling, axe-core clean', async () => {
    const { page, problems: p } = await world.page({ viewport: PHONE });
    problems.push(p);
    await page.goto('/login');
    await logIn(page, OWNER);
    await page.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    await page.goto(`${orgPath}/devices`);
    await page.getByRole('row').filter({ hasText: 'Till PC' }).getByText('Online').waitFor();
    assert.equal(await scrollsSideways(page), false, 'devices');
    await assertAccessible(page, 'phone devices');
    await page.context().close();
  });

  test('a device is renamed and grouped, and goes offline in place when its agent stops', async () => {
    await owner.getByRole('button', { name: 'Rename or group Till PC' }).click();
    const edit = owner.getByRole('dialog', { name: 'Device "Till PC"' });
    await edit.getByLabel('Name').fill('Counter PC');
    await edit.getByLabel('Group').fill('Pétion-Ville shop');
    await assertAccessible(owner, 'device edit dialog');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const row = owner.getByRole('row').filter({ hasText: 'Counter PC' });
    await row.getByText('Group: Pétion-Ville shop').waitFor();

    await agent!.kill('SIGTERM');
    await row.getByText('Offline', { exact: true }).waitFor({ timeout: 20_000 });
  });

  test('a device-offline alert rule opens an alert when the agent stops and resolves it when it is back', async () => {
    await world.setPlan(orgId, 'business');
    const token = await accessTokenOf(world, OWNER);
    const alerts = async () => {
      const res = await fetch(`${world.url}/orgs/${orgId}/alerts`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { data: Array<{ state: string }> }).data;
    };
    await owner.goto(`${orgPath}/webhooks`);
    await owner.getByRole('button', { name: 'New alert rule' }).click();
    await owner.getByLabel('When').selectOption({ label: 'A device goes offline' });
    await owner.getByRole('button', { name: 'Create rule' }).click();
    await owner.getByRole('row').filter({ hasText: 'A device goes offline' }).waitFor();
    // The rule sees changes from now on: the agent comes back, then stops again.
    agent = AgentProcess.start(['--data-dir', agentDir, '--cloud', world.url]);
    await owner.goto(`${orgPath}/devices`);
    const row = owner.getByRole('row').filter({ hasText: 'Counter PC' });
    await row.getByText('Online', { exact: true }).waitFor({ timeout: 20_000 });
    await agent.kill('SIGTERM');
    await row.getByText('Offline', { exact: true }).waitFor({ timeout: 20_000 });
    await waitUntil('an open alert', async () => ((await alerts()).length > 0 ? true : undefined));
    await owner.goto(`${orgPath}/webhooks`);
    const alert = owner.getByRole('row').filter({ hasText: 'Counter PC' });
    await alert.getByText('Open', { exact: true }).waitFor();
    await alert.getByRole('cell', { name: 'A device goes offline' }).waitFor();

    agent = AgentProcess.start(['--data-dir', agentDir, '--cloud', world.url]);
    await waitUntil(
      'the alert resolved',
      async () => ((await alerts())[0]?.state === 'resolved' ? true : undefined),
      { timeoutMs: 20_000 },
    );
    await owner.reload();
    await alert.getByText('Resolved', { exact: true }).waitFor();
    await assertAccessible(owner, 'webhooks with a resolved alert');
  });

  test('a device is deactivated after a question naming it', async () => {
    await owner.goto(`${orgPath}/devices`);
    const row = owner.getByRole('row').filter({ hasText: 'Counter PC' });

    await row.getByRole('button', { name: 'Deactivate Counter PC' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Deactivate the device "Counter PC"?' });
    await dialog.getByText('its printers stop printing', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await owner
      .getByText('Install the agent on the shop’s computer, then enter this activation code.')
      .waitFor();
  });

  test('a viewer is offered no action on the devices, templates and webhooks pages', async () => {
    const viewer = {
      name: 'Paul Viewer',
      email: 'paul@shop.example',
      password: 'a long viewer password',
    };
    await memberWithRole(world, OWNER, orgId, viewer, 'viewer');
    const { page, problems: p } = await world.page();
    problems.push(p);
    await page.goto('/login');
    await logIn(page, viewer);
    await page.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    await page.goto(`${orgPath}/devices`);
    await page.getByText('Ask an owner, an admin or a developer', { exact: false }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create an activation code' }).count(), 0);
    await page.goto(`${orgPath}/templates`);
    await page.getByRole('heading', { name: 'Gallery' }).waitFor();
    await page.getByText('Retail sale').first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create template' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /^Use this template/ }).count(), 0);
    await page.goto(`${orgPath}/webhooks`);
    await page.getByText('No live endpoint yet.', { exact: false }).waitFor();
    await page.getByRole('row').filter({ hasText: 'A device goes offline' }).first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'New endpoint' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'New alert rule' }).count(), 0);
    await page.context().close();
  });

  test('no page broke the Content-Security-Policy or threw', () => {
    assert.deepEqual(problems.flat(), []);
  });
});
