/**
 * HTML to PDF with a Chrome, Edge or Chromium (puppeteer-core): the agent makes HTML jobs into
 * PDF with the computer's browser, and the cloud's sandbox draws the preview of an HTML job for
 * a label printer with the same code (then both go on through label-documents.ts). Like pdf.js
 * and sharp, the browser is loaded only by this room of shared (eslint.config.js).
 *
 * One browser process serves every render; each render gets its own browser context (no
 * cookies or storage shared between jobs), closed after it. A render that does not finish in
 * `totalTimeoutMs` fails with RENDER_FAILED; if its context cannot even be closed (a page
 * spinning in JavaScript), the browser is killed and the next render starts a new one.
 *
 * What a page can reach, on the agent and in the sandbox alike: the page is served at a name that
 * never resolves (`PAGE_URL`) with a Content-Security-Policy (`pageCsp`) that lets pictures,
 * fonts, styles and scripts load by URL (https, http outside production; none offline) but no
 * connection a script opens (fetch, XMLHttpRequest, WebSocket, EventSource, beacons; request
 * interception never sees a WebSocket), no frame, worker, form or pop-up window; every other
 * page (a navigation away) is refused, and not even prepared for (no network prediction);
 * WebRTC (a connection the policy does not cover) is taken out of every frame before its
 * scripts run, and the browser sends WebRTC only through a proxy.
 * Every request is intercepted and checked against the same schemes (`file:` never loads).
 *
 * `offline` (the cloud's sandbox, which renders pages sent by API users on its own machine):
 * nothing but `data:`, `blob:` and `about:` may be loaded, and the browser is started besides
 * with every host unresolvable and every connection sent to a proxy that does not exist, so that
 * not even a DNS query or a connection to the loopback leaves it. JavaScript stays on, as on the
 * agent, so that the picture is the agent's.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type HTTPRequest } from 'puppeteer-core';
import { allowedUrlSchemes } from '../contracts/url.js';
import { PrintwireError } from '../errors/index.js';

/** Limits of HTML jobs. */
export const HTML_LIMITS = {
  /** Longest wait for the page to load and the PDF to be made, in ms. */
  renderTimeoutMs: 15_000,
  /** Longest wait for the browser to start, in ms. */
  launchTimeoutMs: 15_000,
} as const;

/** The schemes every render loads, offline too (nothing leaves the browser for them). */
const INLINE_SCHEMES = ['data:', 'blob:', 'about:'];

/**
 * The page is served at this address, by the render itself (the host never resolves, RFC 2606
 * `.invalid`): http, so that http pictures load outside production as from the page's markup.
 */
const PAGE_ORIGIN = 'http://printwire-page.invalid';
const PAGE_URL = `${PAGE_ORIGIN}/`;

/**
 * The page's Content-Security-Policy: what it carries (inline styles and scripts, `data:` and
 * `blob:` pictures and fonts) and, by URL, pictures, fonts, media, styles and scripts of the
 * `remote` schemes (`https:`, `http:`; none offline). No connection from a script of any scheme
 * (`connect-src`: fetch, XMLHttpRequest, WebSocket, EventSource, beacons, pings), no frame but
 * inline ones (which inherit this policy), no worker, no form; `sandbox` without pop-ups: no new
 * window (which the render's interception would not see), no dialog that would block the page.
 */
function pageCsp(remote: readonly string[]): string {
  const loads = ['data:', 'blob:', ...remote].join(' ');
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' 'unsafe-eval' ${loads}`,
    `style-src 'unsafe-inline' ${loads}`,
    `img-src ${loads}`,
    `font-src ${loads}`,
    `media-src ${loads}`,
    'connect-src data: blob:',
    'frame-src data: blob: about:',
    "worker-src 'none'",
    "form-action 'none'",
    `base-uri ${remote.length > 0 ? remote.join(' ') : "'none'"}`,
    'sandbox allow-scripts allow-same-origin',
  ].join('; ');
}

/**
 * Runs in every frame before the page's scripts: WebRTC connects where it likes (TCP to a TURN
 * server at any address), and neither the policy nor the interception sees it.
 */
function withoutWebRtc(): void {
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (/RTC/.test(name)) delete (globalThis as Record<string, unknown>)[name];
  }
}

export interface HtmlPdfOptions {
  /** The browser's executable, or a function finding it when the first render starts it. */
  executablePath: string | (() => string);
  /**
   * Nothing but `data:`, `blob:` and `about:` is loaded, and the browser has no network at all
   * (see above). Default false: pictures, fonts, styles and scripts load by https URLs (http
   * too outside production); connections from scripts, frames and windows never.
   */
  offline?: boolean;
  /** Refuse http:// sub-resources (production; per render with `renderToPdf`'s option). */
  production?: boolean;
  /** Default `HTML_LIMITS.renderTimeoutMs`: the page's load, and the PDF, each. */
  renderTimeoutMs?: number;
  /**
   * The whole render's limit, whatever it waits on (a page that spins in JavaScript after it
   * loaded); then RENDER_FAILED, and the browser is killed if the page will not close. Default
   * twice `renderTimeoutMs` (load and PDF each had theirs).
   */
  totalTimeoutMs?: number;
  /** Default `HTML_LIMITS.launchTimeoutMs`. */
  launchTimeoutMs?: number;
}

