/**
 * Labels as pictures on the dashboard's job page (Chromium against a real cloud process): a
 * sandbox ZPL job of a ^PQ batch shows every label with a zoom, its ZPL beside them as numbered
 * lines, and the commands the pictures could not draw named under them, and the renderer's
 * warnings listed under a heading in the page's language; a PDF job for the label
 * printer shows the labels it prints, one a page, and so does an HTML page (laid out by the
 * cloud's Chromium, which `serve` finds at /usr/bin/chromium). axe-core, 375 px, and the page in English,
 * French and Haitian Creole.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import {
  DashboardWorld,
  DESKTOP,
  OWNER,
  PHONE,
  accessTokenOf,
  assertAccessible,
  logIn,
  ownerWithOrganization,
  scrollsSideways,
} from './dashboard-support.js';

/** Screenshots for a person to look at (not compared): PRINTWIRE_SCREENSHOTS=DIR keeps them. */
const SHOTS = process.env.PRINTWIRE_SCREENSHOTS;
const ZPL = [
  '^XA',
  '^PW406^LL203',
  '^FO20,20^A0N,36,36^FDBIN A-12^FS',
  '^FO20,70^BY2^BCN,60,Y,N,N^FD000123^FS',
  '^FO300,20^GB80,80,40^FS',
  '^XY',
  '^PQ2',
  '^XZ',
].join('\n');

/** A QR code in manual alphanumeric mode: the printer drops `|cd`, and the preview warns so. */
const LOSSY = '^XA^PW406^LL203^FO40,40^BQN,2,4^FDMM,AB12|cd^FS^XZ';
const LOSSY_WARNING =
  '^BQ field at 40,40: manual alphanumeric (A) mode holds only digits, capitals, space and $ % * + - . / :: 3 characters dropped, "|cd"';

/** Two pages made by Chromium (the agent's fixture): two labels on a label printer. */
const TWO_PAGES = readFileSync(
  new URL('../agent/src/render/fixtures/two-pages.pdf', import.meta.url),
);

