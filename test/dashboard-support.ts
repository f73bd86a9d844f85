/**
 * Browser tests of the web dashboard: a real cloud process on a free port (mail as .eml files in
 * its DATA_DIR), Debian's Chromium driven by playwright-core, axe-core run in the page, mails
 * read from the outbox and TOTP codes computed here.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateSync } from 'otplib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { linksInEml } from '@printwire/cloud/testing';
import { AgentProcess, CloudProcess, freePort, tempDir, waitUntil } from './e2e-support.js';
import type { FakePrinter } from './fake-printer.js';

const run = promisify(execFile);
const CLOUD_BIN = new URL('../cloud/bin/printwire-cloud.mjs', import.meta.url).pathname;

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const CHROMIUM = '/usr/bin/chromium';
export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 860 };

export class DashboardWorld {
  private constructor(
    readonly cloud: CloudProcess,
    readonly dataDir: string,
    readonly browser: Browser,
    /** The cloud's environment (its CLI's admin commands run with it). */
    readonly env: NodeJS.ProcessEnv,
  ) {}

  static async start(): Promise<DashboardWorld> {
    const dataDir = tempDir('pw-dashboard-');
    const env = CloudProcess.env(dataDir, await freePort());
    const cloud = await CloudProcess.start(env);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    return new DashboardWorld(cloud, dataDir, browser, env);
  }

  /** `printwire-cloud admin set-plan ORG_ID PLAN` against this cloud's database. */
  async setPlan(orgId: string, plan: 'free' | 'starter' | 'business' | 'enterprise') {
    await run(process.execPath, [CLOUD_BIN, 'admin', 'set-plan', orgId, plan], { env: this.env });
  }

  get url(): string {
    return this.cloud.url;
  }

  /** A page in a fresh browser context (its own cookies), failing the test on a CSP violation. */
  async page(options: { viewport?: { width: number; height: number }; locale?: string } = {}) {
    const context = await this.browser.newContext({
      viewport: options.viewport ?? DESKTOP,
      locale: options.locale ?? 'en-US',
      baseURL: this.url,
    });
    // A locator that finds nothing fails in 10 s, well inside the runner's two minutes a file.
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) {
        problems.push(m.text());
      }
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    return { page, problems };
  }

  /** The links of the newest mail to `to` whose link path contains `path`, waiting for it. */
  async mailLink(to: string, path: string, after = 0): Promise<string> {
    const dir = join(this.dataDir, 'mail');
    return waitUntil(`a mail to ${to} with a ${path} link`, () => {
      let files: string[];
      try {
        files = readdirSync(dir).sort();
      } catch {
        return undefined;
      }
      for (const file of files.slice(after).reverse()) {
        const eml = readFileSync(join(dir, file), 'utf8');
        if (!eml.includes(to)) continue;
        const link = linksInEml(eml).find((l) => l.includes(path));
        if (link) return link;
      }
      return undefined;
    });
  }

  async stop(): Promise<void> {
    await this.browser.close();
    await this.cloud.stop();
  }
}

/** The TOTP code of `secret` `stepOffset` 30-second steps from now. */
export function totp(secret: string, stepOffset = 0): string {
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepOffset * 30 });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, not a <script>: the page's CSP stays as served.
  await page.evaluate(AXE_SOURCE);
  // Page code as a string: this folder's TypeScript has no DOM types.
  const violations = await page.evaluate('axe.run().then((result) => result.violations)');
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}

