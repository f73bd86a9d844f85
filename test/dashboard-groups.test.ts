/**
 * The dashboard's printer groups in Chromium, against a real cloud process and a real agent with
 * three fake TCP printers (Kitchen 1 on one agent, Kitchen 2 and Bar on another): a group of three
 * printers created, reordered with buttons and the keyboard, its strategy chosen and changed,
 * deleted after a question naming it; a member's status changing on the open page without a
 * reload; a job sent to the group from the Jobs page, and a job that moved off Kitchen 1 (the
 * printer stopped answering before a byte was sent) naming where it printed and where it moved
 * from. axe-core on each page, and no sideways scrolling at 375 px.
 *
 * The group's jobs: the job list filtered to them from the group's page and from the list of
 * groups, the filter changed on the page, and a job sent to the group appearing in the filtered
 * list without a reload.
 *
 * With PRINTWIRE_SCREENSHOTS=DIR (or PRINTWIRE_SHOTS=DIR, its older name) it also leaves the
 * pages' pictures in DIR (1280 and 375 px, en, fr, ht) for a person to look at.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  DESKTOP,
  DashboardWorld,
  PHONE,
  assertAccessible,
  callApi,
  agentWithPrinters,
  logIn,
  memberWithRole,
  orgWithAgentPrinters,
  scrollsSideways,
} from './dashboard-support.js';
import { waitUntil, type AgentProcess } from './e2e-support.js';
import { FakePrinter } from './fake-printer.js';

const OWNER = {
  name: 'Rose Laguerre',
  email: 'rose@lakay.example',
  password: 'a long owner password',
};
const NAMES = ['Kitchen 1', 'Kitchen 2', 'Bar'] as const;
/** Where the pictures go: PRINTWIRE_SCREENSHOTS=DIR, as the other dashboard tests name it. */
const SHOTS = process.env.PRINTWIRE_SCREENSHOTS ?? process.env.PRINTWIRE_SHOTS;

