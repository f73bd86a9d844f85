/**
 * The agent's window in Chromium: an agent in this process (Agent.open, as the desktop app runs
 * it) with a fake TCP printer, a real cloud process, and the window's pages served by the
 * agent's local server. Set WINDOW_SCREENSHOTS=DIR to write the pages' screenshots (docs).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { Agent, createLogger, WindowPrompts } from '@printwire/agent';
import { FakePrinter } from './fake-printer.js';
import { CloudProcess, freePort, tempDir, type Bootstrap } from './e2e-support.js';
import { DESKTOP, PHONE, scrollsSideways, seriousViolations } from './dashboard-support.js';
import { launchChromium } from './browsers.js';

const SHOTS = process.env.WINDOW_SCREENSHOTS;

let cloud: CloudProcess;
let org: Bootstrap;
let printer: FakePrinter;
let agent: Agent;
let prompts: WindowPrompts;
let browser: Browser;
let dataDir: string;
let windowUrl: string;
let origin: string;

/** A page of the window in its own context (the key in the address, as the desktop app opens it). */
async function openWindow(
  path = '/',
  viewport = DESKTOP,
  locale = 'en-US',
): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext({ viewport, locale, acceptDownloads: true });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) {
      problems.push(m.text());
    }
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const url = new URL(windowUrl);
  url.pathname = path;
  await page.goto(url.toString());
  return { page, context, problems };
}

/** An unsigned request of a page from `from`, over the local API's WebSocket. */
function askToPrint(from: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://localhost:${new URL(origin).port}/v1/local`, { origin: from });
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; code?: string };
      if (frame.type === 'welcome') {
        ws.send(JSON.stringify({ v: 1, id: 'r1', type: 'printers.list' }));
        return;
      }
      resolve(frame.type === 'error' ? frame.code! : frame.type);
      ws.close();
    });
    ws.on('error', reject);
  });
}