/** Whether the page scrolls sideways (it must not at 375 px). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return (await page.evaluate(
    'document.documentElement.scrollWidth > window.innerWidth + 1',
  )) as boolean;
}

export interface Person {
  name: string;
  email: string;
  password: string;
}

/** Signs `who` up through the API and confirms the address from the mailed link. */
export async function verifiedAccount(world: DashboardWorld, who: Person): Promise<void> {
  const signup = await fetch(`${world.url}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...who, locale: 'en' }),
  });
  assert.equal(signup.status, 201);
  const token = new URL(await world.mailLink(who.email, '/verify-email?token=')).searchParams.get(
    'token',
  );
  const verified = await fetch(`${world.url}/auth/verify-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  assert.equal(verified.status, 200);
}

export async function logIn(page: Page, who: Person): Promise<void> {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function assertAccessible(page: Page, where: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `axe on ${where}`);
}

/** The shop owner most browser tests start as. */
export const OWNER: Person = {
  name: 'Marie Joseph',
  email: 'marie@shop.example',
  password: 'a long owner password',
};

/** Signs `who` up on the page's sign-up form and opens the confirmation link from the mail. */
export async function signUpAndVerify(world: DashboardWorld, page: Page, who: Person) {
  await page.getByLabel('Name').fill(who.name);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  // The test cloud has no SMTP server: the page says where the message went instead.
  await page.getByText('the message was not sent but written as a file').waitFor();
  await page.goto(await world.mailLink(who.email, '/verify-email?token='));
  await page.getByRole('heading', { name: 'Your address is confirmed' }).waitFor();
  await assertAccessible(page, 'verify e-mail');
}

/**
 * `who` (a verified account) logged in on a page of its own, with a new organization `orgName`
 * created from the dashboard: the page, its CSP problems, and the organization's path (`/o/…`).
 */
export async function ownerWithOrganization(
  world: DashboardWorld,
  who: Person = OWNER,
  orgName = 'Boulangerie Marie',
): Promise<{ page: Page; problems: string[]; orgPath: string; orgId: string }> {
  await verifiedAccount(world, who);
  const { page, problems } = await world.page();
  await page.goto('/login');
  await logIn(page, who);
  await page.getByLabel('Organization name').fill(orgName);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await page.getByRole('heading', { name: orgName }).waitFor();
  const orgPath = new URL(page.url()).pathname;
  return { page, problems, orgPath, orgId: orgPath.split('/')[2]! };
}

/** Logs `who` in through the API: an access token for calls a test makes itself. */
export async function accessTokenOf(world: DashboardWorld, who: Person): Promise<string> {
  const res = await fetch(`${world.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/**
 * `who` (a new verified account) made a member of `orgId` with `role` through the API: invited by
 * `owner`, the mailed invitation accepted.
 */
export async function memberWithRole(
  world: DashboardWorld,
  owner: Person,
  orgId: string,
  who: Person,
  role: 'admin' | 'developer' | 'viewer',
): Promise<void> {
  const call = async (token: string, path: string, body: unknown) => {
    const res = await fetch(`${world.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.ok(res.ok, `${path}: ${res.status} ${await res.text()}`);
  };
  await call(await accessTokenOf(world, owner), `/orgs/${orgId}/invitations`, {
    email: who.email,
    role,
  });
  await verifiedAccount(world, who);
  const link = await world.mailLink(who.email, '/invitations/accept?token=');
  const token = new URL(link).searchParams.get('token');
  await call(await accessTokenOf(world, who), '/invitations/accept', { token });
}

/** A call to the dashboard API with an access token: the status and the JSON body. */
export async function callApi(
  world: DashboardWorld,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${world.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * An agent process activated on `orgId` (with a new activation code) whose printers are `printers`
 * (fake TCP printers by name), waited for until they are all online: the agent (the caller stops
 * it) and the arguments that start it again.
 */
export async function agentWithPrinters(
  world: DashboardWorld,
  token: string,
  orgId: string,
  printers: { name: string; printer: FakePrinter }[],
): Promise<{ agent: AgentProcess; agentArgs: string[] }> {
  const code = (await callApi(world, token, 'POST', `/orgs/${orgId}/activation-codes`)).body
    .code as string;
  const agentArgs = [
    ...['--data-dir', tempDir('pw-dash-agent-'), '--cloud', world.url],
    ...printers.flatMap(({ name, printer }) => [
      '--printer',
      printer.uri(`name=${encodeURIComponent(name)}`),
    ]),
  ];
  const agent = AgentProcess.start([...agentArgs, '--activation-code', code]);
  const names = new Set(printers.map((p) => p.name));
  await waitUntil(
    `the agent’s printers ${[...names].join(', ')} online`,
    async () => {
      const list = (await callApi(world, token, 'GET', `/orgs/${orgId}/printers`)).body.data as
        { name: string; status: string }[] | undefined;
      const ours = (list ?? []).filter((p) => names.has(p.name));
      return ours.length === names.size && ours.every((p) => p.status === 'online')
        ? true
        : undefined;
    },
    { timeoutMs: 30_000 },
  );
  return { agent, agentArgs };
}

/**
 * `who` (a new verified account) owning a new organization `orgName`, made through the API, with
 * an agent process activated on it whose printers are `printers`, all online (agentWithPrinters).
 */
export async function orgWithAgentPrinters(
  world: DashboardWorld,
  who: Person,
  orgName: string,
  printers: { name: string; printer: FakePrinter }[],
): Promise<{ orgId: string; token: string; agent: AgentProcess; agentArgs: string[] }> {
  await verifiedAccount(world, who);
  const token = await accessTokenOf(world, who);
  const orgId = (await callApi(world, token, 'POST', '/orgs', { name: orgName })).body.id as string;
  return { orgId, token, ...(await agentWithPrinters(world, token, orgId, printers)) };
}