export interface HtmlPdfRequest {
  defaultSize?: 'A4' | 'Letter' | 'A5';
  /** Receipt printers: one page this wide and as long as the content. */
  widthMm?: number;
  /** Label printers: pages of the label's size, without margins. */
  pageMm?: { width: number; height: number };
  production?: boolean;
  /**
   * Pages made at most: the browser stops there (pages past it are not laid out into the PDF).
   * Default all of them.
   */
  maxPages?: number;
}

const PROFILE_PREFIX = 'printwire-browser-';

/**
 * The browser's preferences, written into its fresh profile: no network prediction (Chrome
 * opens a connection to where a page or a frame is about to go before the navigation is even
 * asked for, so a refused navigation would still knock at the address).
 */
const PREFERENCES = { net: { network_prediction_options: 2 } };

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
 * Deletes the temporary browser profiles of processes that are gone (killed before they could
 * delete their own): a profile's name carries its process id. Returns how many. Best effort: a
 * killed process's browser may still be writing its profile while it quits (rm then fails with
 * ENOTEMPTY); such a profile is left for the next launch, never failing this one.
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
function launchArgs(offline: boolean): string[] {
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
  // WebRTC only through a proxy (none, or the offline one that does not exist): no UDP.
  args.push(
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  );
  if (offline) {
    args.push(
      // No name resolves (no DNS query leaves), and every connection, the loopback's too, goes
      // to a proxy whose name does not resolve: nothing can connect anywhere.
      '--host-resolver-rules=MAP * ~NOTFOUND',
      '--proxy-server=http://printwire-no-network.invalid:9',
      '--proxy-bypass-list=<-loopback>',
      '--dns-prefetch-disable',
      // A page that hoards memory crashes its own renderer, not the machine.
      '--js-flags=--max-old-space-size=256',
      '--disable-dev-shm-usage',
    );
  } else {
    // The page's pictures and scripts load from any address their scheme allows, as they did
    // when pages were written into about:blank: Chrome's local-network checks would refuse the
    // shop's own addresses to a page served at PAGE_URL (and ask no one, headless).
    args.push('--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests');
  }
  // Chrome refuses to run as root with its sandbox (containers, kiosks running as root).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * Renders HTML to PDF with a Chrome, Edge or Chromium (puppeteer-core), honouring the page's
 * `@page` size and margins. The browser starts on the first render, with a fresh temporary
 * profile, and is reused until `close`.
 */
export class HtmlPdfRenderer {
  readonly #options: HtmlPdfOptions;
  #browser: Promise<{ browser: Browser; profile: string }> | null = null;

  constructor(options: HtmlPdfOptions) {
    this.#options = options;
  }

  #launch(): Promise<{ browser: Browser; profile: string }> {
    if (!this.#browser) {
      const chosen = this.#options.executablePath;
      let executablePath: string;
      try {
        executablePath = typeof chosen === 'function' ? chosen() : chosen;
      } catch (error) {
        return Promise.reject(error as Error);
      }
      // Compared with #browser by the handlers below: a later launch is left alone.
      let launching: Promise<{ browser: Browser; profile: string }> | null = null;
      launching = (async () => {
        await removeOrphanProfiles();
        const profile = await mkdtemp(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
        try {
          await mkdir(join(profile, 'Default'));
          await writeFile(join(profile, 'Default', 'Preferences'), JSON.stringify(PREFERENCES));
          const browser = await puppeteer.launch({
            executablePath,
            headless: true,
            // The DevTools protocol over a pipe, not a port: when the process dies, even by
            // SIGKILL, the pipe closes and the browser quits with it instead of running on.
            pipe: true,
            userDataDir: profile,
            args: launchArgs(this.#options.offline ?? false),
            timeout: this.#options.launchTimeoutMs ?? HTML_LIMITS.launchTimeoutMs,
          });
          // A browser that crashes (or is killed) is started again by the next render.
          browser.once('disconnected', () => {
            if (this.#browser === launching) this.#browser = null;
            void rm(profile, { recursive: true, force: true }).catch(() => undefined);
          });
          return { browser, profile };
        } catch (error) {
          if (this.#browser === launching) this.#browser = null;
          await rm(profile, { recursive: true, force: true });
          throw new PrintwireError(
            'NO_BROWSER',
            `the browser at ${executablePath} did not start: ${(error as Error).message}`,
            { cause: error },
          );
        }
      })();
      this.#browser = launching;
    }
    return this.#browser;
  }

  /**
   * The HTML as PDF: `@page { size; margin }` decide the paper (`preferCSSPageSize`). A page
   * without `@page size` gets `defaultSize` (default A4), or with `widthMm` (receipt printers:
   * the paper width) one page that wide and as long as the content, or with `pageMm` (label
   * printers: the label) pages of that size without margins. Backgrounds print. Throws
   * NO_BROWSER when the browser cannot start, RENDER_FAILED when the page cannot be rendered
   * in time (or crashes the browser).
   */
  async renderToPdf(html: string, options: HtmlPdfRequest = {}): Promise<Buffer> {
    const { browser } = await this.#launch();
    const timeout = this.#options.renderTimeoutMs ?? HTML_LIMITS.renderTimeoutMs;
    const total = this.#options.totalTimeoutMs ?? 2 * timeout;
    const context = await browser.createBrowserContext().catch((error: Error) => {
      throw new PrintwireError(
        'RENDER_FAILED',
        `the HTML could not be rendered: ${error.message}`,
        { cause: error },
      );
    });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new PrintwireError(
              'RENDER_FAILED',
              `the HTML could not be rendered: it did not finish within ${seconds(total)}`,
            ),
          ),
        total,
      );
    });
    const rendering = this.#render(context, html, options, timeout);
    rendering.catch(() => undefined);
    try {
      return await Promise.race([rendering, expired]);
    } catch (error) {
      if (error instanceof PrintwireError) throw error;
      throw new PrintwireError(
        'RENDER_FAILED',
        `the HTML could not be rendered: ${(error as Error).message}`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
      await this.#dispose(browser, context);
    }
  }

  async #render(
    context: BrowserContext,
    html: string,
    options: HtmlPdfRequest,
    timeout: number,
  ): Promise<Buffer> {
    const offline = this.#options.offline ?? false;
    const production = options.production ?? this.#options.production ?? false;
    const page = await context.newPage();
    // A renderer that dies (a page hoarding memory) ends the render at once, not at the timeout.
    const crashed = new Promise<never>((_, reject) => {
      page.once('error', (error) =>
        reject(new Error(`the page crashed the browser's renderer (${error.message})`)),
      );
    });
    crashed.catch(() => undefined);
    await page.evaluateOnNewDocument(withoutWebRtc);
    await page.setRequestInterception(true);
    const remote = offline ? [] : allowedUrlSchemes(production);
    page.on('request', (request: HTTPRequest) => {
      const url = request.url();
      if (request.isNavigationRequest() && url === PAGE_URL) {
        void request
          .respond({
            status: 200,
            contentType: 'text/html; charset=utf-8',
            headers: {
              'content-security-policy': pageCsp(remote),
              'referrer-policy': 'no-referrer',
            },
            body: html,
          })
          .catch(() => undefined);
        return;
      }
      let scheme = '';
      try {
        scheme = new URL(url).protocol;
      } catch {
        // not a URL: refused
      }
      if (INLINE_SCHEMES.includes(scheme)) {
        void request.continue().catch(() => undefined);
        return;
      }
      // Another page (a navigation away, a frame) would not carry the policy: it stays where it
      // is ('aborted' commits no error page in its place).
      if (request.isNavigationRequest()) {
        void request.abort('aborted').catch(() => undefined);
        return;
      }
      // file: and other schemes would let a job read this computer's files; PAGE_URL's host
      // serves nothing but the page.
      const allowed = remote.includes(scheme) && !url.startsWith(`${PAGE_ORIGIN}/`);
      void (allowed ? request.continue() : request.abort('accessdenied')).catch(() => undefined);
    });
    await page.emulateMediaType('print');
    const viewportMm = options.widthMm ?? options.pageMm?.width;
    if (viewportMm) {
      await page.setViewport({ width: Math.round((viewportMm * 96) / 25.4), height: 100 });
    }
    const load = page.goto(PAGE_URL, { waitUntil: 'load', timeout });
    await Promise.race([load, crashed]);
    let size: { format: 'A4' | 'Letter' | 'A5' } | { width: string; height: string } = {
      format: options.defaultSize ?? 'A4',
    };
    if (options.widthMm) {
      const height = Number(
        await Promise.race([page.evaluate('document.documentElement.scrollHeight'), crashed]),
      );
      size = { width: `${options.widthMm}mm`, height: `${Math.max(1, height)}px` };
    } else if (options.pageMm) {
      size = { width: `${options.pageMm.width}mm`, height: `${options.pageMm.height}mm` };
    }
    const bare = options.widthMm !== undefined || options.pageMm !== undefined;
    const pdf = await Promise.race([
      page.pdf({
        preferCSSPageSize: true,
        printBackground: true,
        ...size,
        ...(bare ? { margin: { top: 0, right: 0, bottom: 0, left: 0 } } : {}),
        ...(options.maxPages !== undefined ? { pageRanges: `1-${options.maxPages}` } : {}),
        timeout,
      }),
      crashed,
    ]);
    return Buffer.from(pdf);
  }

  /** Closes a render's context; one that will not close (a page stuck) costs the browser. */
  async #dispose(browser: Browser, context: BrowserContext): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      context.close().then(
        () => true,
        () => !browser.connected,
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 5_000);
      }),
    ]);
    clearTimeout(timer);
    if (closed) return;
    const current = this.#browser;
    if (current && (await current.catch(() => null))?.browser === browser) this.#browser = null;
    browser.process()?.kill('SIGKILL');
    await browser.close().catch(() => undefined);
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
