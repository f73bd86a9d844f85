import { existsSync } from 'node:fs';
import { isAllowedUrlScheme } from '@printwire/shared/contracts/url';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { PrintwireError } from '@printwire/shared/errors/index';

/** Limits of HTML jobs. */
export const HTML_LIMITS = {
  /** Longest wait for the page to load and the PDF to be made, in ms. */
  renderTimeoutMs: 15_000,
  /** Longest wait for the browser to start, in ms. */
  launchTimeoutMs: 15_000,
} as const;

export interface BrowserSearch {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  exists?: (path: string) => boolean;
}

/** Where Chrome, Edge and Chromium are installed by default, per OS, in order of preference. */
export function browserCandidates(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(
      (r): r is string => !!r,
    );
    return [
      ...roots.map((r) => join(r, 'Google', 'Chrome', 'Application', 'chrome.exe')),
      ...roots.map((r) => join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe')),
      ...roots.map((r) => join(r, 'Chromium', 'Application', 'chrome.exe')),
    ];
  }
  if (platform === 'darwin') {
    const apps = ['Google Chrome', 'Microsoft Edge', 'Chromium'];
    const binary = {
      'Google Chrome': 'Google Chrome',
      'Microsoft Edge': 'Microsoft Edge',
      Chromium: 'Chromium',
    };
    return [
      ...apps.map(
        (a) => `/Applications/${a}.app/Contents/MacOS/${binary[a as keyof typeof binary]}`,
      ),
      ...apps.map(
        (a) =>
          `${env.HOME ?? ''}/Applications/${a}.app/Contents/MacOS/${binary[a as keyof typeof binary]}`,
      ),
    ];
  }
  return [
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
  ];
}

/**
 * The browser HTML jobs are rendered with: `PRINTWIRE_BROWSER` when set, else the first installed
 * Chrome, Edge or Chromium. The agent never downloads one. Throws NO_BROWSER when none is found.
 */
export function findBrowser(search: BrowserSearch = {}): string {
  const env = search.env ?? process.env;
  const exists = search.exists ?? existsSync;
  const chosen = env.PRINTWIRE_BROWSER;
  if (chosen) {
    if (exists(chosen)) return chosen;
    throw new PrintwireError(
      'NO_BROWSER',
      `PRINTWIRE_BROWSER is ${chosen}, which does not exist; point it at chrome, msedge or chromium`,
    );
  }
  const candidates = browserCandidates(search.platform ?? process.platform, env);
  const found = candidates.find((path) => exists(path));
  if (found) return found;
  throw new PrintwireError(
    'NO_BROWSER',
    'HTML jobs need Google Chrome, Microsoft Edge or Chromium on this computer; none was found ' +
      `(looked in ${candidates.join(', ')}). Install one, or set PRINTWIRE_BROWSER to its executable`,
  );
}

export interface HtmlRendererOptions {
  /** The browser's executable; default `findBrowser()`. */
  executablePath?: string;
  /**
   * Refuse http:// sub-resources (production; per job with `renderToPdf`'s option). https,
   * data: and blob: are always allowed, file: and other schemes never.
   */
  production?: boolean;
  /** Default `HTML_LIMITS.renderTimeoutMs`. */
  renderTimeoutMs?: number;
  /** Default `HTML_LIMITS.launchTimeoutMs`. */
  launchTimeoutMs?: number;
}

const PROFILE_PREFIX = 'printwire-browser-';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const removeTree = (path: string): Promise<void> =>
  rm(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });

/**
 * Deletes the temporary browser profiles of agents that are gone (killed before they could
 * delete their own): a profile's name carries its agent's process id. Returns how many. Best
 * effort: a killed agent's browser may still be writing its profile while it quits (rm then
 * fails with ENOTEMPTY); such a profile is left for the next launch, never failing this one.
 */
export async function removeOrphanProfiles(dir = tmpdir(), remove = removeTree): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = Number(/^printwire-browser-(\d+)-/.exec(name)?.[1]);
    if (!pid || processAlive(pid)) continue;
    try {
      await remove(join(dir, name));
      removed++;
    } catch {
      // Still being written: the next launch tries again.
    }
  }
  return removed;
}

