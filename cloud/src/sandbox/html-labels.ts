/**
 * HTML jobs for a label printer in the sandbox: laid out by a browser on pages of the label's
 * size, as the agent does (@printwire/shared/documents/html-pdf, the agent's own renderer),
 * then drawn as the printer's `^GF`/`GW` labels like any PDF (virtual-printer.ts).
 *
 * The HTML comes from API users and the browser runs on the cloud's machine, so it runs
 * `offline`: nothing but `data:`, `blob:` and `about:` loads; no request, connection or DNS
 * query leaves the browser (to the internet, to 127.0.0.1, to 169.254.169.254). JavaScript stays
 * on, as on the agent, so the picture is the agent's; a page that spins or hoards memory ends
 * with RENDER_FAILED after the time limit. One browser process serves every preview, started
 * with the first and stopped with the cloud (`close`); each page gets its own browser context,
 * closed after it; at most MAX_PAGES_AT_ONCE pages are laid out at once, MAX_PAGES_WAITING
 * others wait, and more are refused.
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { HtmlPdfRenderer } from '@printwire/shared/documents/html-pdf';

/** Pages the browser lays out at once; a 2-core machine serves the API too. */
export const MAX_PAGES_AT_ONCE = 2;

/** Previews that may wait for their turn; more are refused (UNAVAILABLE, retryable). */
export const MAX_PAGES_WAITING = 8;

/**
 * Pages an HTML label job may lay out: PDF_LIMITS.maxPages, as for a PDF job (the agent fails a
 * longer one). The browser stops one page past it, whatever the page's length.
 */
export const MAX_HTML_LABEL_PAGES = 50;

/** Largest PDF a page may make (a label is some kilobytes; pictures inline make more). */
export const MAX_HTML_PDF_BYTES = 20_000_000;

/** Why an HTML job on a label printer has no preview when the cloud has no browser. */
export const HTML_LABEL_NO_PREVIEW =
  'an HTML job on a label printer is laid out by a browser, and this cloud’s sandbox has none (its operator can name one with SANDBOX_BROWSER); send the page as a PDF to see its labels';

export interface HtmlLabelOptions {
  /** The browser's executable; null: no browser, HTML label jobs have no preview. */
  executablePath: string | null;
  /** The whole layout's time limit, ms. */
  timeoutMs: number;
}

export class HtmlLabelRenderer {
  readonly #options: HtmlLabelOptions;
  #renderer: Promise<HtmlPdfRenderer> | null = null;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(options: HtmlLabelOptions) {
    this.#options = options;
  }

  /** Whether HTML label jobs get a preview (a browser is set up). */
  get available(): boolean {
    return this.#options.executablePath !== null;
  }

  #load(executablePath: string): Promise<HtmlPdfRenderer> {
    // puppeteer-core loads with the first HTML preview, like pdf.js and sharp with the first PDF.
    this.#renderer ??= import('@printwire/shared/documents/html-pdf').then(
      ({ HtmlPdfRenderer }) =>
        new HtmlPdfRenderer({
          executablePath,
          offline: true,
          // The whole layout has the limit; the steps' own (longer) never speak first.
          totalTimeoutMs: this.#options.timeoutMs,
          renderTimeoutMs: this.#options.timeoutMs + 1000,
        }),
    );
    return this.#renderer;
  }

  async #turn(): Promise<() => void> {
    if (this.#running >= MAX_PAGES_AT_ONCE) {
      if (this.#waiting.length >= MAX_PAGES_WAITING) {
        throw new PrintwireError(
          'UNAVAILABLE',
          `the sandbox is laying out ${MAX_PAGES_AT_ONCE + MAX_PAGES_WAITING} HTML labels already; ask for the preview again shortly`,
        );
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#running++;
    return () => {
      this.#running--;
      this.#waiting.shift()?.();
    };
  }

  /**
   * The HTML as a PDF of label-sized pages (`@page size` wins, as on the agent), at most one
   * page past MAX_HTML_LABEL_PAGES (so that a longer page fails as the agent fails it). Throws
   * NOT_FOUND (with the reason) without a browser, NO_BROWSER when it does not start,
   * RENDER_FAILED when the page cannot be laid out in time, crashes, or makes too large a PDF,
   * UNAVAILABLE when too many wait already.
   */
  async labelPdf(html: string, label: { widthMm: number; heightMm: number }): Promise<Buffer> {
    const executablePath = this.#options.executablePath;
    if (executablePath === null) throw new PrintwireError('NOT_FOUND', HTML_LABEL_NO_PREVIEW);
    const renderer = await this.#load(executablePath);
    const done = await this.#turn();
    try {
      const pdf = await renderer.renderToPdf(html, {
        pageMm: { width: label.widthMm, height: label.heightMm },
        maxPages: MAX_HTML_LABEL_PAGES + 1,
      });
      if (pdf.length > MAX_HTML_PDF_BYTES) {
        throw new PrintwireError(
          'RENDER_FAILED',
          `the HTML makes a PDF of ${pdf.length} bytes; at most ${MAX_HTML_PDF_BYTES} are drawn`,
        );
      }
      return pdf;
    } finally {
      done();
    }
  }

  /** Stops the browser (the cloud stops). */
  async close(): Promise<void> {
    const renderer = this.#renderer;
    this.#renderer = null;
    await (await renderer?.catch(() => null))?.close();
  }
}
