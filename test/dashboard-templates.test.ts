/**
 * The dashboard's templates in Chromium against a real cloud process: a gallery template used,
 * the editor's preview following the typing (ZPL commands, a receipt's PNG, HTML in a sandboxed
 * frame), a template error shown at its line, save, rename and delete; axe-core on each page,
 * and the pages at 375 px.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  DashboardWorld,
  OWNER,
  PHONE,
  assertAccessible,
  logIn,
  ownerWithOrganization,
  scrollsSideways,
} from './dashboard-support.js';

describe('the dashboard’s templates in a browser', () => {
  let world: DashboardWorld;
  let owner: Page;
  let orgPath = '';
  const problems: string[][] = [];

  before(async () => {
    world = await DashboardWorld.start();
    const opened = await ownerWithOrganization(world, OWNER, 'Boulangerie Marie');
    owner = opened.page;
    orgPath = opened.orgPath;
    problems.push(opened.problems);
  });
  after(async () => {
    await world?.stop();
  });

  test('a gallery template is copied and opens in the editor with its sample data previewed', async () => {
    await owner.goto(`${orgPath}/templates`);
    await owner.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    await owner.getByText('No template yet.', { exact: false }).waitFor();
    const gallery = owner.getByRole('region', { name: 'Gallery' });
    await gallery
      .getByRole('button', { name: /^Use this template: / })
      .first()
      .waitFor();
    assert.equal(await gallery.getByRole('button', { name: /^Use this template: / }).count(), 20);
    await assertAccessible(owner, 'templates list');
    await gallery.getByRole('button', { name: 'Use this template: Etikèt pri' }).click();
    await owner.getByRole('heading', { name: 'Etikèt pri', level: 1 }).waitFor();
    const commands = owner.getByRole('list', { name: 'Commands the printer receives' });
    await commands.getByText('A16,10,0,3,1,1,N,"Kafe Rebo 454 g"').waitFor();
    assert.match(await owner.getByLabel('Sample data (JSON)').inputValue(), /Kafe Rebo/);
    await assertAccessible(owner, 'template editor');
    await owner.getByRole('link', { name: 'All templates' }).click();
    await owner.getByRole('link', { name: 'Etikèt pri' }).waitFor();
  });

  test('the preview follows the typing, an error is shown at its line, and the template is saved, renamed and deleted', async () => {
    await owner.goto(`${orgPath}/templates`);
    await owner.getByLabel('Name').fill('Shelf label');
    await owner.getByLabel('Type').selectOption({ label: 'ZPL label' });
    await owner.getByRole('button', { name: 'Create template' }).click();
    await owner.getByRole('heading', { name: 'Shelf label', level: 1 }).waitFor();
    const commands = owner.getByRole('list', { name: 'Commands the printer receives' });
    await commands.getByText('^FO40,40^A0N,40,40^FDPain au chocolat^FS').waitFor();

    const editor = owner.getByLabel('Template', { exact: true });
    await owner.getByLabel('Sample data (JSON)').fill('{ "name": "Kasav", "price": "50 HTG" }');
    await editor.fill('^XA\n^FO40,40^FD{{name}}^FS\n^XZ\n');
    await commands.getByText('^FO40,40^FDKasav^FS').waitFor();
    await editor.press('End');
    await editor.pressSequentially('^FO40,90^FD{{price}}^FS\n');
    await commands.getByText('^FO40,90^FD50 HTG^FS').waitFor();

    await editor.fill('^XA\n{{#items}}\n^FD{{name}}^FS\n^XZ\n');
    const alert = owner.getByRole('alert').filter({ hasText: /^Line 2, column 1:/ });
    await alert.waitFor();
    assert.equal(await editor.getAttribute('aria-invalid'), 'true');
    assert.equal(await owner.locator('.gutter .error-line').textContent(), '2');
    await owner
      .getByText('The last preview that rendered, until the error above is fixed.')
      .waitFor();
    await commands.getByText('^FO40,90^FD50 HTG^FS').waitFor();
    await assertAccessible(owner, 'template editor with an error');

    await editor.fill('^XA\n{{#items}}^FD{{name}}^FS{{/items}}\n^XZ\n');
    await alert.waitFor({ state: 'detached' });
    await owner.getByLabel('Name').fill('Shelf label, large');
    await owner.getByRole('button', { name: 'Save template' }).click();
    await owner.getByRole('heading', { name: 'Shelf label, large', level: 1 }).waitFor();
    await owner.getByText('version 2').waitFor();
    await owner.reload();
    assert.equal(await editor.inputValue(), '^XA\n{{#items}}^FD{{name}}^FS{{/items}}\n^XZ\n');

    await owner.getByRole('button', { name: 'Delete template' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Delete the template "Shelf label, large"?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete template' }).click();
    await owner.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    await owner.getByRole('link', { name: 'Etikèt pri' }).waitFor();
    assert.equal(await owner.getByRole('link', { name: 'Shelf label, large' }).count(), 0);
  });

  test('a receipt template previews as the picture the virtual printer draws, HTML in a frame without scripts', async () => {
    await owner.goto(`${orgPath}/templates`);
    const gallery = owner.getByRole('region', { name: 'Gallery' });
    const receipt = gallery.getByRole('listitem').filter({ hasText: 'Receipt · 80mm' });
    await receipt
      .first()
      .getByRole('button', { name: /^Use this template/ })
      .click();
    const image = owner.getByRole('img', { name: 'The receipt as the printer prints it' });
    await image.waitFor();
    // Page code as a string: this folder's TypeScript has no DOM types.
    const width = await owner.evaluate(
      "document.querySelector('.receipt-paper img').decode().then(() => document.querySelector('.receipt-paper img').naturalWidth)",
    );
    assert.equal(width, 576, '80 mm is 576 dots');

    await owner.goto(`${orgPath}/templates`);
    const report = gallery.getByRole('listitem').filter({ hasText: 'HTML page' });
    await report
      .first()
      .getByRole('button', { name: /^Use this template/ })
      .click();
    const frame = owner.locator('iframe[title="HTML preview"]');
    await frame.waitFor();
    assert.equal(await frame.getAttribute('sandbox'), 'allow-same-origin', 'no script runs in it');
    const table = owner.frameLocator('iframe[title="HTML preview"]').locator('table').first();
    await table.waitFor();
    // The template's own styles apply (the dashboard's CSP refuses them inline: see html-preview.tsx).
    const collapse = await owner.evaluate(
      "getComputedStyle(document.querySelector('iframe').contentDocument.querySelector('table')).borderCollapse",
    );
    assert.equal(collapse, 'collapse');
  });

  test('the templates pages at 375 px: no sideways scrolling, axe-core clean', async () => {
    const { page, problems: p } = await world.page({ viewport: PHONE });
    problems.push(p);
    await page.goto('/login');
    await logIn(page, OWNER);
    await page.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
    await page.goto(`${orgPath}/templates`);
    await page.getByRole('link', { name: 'Etikèt pri' }).waitFor();
    assert.equal(await scrollsSideways(page), false, 'templates list');
    await assertAccessible(page, 'phone templates list');
    await page.getByRole('link', { name: 'Etikèt pri' }).click();
    await page.getByRole('list', { name: 'Commands the printer receives' }).waitFor();
    assert.equal(await scrollsSideways(page), false, 'template editor');
    await assertAccessible(page, 'phone template editor');
    await page.context().close();
  });

  test('no page broke the Content-Security-Policy or threw', () => {
    assert.deepEqual(problems.flat(), []);
  });
});