describe('labels as pictures on the job page', () => {
  let world: DashboardWorld;
  let page: Page;
  let orgPath = '';
  let jobId = '';
  let pdfJobId = '';
  let htmlJobId = '';
  let templateId = '';
  let lossyJobId = '';
  let lossyTemplateId = '';
  const problems: string[][] = [];

  before(async () => {
    world = await DashboardWorld.start();
    const opened = await ownerWithOrganization(world);
    ({ page, orgPath } = opened);
    problems.push(opened.problems);
    const token = await accessTokenOf(world, OWNER);
    const call = async (path: string, body: unknown, key = token) => {
      const res = await fetch(`${world.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.ok(res.ok, JSON.stringify(json));
      return json;
    };
    const key = await call(`/orgs/${opened.orgId}/api-keys`, {
      name: 'Labels',
      mode: 'test',
      scopes: ['jobs:write', 'jobs:read', 'printers:read'],
    });
    const job = await call(
      '/v1/jobs',
      { printer: { alias: 'label' }, type: 'zpl', encoding: 'utf8', data: ZPL },
      key.key as string,
    );
    jobId = job.id as string;
    const pdfJob = await call(
      '/v1/jobs',
      {
        printer: { alias: 'label' },
        type: 'pdf',
        encoding: 'base64',
        data: TWO_PAGES.toString('base64'),
      },
      key.key as string,
    );
    pdfJobId = pdfJob.id as string;
    const htmlJob = await call(
      '/v1/jobs',
      {
        printer: { alias: 'label' },
        type: 'html',
        encoding: 'utf8',
        data:
          '<p style="font:bold 60px sans-serif;break-after:page">BIN A-12</p>' +
          '<p style="font:bold 60px sans-serif">BIN A-13</p>',
      },
      key.key as string,
    );
    assert.equal(htmlJob.hasPreview, true, 'the cloud found its Chromium');
    htmlJobId = htmlJob.id as string;
    const template = await call(`/orgs/${opened.orgId}/templates/from-gallery`, {
      galleryId: 'label-shipping-4x6',
    });
    templateId = template.id as string;
    const lossy = await call(
      '/v1/jobs',
      { printer: { alias: 'label' }, type: 'zpl', encoding: 'utf8', data: LOSSY },
      key.key as string,
    );
    lossyJobId = lossy.id as string;
    const lossyTemplate = await call(`/orgs/${opened.orgId}/templates`, {
      name: 'Shelf QR',
      type: 'zpl',
      content: LOSSY,
    });
    lossyTemplateId = lossyTemplate.id as string;
  });
  after(async () => {
    await world?.stop();
    assert.deepEqual(problems.flat(), [], 'no CSP violation or page error');
  });

  test('every label of the batch is drawn, the ZPL beside it, the command not drawn named', async () => {
    await page.goto(`${orgPath}/jobs/${jobId}?mode=test`);
    const first = page.getByRole('img', { name: `Label 1 of job ${jobId}` });
    await first.waitFor();
    await page.getByRole('img', { name: `Label 2 of job ${jobId}` }).waitFor();
    await page.getByText('Labels printed: 2').waitFor();
    await page.getByText('Label 2 of 2').waitFor();
    const note = page.getByRole('note');
    assert.match((await note.textContent()) ?? '', /could not draw:\s*\^XY/);
    const code = page.getByRole('list', { name: /zpl/i });
    assert.equal(await code.getByRole('listitem').count(), 8, 'the ZPL, one numbered line each');
    const natural = await first.evaluate(
      (img) => (img as unknown as { naturalWidth: number }).naturalWidth,
    );
    assert.equal(natural, 406, `the label at its dots: ${String(natural)}`);
    const zoom = page.getByRole('button', { name: 'Real size' });
    await zoom.click();
    assert.equal(await zoom.getAttribute('aria-pressed'), 'true');
    assert.equal(Math.round((await first.boundingBox())!.width), 406, 'real size: one dot a pixel');
    await assertAccessible(page, 'job page with labels');
  });

  test('the warnings of a label that loses data are listed under the picture, on the job page and in the template editor', async () => {
    await page.goto(`${orgPath}/jobs/${lossyJobId}?mode=test`);
    await page.getByRole('img', { name: `Label 1 of job ${lossyJobId}` }).waitFor();
    const jobWarnings = page.getByRole('list', { name: 'Warnings about this label:' });
    await jobWarnings.getByRole('listitem').filter({ hasText: LOSSY_WARNING }).waitFor();
    assert.equal(await jobWarnings.getByRole('listitem').count(), 1);
    await page.getByText('Every command was drawn.').waitFor();
    await assertAccessible(page, 'job page with a label warning');
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await jobWarnings.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/job-label-warnings-en-1280.png` });
    }
    await page.goto(`${orgPath}/templates/${lossyTemplateId}`);
    await page.getByRole('img', { name: 'Label 1 of the preview' }).waitFor();
    await page
      .getByRole('list', { name: 'Warnings about this label:' })
      .getByRole('listitem')
      .filter({ hasText: LOSSY_WARNING })
      .waitFor();
    // A label that loses nothing has no such list.
    await page.goto(`${orgPath}/templates/${templateId}`);
    await page.getByRole('img', { name: 'Label 1 of the preview' }).waitFor();
    assert.equal(await page.getByRole('list', { name: 'Warnings about this label:' }).count(), 0);
  });

  test('a PDF for the label printer shows the labels it prints, one a page', async () => {
    await page.goto(`${orgPath}/jobs/${pdfJobId}?mode=test`);
    const first = page.getByRole('img', { name: `Label 1 of job ${pdfJobId}` });
    await first.waitFor();
    await page.getByRole('img', { name: `Label 2 of job ${pdfJobId}` }).waitFor();
    await page.getByText('Labels printed: 2').waitFor();
    const natural = await first.evaluate(
      (img) => (img as unknown as { naturalWidth: number }).naturalWidth,
    );
    assert.equal(natural, 812, `the label printer's 4 × 6 in at 203 dpi: ${String(natural)}`);
    assert.equal(await page.getByRole('list', { name: /zpl/i }).count(), 0, 'no code to show');
    await assertAccessible(page, 'job page with the labels of a PDF');
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.locator('.label-view').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/job-pdf-labels-en-1280.png` });
    }
  });

  test('an HTML page for the label printer shows the labels it prints, laid out by the cloud', async () => {
    await page.goto(`${orgPath}/jobs/${htmlJobId}?mode=test`);
    const first = page.getByRole('img', { name: `Label 1 of job ${htmlJobId}` });
    await first.waitFor();
    await page.getByRole('img', { name: `Label 2 of job ${htmlJobId}` }).waitFor();
    await page.getByText('Labels printed: 2').waitFor();
    const natural = await first.evaluate(
      (img) => (img as unknown as { naturalWidth: number }).naturalWidth,
    );
    assert.equal(natural, 812, `the label printer's 4 × 6 in at 203 dpi: ${String(natural)}`);
    await assertAccessible(page, 'job page with the labels of an HTML page');
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await first.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/job-html-labels-en-1280.png` });
    }
  });

  test('the template editor shows a ZPL template as its label, the commands beside it', async () => {
    await page.goto(`${orgPath}/templates/${templateId}`);
    const label = page.getByRole('img', { name: 'Label 1 of the preview' });
    await label.waitFor();
    const natural = await label.evaluate(
      (img) => (img as unknown as { naturalWidth: number }).naturalWidth,
    );
    assert.equal(natural, 812, 'a 4 × 6 in label at 203 dpi');
    await page
      .getByRole('list', { name: 'Commands the printer receives' })
      .getByText('^XA')
      .first()
      .waitFor();
    await page.getByText('Every command was drawn.').waitFor();
    await assertAccessible(page, 'template editor with a label');
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/template-label-en-1280.png` });
    }
  });

  test('in three languages, at 1280 and 375 px, the labels fit the page', async () => {
    const words = {
      en: 'Label 1 of 2',
      fr: 'Étiquette 1 sur 2',
      ht: 'Etikèt 1 sou 2',
    } as const;
    const warningsHeading = {
      en: 'Warnings about this label:',
      fr: 'Avertissements sur cette étiquette :',
      ht: 'Avètisman sou etikèt sa a:',
    } as const;
    for (const lang of ['en', 'fr', 'ht'] as const) {
      for (const viewport of [DESKTOP, PHONE]) {
        const { page: p, problems: pp } = await world.page({ viewport });
        problems.push(pp);
        await p.goto('/login');
        await logIn(p, OWNER);
        await p.getByRole('heading', { name: 'Boulangerie Marie' }).waitFor();
        await p.evaluate(`localStorage.setItem('printwire.language', '${lang}')`);
        await p.goto(`${orgPath}/jobs/${jobId}?mode=test`);
        await p.getByText(words[lang]).waitFor();
        await p.locator('.label-list img').nth(1).waitFor();
        assert.equal(await scrollsSideways(p), false, `${lang} ${viewport.width} px`);
        await assertAccessible(p, `job labels, ${lang}, ${viewport.width} px`);
        // The heading in the page's language, the warning itself in the renderer's English.
        await p.goto(`${orgPath}/jobs/${lossyJobId}?mode=test`);
        await p
          .getByRole('list', { name: warningsHeading[lang] })
          .getByRole('listitem')
          .filter({ hasText: LOSSY_WARNING })
          .waitFor();
        assert.equal(await scrollsSideways(p), false, `warnings, ${lang} ${viewport.width} px`);
        if (SHOTS) {
          mkdirSync(SHOTS, { recursive: true });
          await p.locator('.label-view').scrollIntoViewIfNeeded();
          await p.screenshot({ path: `${SHOTS}/job-labels-${lang}-${viewport.width}.png` });
        }
        await p.context().close();
      }
    }
  });
});
