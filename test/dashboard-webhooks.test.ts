/**
 * The dashboard's webhooks page in Chromium against a real cloud process and a local receiver:
 * the plan gate in words, an endpoint created with its secret shown once, a webhook.test event
 * that arrives signed with it, its delivery shown with the receiver's status code and resent,
 * the secret rotated (the next delivery is signed with the new one), the endpoint disabled and
 * enabled again; alert rules created and deleted; axe-core and 375 px.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { verifyWebhookSignature } from '@printwire/shared/webhook/index';
import { startReceiver, type Receiver } from '@printwire/cloud/testing';
import {
  DashboardWorld,
  OWNER,
  PHONE,
  assertAccessible,
  logIn,
  ownerWithOrganization,
  scrollsSideways,
} from './dashboard-support.js';

describe('the dashboard’s webhooks in a browser', () => {
  let world: DashboardWorld;
  let receiver: Receiver;
  let owner: Page;
  let orgPath = '';
  let orgId = '';
  const problems: string[][] = [];

  before(async () => {
    world = await DashboardWorld.start();
    receiver = await startReceiver();
    const opened = await ownerWithOrganization(world, OWNER, 'Boulangerie Marie');
    ({ page: owner, orgPath, orgId } = opened);
    problems.push(opened.problems);
  });
  after(async () => {
    await receiver?.close();
    await world?.stop();
  });

  test('below the Business plan the page says so in words, with a link to Billing', async () => {
    await owner.goto(`${orgPath}/webhooks`);
    await owner
      .getByText('Webhooks and alerts come with the Business plan', { exact: false })
      .waitFor();
    await assertAccessible(owner, 'webhooks below Business');
    await owner.getByRole('link', { name: 'See your plan in Billing.' }).click();
    await owner.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    await world.setPlan(orgId, 'business');
  });

  test('an endpoint gets a webhook.test signed with its secret; the delivery shows its status code and is resent; a rotated secret signs the next', async () => {
    await owner.goto(`${orgPath}/webhooks`);
    await owner.getByText('No live endpoint yet.', { exact: false }).waitFor();
    await owner.getByRole('button', { name: 'New endpoint' }).click();
    await owner.getByLabel('Endpoint URL').fill(receiver.url);
    await owner.getByLabel('Description (optional)').fill('Order system');
    await owner.getByRole('checkbox', { name: 'printer.offline' }).check();
    await owner.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = (await owner.getByLabel('Signing secret', { exact: true }).textContent()) ?? '';
    assert.match(secret, /^whsec_/);
    await owner.getByText('it will not be shown again', { exact: false }).waitFor();
    await owner.getByRole('button', { name: 'Done' }).click();
    assert.equal(await owner.locator('.secret').count(), 0, 'the secret is not shown again');

    await owner.getByRole('button', { name: receiver.url }).click();
    assert.match(owner.url(), /endpoint=whk_/);
    await owner.getByRole('heading', { name: `Endpoint ${receiver.url}` }).waitFor();
    await owner.getByText('Nothing sent yet.', { exact: false }).waitFor();
    receiver.respond = (_r, index) => (index === 0 ? 503 : 200);
    await owner.getByRole('button', { name: 'Send test event' }).click();
    await receiver.waitFor(1);
    const first = receiver.received[0]!;
    assert.equal(first.body.type, 'webhook.test');
    const signature = first.headers['printwire-signature'] as string;
    assert.equal(verifyWebhookSignature(secret, signature, first.raw).ok, true);

    const row = owner.getByRole('row').filter({ hasText: 'webhook.test' });
    await row.getByRole('cell', { name: '503', exact: true }).waitFor();
    await row.getByText('Waiting').waitFor();
    await row.getByText('Body sent').click();
    await row.getByText(`"id": "${first.body.id}"`, { exact: false }).waitFor();
    await assertAccessible(owner, 'webhooks, a delivery that failed');
    await row.getByRole('button', { name: 'Resend webhook.test' }).click();
    await receiver.waitFor(2);
    assert.equal(receiver.received[1]!.body.id, first.body.id, 'the same event again');
    assert.equal(receiver.received[1]!.raw, first.raw, 'the same body');
    await row.getByRole('cell', { name: '200', exact: true }).waitFor();
    await row.getByText('Delivered').waitFor();

    await owner.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = owner.getByRole('dialog', { name: `Rotate the secret of ${receiver.url}?` });
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated =
      (await dialog.getByLabel('New signing secret', { exact: true }).textContent()) ?? '';
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    await dialog.getByRole('button', { name: 'Done' }).click();
    assert.equal(await owner.locator('.secret').count(), 0, 'the new secret is not shown again');
    await owner.getByRole('button', { name: 'Send test event' }).click();
    await receiver.waitFor(3);
    const third = receiver.received[2]!;
    const header = third.headers['printwire-signature'] as string;
    assert.equal(verifyWebhookSignature(rotated, header, third.raw).ok, true);
    assert.equal(verifyWebhookSignature(secret, header, third.raw).ok, false);
  });

  test('an endpoint is disabled and enabled again', async () => {
    await owner.getByRole('button', { name: 'Disable' }).click();
    await owner
      .getByText('Disabled by a member. Nothing is sent until it is enabled again.')
      .waitFor();
    await owner.getByRole('cell', { name: 'Disabled' }).waitFor();
    await owner.getByRole('button', { name: 'Enable again' }).click();
    await owner.getByRole('cell', { name: 'Enabled' }).waitFor();
  });

  test('the test/live switch shows the endpoints of its own mode', async () => {
    await owner.getByRole('switch', { name: 'Test mode' }).check();
    await owner.getByText('No test endpoint yet.', { exact: false }).waitFor();
    assert.equal(await owner.getByRole('button', { name: receiver.url }).count(), 0);
    await owner.getByRole('switch', { name: 'Test mode' }).uncheck();
    await owner.getByRole('button', { name: receiver.url }).waitFor();
  });

  test('alert rules are created with their channels and deleted after a question', async () => {
    await owner.getByText('No alert rule yet.').waitFor();
    await owner.getByText('No alert so far.').waitFor();
    await owner.getByRole('button', { name: 'New alert rule' }).click();
    await owner.getByLabel('When').selectOption({ label: 'Too many jobs fail' });
    await owner.getByLabel('Failed jobs (%)').fill('25');
    await owner.getByRole('checkbox', { name: 'Webhook' }).check();
    await owner.getByRole('button', { name: 'Create rule' }).click();
    const rule = owner.getByRole('row').filter({ hasText: 'Too many jobs fail' });
    await rule.getByText('25 % of jobs failed over 60 min (at least 10 jobs)').waitFor();
    await rule.getByRole('cell', { name: 'Webhook, E-mail to the owners' }).waitFor();
    await assertAccessible(owner, 'webhooks with an alert rule');
    await rule.getByRole('button', { name: 'Delete the rule Too many jobs fail' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Delete the rule "Too many jobs fail"?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await owner.getByText('No alert rule yet.').waitFor();
  });

  test('the webhooks page at 375 px: no sideways scrolling, axe-core clean', async () => {
    const { page, problems: p } = await world.page({ viewport: PHONE });
    problems.push(p);
    await page.goto('/login');
    await logIn(page, OWNER);
    await page.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    await page.goto(`${orgPath}/webhooks`);
    await page.getByRole('button', { name: receiver.url }).click();
    await page.getByRole('row').filter({ hasText: 'webhook.test' }).first().waitFor();
    assert.equal(await scrollsSideways(page), false, 'webhooks');
    await assertAccessible(page, 'phone webhooks');
    await page.context().close();
  });

  test('no page broke the Content-Security-Policy or threw', () => {
    assert.deepEqual(problems.flat(), []);
  });
});
