/**
 * The browser engines the end-to-end tests run a page in, behind one small interface: open a
 * tab, go to a URL, evaluate a function there, close. Chromium is Debian's /usr/bin/chromium
 * driven by playwright-core (CDP); Firefox is Debian's firefox-esr driven by puppeteer-core over
 * WebDriver BiDi. Never a downloaded browser.
 */
import { existsSync } from 'node:fs';
import { createHash, X509Certificate } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import puppeteer from 'puppeteer-core';

/** tsx compiles with keepNames: functions sent to a page call its __name helper. */
const KEEP_NAMES = 'globalThis.__name = (f) => f;';

export interface TestTab {
  /** Navigates; resolves with the HTTP status of the document. */
  goto(url: string): Promise<number | undefined>;
  /** Runs `fn(arg)` in the page (a function that captures nothing). */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** Evaluates a script's source in the page; awaits it when it is a promise. */
  evaluateSource(source: string): Promise<unknown>;
  close(): Promise<void>;
}

export interface TestBrowser {
  readonly engine: EngineName;
  newTab(): Promise<TestTab>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** PEM of a server certificate the browser must accept on https/wss. */
  trustCertificate?: string;
  /** Host names the browser resolves to 127.0.0.1 (for DNS rebinding tests). */
  loopbackHosts?: string[];
}

export type EngineName = 'chromium' | 'firefox';

export interface Engine {
  readonly name: EngineName;
  /** Why this engine cannot run here (its browser is not installed), or null. */
  missing(): string | null;
  launch(options?: LaunchOptions): Promise<TestBrowser>;
}

const CHROMIUM_PATH = '/usr/bin/chromium';
const FIREFOX_PATH = '/usr/bin/firefox-esr';
/** The machine running the tests is shared and loaded: a browser may take long to start. */
const LAUNCH_TIMEOUT_MS = 120_000;

/** Debian's Chromium (never a downloaded browser), as the BRIEF says to launch it. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      ...extraArgs,
    ],
    timeout: LAUNCH_TIMEOUT_MS,
  });
}

export const chromiumEngine: Engine = {
  name: 'chromium',
  missing: () => (existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} is not installed`),
  async launch(options = {}) {
    const args: string[] = [];
    if (options.trustCertificate) {
      // Chromium trusts one certificate by the hash of its public key; nothing else is relaxed.
      const spki = new X509Certificate(options.trustCertificate).publicKey.export({
        type: 'spki',
        format: 'der',
      });
      args.push(
        `--ignore-certificate-errors-spki-list=${createHash('sha256').update(spki).digest('base64')}`,
      );
    }
    if (options.loopbackHosts?.length) {
      args.push(
        `--host-resolver-rules=${options.loopbackHosts.map((h) => `MAP ${h} 127.0.0.1`).join(',')}`,
      );
    }
    const browser = await launchChromium(args);
    return {
      engine: 'chromium',
      async newTab() {
        const page = await browser.newPage();
        await page.addInitScript({ content: KEEP_NAMES });
        return {
          goto: async (url) => (await page.goto(url))?.status(),
          evaluate: (fn, arg) => page.evaluate(fn as (a: unknown) => never, arg as unknown),
          evaluateSource: (source) => page.evaluate(source),
          close: () => page.close(),
        };
      },
      close: () => browser.close(),
    };
  },
};

export const firefoxEngine: Engine = {
  name: 'firefox',
  missing: () =>
    existsSync(FIREFOX_PATH)
      ? null
      : `${FIREFOX_PATH} is not installed (Debian package firefox-esr)`,
  async launch(options = {}) {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      protocol: 'webDriverBiDi',
      headless: true,
      timeout: LAUNCH_TIMEOUT_MS,
      protocolTimeout: LAUNCH_TIMEOUT_MS,
      // WebDriver BiDi cannot trust one certificate: the session accepts any on https/wss.
      acceptInsecureCerts: Boolean(options.trustCertificate),
      extraPrefsFirefox: {
        // Names resolved to the loopback, as Chromium's --host-resolver-rules.
        ...(options.loopbackHosts?.length
          ? { 'network.dns.localDomains': options.loopbackHosts.join(',') }
          : {}),
      },
    });
    return {
      engine: 'firefox',
      async newTab() {
        const page = await browser.newPage();
        await page.evaluateOnNewDocument(KEEP_NAMES);
        return {
          goto: async (url) => (await page.goto(url))?.status(),
          evaluate: (fn, arg) => page.evaluate(fn as (a: unknown) => never, arg) as never,
          evaluateSource: (source) => page.evaluate(source),
          close: () => page.close(),
        };
      },
      close: () => browser.close(),
    };
  },
};

export const ENGINES: readonly Engine[] = [chromiumEngine, firefoxEngine];