async function postJob(text: string): Promise<string> {
  const printers = (await cloud.call(org.liveKey, 'GET', '/v1/printers')).body.data as Array<{
    id: string;
    name: string;
  }>;
  const till = printers.find((p) => p.name === 'Till');
  assert.ok(till, JSON.stringify(printers));
  const res = await cloud.call(org.liveKey, 'POST', '/v1/jobs', {
    printerId: till.id,
    type: 'receipt',
    data: { blocks: [{ type: 'text', value: text }] },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

before(async () => {
  const cloudDir = tempDir('pw-window-cloud-');
  const env = CloudProcess.env(cloudDir, await freePort());
  org = await CloudProcess.bootstrap(env, 'Chez Marie');
  cloud = await CloudProcess.start(env);
  printer = await FakePrinter.start();
  dataDir = tempDir('pw-window-agent-');
  prompts = new WindowPrompts();
  agent = await Agent.open({
    dataDir,
    cloudUrl: cloud.url,
    printers: [printer.uri('name=Till&paper=80mm&codepage=CP858')],
    logger: createLogger({ dataDir, stdout: false }),
    durability: 'process',
    localServer: { port: await freePort(), prompts },
  });
  agent.start();
  windowUrl = (await agent.windowUrl())!;
  assert.ok(windowUrl, 'the local server listens');
  origin = new URL(windowUrl).origin;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await agent?.stop();
  await printer?.stop();
  await cloud?.stop();
});

describe('the agent window', () => {
  test('activation with a code from the dashboard names the device and its organization', async () => {
    const { page, problems } = await openWindow();
    await page.getByRole('heading', { name: 'Activation' }).waitFor();
    await page.getByText('Not activated: enter an activation code to receive jobs').waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the key leaves the address bar');
    await shot(page, 'activation-en');
    await page.getByLabel('Activation code').fill('WRONG-CODE');
    await page.getByRole('button', { name: 'Activate this computer' }).click();
    await page.getByText('This activation code is unknown, already used or expired.').waitFor();
    await page.getByLabel('Activation code').fill(org.activationCode);
    await page.getByLabel('Name of this computer').fill('Front till');
    await page.getByRole('button', { name: 'Activate this computer' }).click();
    await page
      .getByText('This computer is activated as Front till for Chez Marie.')
      .waitFor({ timeout: 15_000 });
    await page.getByText('Connected: printing jobs from the cloud').waitFor({ timeout: 15_000 });
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('pause stops jobs from reaching the printer, and resume prints what waited', async () => {
    const { page } = await openWindow('/queue');
    await page.getByRole('button', { name: 'Pause printing' }).click();
    await page.getByText('Printing paused: jobs wait until you resume').waitFor();
    const jobId = await postJob('Table 4: two coffees');
    const row = page.getByRole('row').filter({ hasText: jobId });
    await row.getByText('Waiting').waitFor({ timeout: 15_000 });
    await page.getByText('Printing is paused: 1 job waits.').waitFor();
    await shot(page, 'queue-en');
    assert.equal(printer.byteCount, 0, 'nothing reached the printer while paused');
    await page.getByRole('button', { name: 'Resume printing' }).click();
    await row.getByText('Printed').waitFor({ timeout: 15_000 });
    assert.match(printer.bytes().toString('latin1'), /Table 4: two coffees/);
    await page.context().close();
  });

  test('the printers page shows status, paper and codepage, and prints a test page', async () => {
    const { page } = await openWindow('/printers');
    const row = page.getByRole('row').filter({ hasText: 'Till' });
    await row.getByText('Online').waitFor({ timeout: 15_000 });
    await row.getByRole('cell', { name: '80mm', exact: true }).waitFor();
    await row.getByRole('cell', { name: 'CP858', exact: true }).waitFor();
    printer.clear();
    await row.getByRole('button', { name: 'Print a test page on Till' }).click();
    await row.getByText('Test page sent.').waitFor();
    assert.match(printer.bytes().toString('latin1'), /Printwire test page/);
    await shot(page, 'printers-en');
    await page.context().close();
  });

  test('the trust prompt: Allow once, Always allow and Block', async () => {
    agent.local.applyConfig({
      local: {
        requireSignature: false,
        unsignedModeEnabled: true,
        devModeEnabled: false,
        allowedOrigins: [],
        signingKeys: [],
      },
    });
    const { page } = await openWindow('/printers');
    const answers: Array<[string, string, string]> = [
      ['https://once.example', 'Allow once', 'reply'],
      ['https://always.example', 'Always allow', 'reply'],
      ['https://blocked.example', 'Block', 'ORIGIN_BLOCKED'],
    ];
    for (const [from, button, expected] of answers) {
      const asked = askToPrint(from);
      const dialog = page.getByRole('alertdialog', { name: 'A website wants to print' });
      await dialog.getByText(from).waitFor();
      if (from === 'https://once.example') await shot(page, 'trust-prompt-en');
      await dialog.getByRole('button', { name: button }).click();
      assert.equal(await asked, expected, from);
      await dialog.waitFor({ state: 'hidden' });
    }
    const kept = agent.local.backend.originAnswers();
    assert.equal(kept['https://always.example']?.answer, 'allow');
    assert.equal(kept['https://blocked.example']?.answer, 'block');
    assert.equal(kept['https://once.example'], undefined, 'Allow once is not remembered');
    // Always allow: the next page of that origin prints without a question.
    assert.equal(await askToPrint('https://always.example'), 'reply');
    await page.context().close();
  });

  test('the log export downloads a zip that holds the agent log and no secret', async () => {
    const { page } = await openWindow('/logs');
    await page.getByText('device activated').first().waitFor();
    await shot(page, 'logs-en');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export logs (zip)' }).click();
    const download = await downloading;
    assert.match(download.suggestedFilename(), /^printwire-agent-logs-.*\.zip$/);
    const path = join(dataDir, 'export.zip');
    await download.saveAs(path);
    const listing = execFileSync('unzip', ['-l', path], { encoding: 'utf8' });
    assert.match(listing, /logs\/agent\.\d+\.log/);
    assert.match(listing, /config\.json/);
    const log = execFileSync('unzip', ['-p', path, 'logs/*'], { encoding: 'utf8' });
    assert.match(log, /device activated/);
    const token = execFileSync('cat', [join(dataDir, 'device-token')], { encoding: 'utf8' }).trim();
    const everything = execFileSync('unzip', ['-p', path], { encoding: 'utf8' });
    assert.ok(!everything.includes(token), 'the device token is not in the export');
    await page.context().close();
  });

  test('the settings page shows the data folder, names a bad port, and keeps the mute choice', async () => {
    const { page } = await openWindow('/settings');
    await page.getByLabel('Data folder').waitFor();
    assert.equal(await page.getByLabel('Data folder').inputValue(), dataDir);
    await page.getByLabel('Local server port').fill('80');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .getByText('Number must be greater than or equal to 1024', { exact: false })
      .or(page.getByText('>=1024', { exact: false }))
      .first()
      .waitFor();
    await page.getByLabel('Local server port').fill('');
    await page.getByLabel('Mute printer notifications').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    assert.equal(agent.preferences.notificationsMuted, true);
    await shot(page, 'settings-en');
    await page.context().close();
  });

  test('the window API refuses requests without the key, from another origin, or from a printing page', async () => {
    const api = `${origin}/window/api/state`;
    assert.equal((await fetch(api)).status, 403);
    const key = new URL(windowUrl).hash.slice('#key='.length);
    const withKey = { 'x-printwire-window-key': key };
    assert.equal((await fetch(api, { headers: withKey })).status, 200);
    assert.equal(
      (await fetch(api, { headers: { ...withKey, origin: 'https://always.example' } })).status,
      403,
    );
    const pause = await fetch(`${origin}/window/api/pause`, {
      method: 'POST',
      headers: { origin: 'https://always.example', 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(pause.status, 403);
    assert.equal(pause.headers.get('access-control-allow-origin'), null);
    // A page of an origin allowed to print cannot read the window's API, even with CORS.
    const tab = await browser.newPage();
    await tab.route('https://always.example/', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Shop</title>' }),
    );
    await tab.goto('https://always.example/');
    const outcome = await tab.evaluate(
      `fetch(${JSON.stringify(`${origin}/window/api/state`)}, { headers: ${JSON.stringify(withKey)} }).then((r) => String(r.status), (e) => 'refused: ' + e.name)`,
    );
    assert.match(String(outcome), /^refused/);
    await tab.close();
    const page = await fetch(`${origin}/printers`);
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.equal(agent.paused, false, 'nothing above paused the agent');
  });

  for (const viewport of [DESKTOP, PHONE]) {
    test(`every page passes axe at ${viewport.width} px, in English, French and Creole`, async () => {
      for (const locale of ['en-US', 'fr-FR', 'ht-HT']) {
        for (const path of ['/printers', '/queue', '/activation', '/settings', '/logs']) {
          const { page, context, problems } = await openWindow(path, viewport, locale);
          await page.locator('h1').waitFor();
          await page.locator('.state').filter({ hasNotText: /…/ }).waitFor();
          assert.equal(await page.getAttribute('html', 'lang'), locale.slice(0, 2));
          assert.deepEqual(await seriousViolations(page), [], `${path} ${locale}`);
          assert.equal(await scrollsSideways(page), false, `${path} ${locale} scrolls sideways`);
          assert.deepEqual(problems, []);
          const lang = locale.slice(0, 2);
          if (lang !== 'en' || viewport === PHONE) {
            await shot(page, `${path.slice(1)}-${lang}${viewport === PHONE ? '-phone' : ''}`);
          }
          await context.close();
        }
      }
    });
  }
});