/** Flags for a headless browser that is a print engine: no first-run, no updates, no GPU. */
function launchArgs(): string[] {
  const args = [
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--mute-audio',
  ];
  // Chrome refuses to run as root with its sandbox (containers, kiosks running as root).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}

/**
 * Renders HTML jobs to PDF with the computer's own Chrome, Edge or Chromium (puppeteer-core),
 * honouring the page's `@page` size and margins. The browser starts on the first job, with a
 * fresh temporary profile, and is reused until `close`.
 */
export class HtmlRenderer {
  readonly #options: HtmlRendererOptions;
  #browser: Promise<{ browser: Browser; profile: string }> | null = null;

  constructor(options: HtmlRendererOptions = {}) {
    this.#options = options;
  }

  #launch(): Promise<{ browser: Browser; profile: string }> {
    if (!this.#browser) {
      const executablePath = this.#options.executablePath ?? findBrowser();
      this.#browser = (async () => {
        await removeOrphanProfiles();
        const profile = await mkdtemp(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
        try {
          const browser = await puppeteer.launch({
            executablePath,
            headless: true,
            // The DevTools protocol over a pipe, not a port: when the agent dies, even by SIGKILL,
            // the pipe closes and the browser quits with it instead of running on forever.
            pipe: true,
            userDataDir: profile,
            args: launchArgs(),
            timeout: this.#options.launchTimeoutMs ?? HTML_LIMITS.launchTimeoutMs,
          });
          // A browser that crashes is started again by the next job; its profile goes with it.
          browser.once('disconnected', () => {
            this.#browser = null;
            void rm(profile, { recursive: true, force: true }).catch(() => undefined);
          });
          return { browser, profile };
        } catch (error) {
          this.#browser = null;
          await rm(profile, { recursive: true, force: true });
          throw new PrintwireError(
            'NO_BROWSER',
            `the browser at ${executablePath} did not start: ${(error as Error).message}`,
            { cause: error },
          );
        }
      })();
    }
    return this.#browser;
  }

  /**
   * The HTML as PDF: `@page { size; margin }` decide the paper (`preferCSSPageSize`). A page
   * without `@page size` gets `defaultSize` (default A4), or with `widthMm` (receipt printers:
   * the paper width) one page that wide and as long as the content, or with `pageMm` (label
   * printers: the label) pages of that size without margins. Backgrounds print. Throws
   * NO_BROWSER when no browser is found, RENDER_FAILED when the page cannot be rendered in time.
   */
  async renderToPdf(
    html: string,
    options: {
      defaultSize?: 'A4' | 'Letter' | 'A5';
      widthMm?: number;
      pageMm?: { width: number; height: number };
      production?: boolean;
    } = {},
  ): Promise<Buffer> {
    const production = options.production ?? this.#options.production ?? false;
    const { browser } = await this.#launch();
    const timeout = this.#options.renderTimeoutMs ?? HTML_LIMITS.renderTimeoutMs;
    const page = await browser.newPage();
    try {
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        const scheme = new URL(request.url()).protocol;
        const allowed =
          ['data:', 'blob:', 'about:'].includes(scheme) || isAllowedUrlScheme(scheme, production);
        // file: and other schemes would let a job read this computer's files.
        void (allowed ? request.continue() : request.abort('accessdenied'));
      });
      await page.emulateMediaType('print');
      const viewportMm = options.widthMm ?? options.pageMm?.width;
      if (viewportMm) {
        await page.setViewport({ width: Math.round((viewportMm * 96) / 25.4), height: 100 });
      }
      await page.setContent(html, { waitUntil: 'load', timeout });
      let size: { format: 'A4' | 'Letter' | 'A5' } | { width: string; height: string } = {
        format: options.defaultSize ?? 'A4',
      };
      if (options.widthMm) {
        const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
        size = { width: `${options.widthMm}mm`, height: `${Math.max(1, height)}px` };
      } else if (options.pageMm) {
        size = { width: `${options.pageMm.width}mm`, height: `${options.pageMm.height}mm` };
      }
      const bare = options.widthMm !== undefined || options.pageMm !== undefined;
      const pdf = await page.pdf({
        preferCSSPageSize: true,
        printBackground: true,
        ...size,
        ...(bare ? { margin: { top: 0, right: 0, bottom: 0, left: 0 } } : {}),
        timeout,
      });
      return Buffer.from(pdf);
    } catch (error) {
      if (error instanceof PrintwireError) throw error;
      throw new PrintwireError(
        'RENDER_FAILED',
        `the HTML could not be rendered: ${(error as Error).message}`,
        { cause: error },
      );
    } finally {
      await page.close().catch(() => undefined);
    }
  }

  /** Stops the browser and deletes its temporary profile. */
  async close(): Promise<void> {
    const running = this.#browser;
    this.#browser = null;
    if (!running) return;
    try {
      const { browser, profile } = await running;
      await browser.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    } catch {
      // never started
    }
  }
}