describe('printer groups in the dashboard', () => {
  let world: DashboardWorld;
  const printers = new Map<string, FakePrinter>();
  /** Kitchen 1's agent, and the one of Kitchen 2 and Bar. */
  let first: AgentProcess | undefined;
  let others: AgentProcess | undefined;
  let orgId = '';
  let token = '';
  let page: Page;
  let movedJobId = '';
  const printerIds = new Map<string, string>();
  const problems: string[][] = [];

  /** The names of the members as the editor lists them, in order. */
  const editorOrder = () =>
    page.locator('ol.group-members.editable .member-name').allTextContents();
  const focusedLabel = () =>
    page.evaluate('document.activeElement?.getAttribute("aria-label")') as Promise<string | null>;
  const groupRow = (name: string) =>
    page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

  before(async () => {
    world = await DashboardWorld.start();
    for (const name of NAMES) printers.set(name, await FakePrinter.start());
    const on = (...names: string[]) =>
      names.map((name) => ({ name, printer: printers.get(name)! }));
    ({
      orgId,
      token,
      agent: others,
    } = await orgWithAgentPrinters(world, OWNER, 'Restaurant Lakay', on('Kitchen 2', 'Bar')));
    ({ agent: first } = await agentWithPrinters(world, token, orgId, on('Kitchen 1')));
    const listed = await callApi(world, token, 'GET', `/orgs/${orgId}/printers`);
    for (const p of listed.body.data as { id: string; name: string }[])
      printerIds.set(p.name, p.id);
    const opened = await world.page();
    page = opened.page;
    problems.push(opened.problems);
    await page.goto('/login');
    await logIn(page, OWNER);
    await page.getByRole('heading', { name: 'Restaurant Lakay' }).waitFor();
  });

  after(async () => {
    await first?.kill();
    await others?.kill();
    await world?.stop();
    for (const p of printers.values()) await p.stop();
  });

  test('with no group, the page says what a group does and offers to make one', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Printer groups' }).click();
    await page.getByRole('heading', { name: 'Printer groups', level: 1 }).waitFor();
    await page.getByText('No printer group yet.', { exact: false }).waitFor();
    await assertAccessible(page, 'groups, empty');
  });

  test('a group of three printers is made, reordered with buttons and the keyboard, with its strategy', async () => {
    await page.getByRole('button', { name: 'New group' }).click();
    await page.getByRole('heading', { name: 'New printer group', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Kitchen');
    // No printer: the API's refusal is said under the list of printers.
    await page.getByRole('button', { name: 'Create group' }).click();
    const members = page.getByRole('group', { name: 'Printers, in order' });
    await members.getByRole('alert').waitFor();

    for (const name of NAMES) {
      await page.getByLabel('Add a printer').selectOption({ label: `${name} (Online)` });
      await page.getByRole('button', { name: 'Add to the group' }).click();
    }
    await members.getByText('Every printer of the organization is in this group.').waitFor();
    assert.deepEqual(await editorOrder(), ['Kitchen 1', 'Kitchen 2', 'Bar']);
    await members.getByText('Online', { exact: true }).nth(2).waitFor();

    await page.getByRole('button', { name: 'Move up: Bar' }).click();
    assert.deepEqual(await editorOrder(), ['Kitchen 1', 'Bar', 'Kitchen 2']);
    await members.getByRole('status').getByText('Bar is now number 2 of 3.').waitFor();
    // The focus stays on the moved printer's button: Enter moves it again; at the top, the
    // focus goes to its other button.
    assert.equal(await focusedLabel(), 'Move up: Bar');
    await page.keyboard.press('Enter');
    assert.deepEqual(await editorOrder(), ['Bar', 'Kitchen 1', 'Kitchen 2']);
    assert.equal(await focusedLabel(), 'Move down: Bar');
    await page.keyboard.press('Enter');
    assert.deepEqual(await editorOrder(), ['Kitchen 1', 'Bar', 'Kitchen 2']);

    await page.getByRole('button', { name: 'Remove Kitchen 2 from the group' }).click();
    assert.deepEqual(await editorOrder(), ['Kitchen 1', 'Bar']);
    await page.getByLabel('Add a printer').selectOption({ label: 'Kitchen 2 (Online)' });
    await page.getByRole('button', { name: 'Add to the group' }).click();
    assert.deepEqual(await editorOrder(), ['Kitchen 1', 'Bar', 'Kitchen 2']);

    const strategies = page.getByRole('group', { name: 'How a job chooses its printer' });
    assert.ok(await strategies.getByRole('radio', { name: /^Failover/ }).isChecked());
    await strategies
      .getByText('the next one takes over while it is offline', { exact: false })
      .waitFor();
    await strategies.getByRole('radio', { name: /^Round-robin/ }).check();
    await assertAccessible(page, 'new group form');
    await page.getByRole('button', { name: 'Create group' }).click();

    await page.getByRole('heading', { name: 'Printer groups', level: 1 }).waitFor();
    const row = groupRow('Kitchen');
    await row.getByText('Round-robin', { exact: true }).waitFor();
    // Stored in that order: the list shows it after a reload too.
    await page.reload();
    await row.locator('.member-name').nth(2).waitFor();
    assert.deepEqual(await row.locator('.member-name').allTextContents(), [
      'Kitchen 1',
      'Bar',
      'Kitchen 2',
    ]);
    assert.equal(await row.getByText('Online', { exact: true }).count(), 3);
    await assertAccessible(page, 'groups list');
  });

  test('the group is edited: failover, Bar moved last', async () => {
    await page.getByRole('button', { name: 'Edit group Kitchen' }).click();
    await page.getByRole('heading', { name: 'Group "Kitchen"', level: 1 }).waitFor();
    assert.deepEqual(await editorOrder(), ['Kitchen 1', 'Bar', 'Kitchen 2']);
    await page.getByRole('radio', { name: /^Failover/ }).check();
    await page.getByRole('button', { name: 'Move down: Bar' }).click();
    await page.getByRole('button', { name: 'Save group' }).click();
    const row = groupRow('Kitchen');
    await row.getByText('Failover', { exact: true }).waitFor();
    await waitUntil('the new order in the list', async () => {
      const names = await row.locator('.member-name').allTextContents();
      return names.join() === 'Kitchen 1,Kitchen 2,Bar' ? true : undefined;
    });
    const stored = await callApi(world, token, 'GET', `/orgs/${orgId}/printer-groups`);
    assert.equal(stored.body.data[0].strategy, 'failover');
    assert.equal(stored.body.data[0].printerIds.length, 3);
  });

  test('a member’s status changes on the open page without a reload', async () => {
    const member = groupRow('Kitchen').getByRole('listitem').filter({ hasText: 'Kitchen 1' });
    await member.getByText('Online', { exact: true }).waitFor();
    printers.get('Kitchen 1')!.paperOut = true;
    await member.getByText('Paper out', { exact: true }).waitFor({ timeout: 15_000 });
    printers.get('Kitchen 1')!.paperOut = false;
    await member.getByText('Online', { exact: true }).waitFor({ timeout: 15_000 });
  });

  test('a job sent to the group from the Jobs page prints on its first member', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('button', { name: 'New job' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Printer or group').selectOption({ label: 'Kitchen' });
    await dialog.getByLabel('Type').selectOption('text');
    await dialog.getByLabel('Content').fill('Soup joumou x2\n');
    await dialog.getByLabel('Metadata (optional)').fill('order=2001');
    await assertAccessible(page, 'new job with groups');
    await dialog.getByRole('button', { name: 'Print' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'order=2001' });
    await row.getByText('Printed', { exact: true }).waitFor({ timeout: 30_000 });
    await row.getByText('in group Kitchen').waitFor();
    await row.getByText('Kitchen 1', { exact: true }).waitFor();
    assert.ok(printers.get('Kitchen 1')!.bytes().includes('Soup joumou'));
    await row.getByRole('link').click();
    const facts = page.locator('dl.facts').first();
    await facts.getByRole('link', { name: 'Kitchen', exact: true }).waitFor();
    await facts.getByText('Printed on').waitFor();
    await facts.getByRole('link', { name: 'Kitchen 1' }).waitFor();
    assert.equal(await page.getByText('Moved from').count(), 0);
  });

  test('a job that moved off a member before a byte was sent names both on its page', async () => {
    const groupId = (await callApi(world, token, 'GET', `/orgs/${orgId}/printer-groups`)).body
      .data[0].id as string;
    // Kitchen 1 stops answering right after an idle status read of its agent, past that read's
    // 1 s freshness: the cloud still counts Kitchen 1 online and hands it the job; the agent finds
    // the printer refusing before a byte is sent, gives the job back, and it moves to Kitchen 2.
    const kitchen1 = printers.get('Kitchen 1')!;
    await once(kitchen1, 'status');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await kitchen1.refuseConnections();
    const created = await callApi(world, token, 'POST', `/orgs/${orgId}/jobs`, {
      printerGroupId: groupId,
      type: 'text',
      data: 'Griot x1\n',
      metadata: { order: '2002' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.printerId, printerIds.get('Kitchen 1'));
    movedJobId = created.body.id;
    await page.goto(`/o/${orgId}/jobs/${movedJobId}`);
    // No reload: the live channel brings the move and the printing.
    await page
      .locator('.job-state')
      .getByText('Printed', { exact: true })
      .waitFor({ timeout: 60_000 });
    assert.ok(printers.get('Kitchen 2')!.bytes().includes('Griot'), 'printed on Kitchen 2');
    assert.ok(!printers.get('Kitchen 1')!.bytes().includes('Griot'), 'not a byte on Kitchen 1');
    await page
      .getByRole('status')
      .getByText('Printed on Kitchen 2, after Kitchen 1 could not take it', { exact: false })
      .waitFor();
    const facts = page.locator('dl.facts').first();
    await facts.getByRole('link', { name: 'Kitchen 2' }).waitFor();
    await facts.locator('ol.moved-from').getByText('Kitchen 1').waitFor();
    await page.locator('ol.timeline').getByText('moved to Kitchen 2').waitFor();
    await assertAccessible(page, 'moved job page');
  });

  test('the group’s jobs: its page links to the list filtered to them, and a new job of the group appears there without a reload', async () => {
    const groupId = (await callApi(world, token, 'GET', `/orgs/${orgId}/printer-groups`)).body
      .data[0].id as string;
    const direct = await callApi(world, token, 'POST', `/orgs/${orgId}/jobs`, {
      printerId: printerIds.get('Bar'),
      type: 'text',
      data: 'Water x1\n',
      metadata: { order: '2003' },
    });
    assert.equal(direct.status, 201, JSON.stringify(direct.body));
    const orders = async () =>
      (await page.locator('table.jobs tbody tr').allTextContents())
        .map((row) => /order=(\d+)/.exec(row)?.[1])
        .filter(Boolean);

    // From the group's own page.
    await page.goto(`/o/${orgId}/printer-groups/${groupId}`);
    await page.getByRole('heading', { name: 'Group "Kitchen"', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Jobs of this group' }).click();
    await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('printerGroupId'), groupId);
    const filter = page
      .getByRole('form', { name: 'Filter jobs' })
      .getByLabel('Printer group', { exact: true });
    assert.equal(await filter.inputValue(), groupId);
    await page.getByRole('row').filter({ hasText: 'order=2002' }).waitFor();
    assert.deepEqual(await orders(), ['2002', '2001']);
    await assertAccessible(page, 'jobs of a group');

    // A job sent to the group now: the live channel brings it into the filtered list.
    const live = await callApi(world, token, 'POST', `/orgs/${orgId}/jobs`, {
      printerGroupId: groupId,
      type: 'text',
      data: 'Pikliz x1\n',
      metadata: { order: '2004' },
    });
    assert.equal(live.status, 201, JSON.stringify(live.body));
    await page.getByRole('row').filter({ hasText: 'order=2004' }).waitFor({ timeout: 15_000 });
    assert.deepEqual(await orders(), ['2004', '2002', '2001']);

    // Any group: the job sent to Bar by its id is there too; the group chosen again hides it.
    await filter.selectOption({ label: 'Any' });
    await page.getByRole('row').filter({ hasText: 'order=2003' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('printerGroupId'), null);
    await filter.selectOption({ label: 'Kitchen' });
    await page.getByRole('row').filter({ hasText: 'order=2003' }).waitFor({ state: 'detached' });
    assert.deepEqual(await orders(), ['2004', '2002', '2001']);

    // From the list of groups, a link per group, named by the group.
    await page.goto(`/o/${orgId}/printer-groups`);
    await page.getByRole('link', { name: 'Jobs of group Kitchen' }).click();
    await page.getByRole('row').filter({ hasText: 'order=2004' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('printerGroupId'), groupId);
  });

  test('at 375 px the groups page, the editor, the group’s jobs and the moved job fit without sideways scrolling', async () => {
    const { page: phone, problems: p } = await world.page({ viewport: PHONE });
    problems.push(p);
    await phone.goto('/login');
    await logIn(phone, OWNER);
    await phone.getByRole('heading', { name: 'Restaurant Lakay' }).waitFor();
    const groupId = (await callApi(world, token, 'GET', `/orgs/${orgId}/printer-groups`)).body
      .data[0].id as string;
    for (const [path, heading] of [
      ['/printer-groups', 'Printer groups'],
      [`/printer-groups/${groupId}`, 'Group "Kitchen"'],
      [`/jobs?printerGroupId=${groupId}`, 'Jobs'],
      [`/jobs/${movedJobId}`, `Job ${movedJobId}`],
    ] as const) {
      await phone.goto(`/o/${orgId}${path}`);
      await phone.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await phone.locator('.loading').waitFor({ state: 'detached' });
      assert.equal(await scrollsSideways(phone), false, path);
      await assertAccessible(phone, `phone ${path}`);
    }
    await phone.context().close();
  });

  test('pictures of the pages in three languages, when asked for', { skip: !SHOTS }, async () => {
    const dir = SHOTS!;
    mkdirSync(dir, { recursive: true });
    const groupId = (await callApi(world, token, 'GET', `/orgs/${orgId}/printer-groups`)).body
      .data[0].id as string;
    for (const [size, viewport] of [
      ['1280', DESKTOP],
      ['375', PHONE],
    ] as const) {
      const { page: shot, problems: p } = await world.page({ viewport });
      problems.push(p);
      await shot.goto('/login');
      await logIn(shot, OWNER);
      await shot.getByRole('heading', { name: 'Restaurant Lakay' }).waitFor();
      for (const lang of ['en', 'fr', 'ht']) {
        await shot.goto(`/o/${orgId}/printer-groups`);
        await shot.locator('header .language select').selectOption(lang);
        await shot.locator(`html[lang="${lang}"]`).waitFor({ state: 'attached' });
        for (const [name, path] of [
          ['groups', '/printer-groups'],
          ['group-edit', `/printer-groups/${groupId}`],
          ['group-new', '/printer-groups/new'],
          ['group-jobs', `/jobs?printerGroupId=${groupId}`],
          ['moved-job', `/jobs/${movedJobId}`],
        ] as const) {
          await shot.goto(`/o/${orgId}${path}`);
          await shot.locator('h1').waitFor();
          await shot.locator('.loading').waitFor({ state: 'detached' });
          await shot.screenshot({
            path: join(dir, `${name}-${lang}-${size}.png`),
            fullPage: true,
          });
        }
      }
      await shot.context().close();
    }
  });

  test('a viewer sees the groups and their members but is offered no action', async () => {
    const viewer = {
      name: 'Paul Viewer',
      email: 'paul@lakay.example',
      password: 'a long viewer password',
    };
    await memberWithRole(world, OWNER, orgId, viewer, 'viewer');
    const { page: seen, problems: p } = await world.page();
    problems.push(p);
    await seen.goto('/login');
    await logIn(seen, viewer);
    await seen.getByRole('heading', { name: 'Restaurant Lakay' }).waitFor();
    await seen.goto(`/o/${orgId}/printer-groups`);
    const row = seen.getByRole('row').filter({ hasText: 'Kitchen 2' });
    await row.getByText('Failover', { exact: true }).waitFor();
    assert.equal(await seen.getByRole('button', { name: 'New group' }).count(), 0);
    assert.equal(await seen.getByRole('button', { name: /Edit|Delete/ }).count(), 0);
    await seen.context().close();
  });

  test('the group is deleted after a question naming it', async () => {
    await page.goto(`/o/${orgId}/printer-groups`);
    await page.getByRole('button', { name: 'Delete group Kitchen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the group "Kitchen"?' });
    await dialog
      .getByText('Apps that print to this group get an error', { exact: false })
      .waitFor();
    await assertAccessible(page, 'delete group question');
    await dialog.getByRole('button', { name: 'Delete group' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No printer group yet.', { exact: false }).waitFor();
    const left = await callApi(world, token, 'GET', `/orgs/${orgId}/printer-groups`);
    assert.deepEqual(left.body.data, []);
  });

  test('no page broke the Content-Security-Policy or threw', () => {
    assert.deepEqual(problems.flat(), []);
  });
});
