import { PrintwireError } from '@printwire/shared/errors/index';
import { encodeReceipt } from '@printwire/shared/receipt/index';
import { Downloader, downloadCacheDir, type DownloadPolicy } from '../download/downloader.js';
import { prefetchReceiptImages } from '../download/receipt-images.js';
import type { QueuedJob } from '../queue/job-queue.js';
import type { HtmlRenderer } from './html.js';
import { receiptDocumentOf, renderJob, type RenderTarget } from './render-job.js';

/** The job types `renderMediaJob` renders (`MEDIA_JOB_TYPES`, without loading its module). */
const MEDIA_TYPES = new Set(['pdf', 'image', 'html']);

export interface AgentRendererOptions {
  /** The agent's data dir: downloads are cached in `<dataDir>/downloads`. */
  dataDir: string;
  /** `NODE_ENV=production`: http downloads and http sub-resources of HTML jobs are refused. */
  production: boolean;
  /** Milliseconds since the epoch, for the download cache's age (the agent's clock). */
  now?: () => number;
  /** Default: a `Downloader` with the spec's limits and the cache in the data dir. */
  downloader?: Downloader;
  /** Default: an `HtmlRenderer` with the installed browser (started on the first HTML job). */
  html?: HtmlRenderer;
  /** What a job's downloads may reach (local jobs: not the shop's network). Default: anything. */
  downloadPolicy?: (job: QueuedJob) => DownloadPolicy;
}

/**
 * Every job type to printer bytes, for the printer workers: `encoding: url` content downloaded
 * first (the job fails with the download's errorCode), pdf, image and html through
 * `renderMediaJob`, receipts with their image URLs fetched ahead of the (synchronous) receipt
 * engine, everything else through `renderJob`. Owns the browser and the download cache.
 */
export class AgentRenderer {
  readonly downloader: Downloader;
  #html: HtmlRenderer | null;
  readonly #production: boolean;
  readonly #policy: (job: QueuedJob) => DownloadPolicy;

  constructor(options: AgentRendererOptions) {
    this.#production = options.production;
    this.#policy = options.downloadPolicy ?? (() => ({}));
    this.downloader =
      options.downloader ??
      new Downloader({
        cacheDir: downloadCacheDir(options.dataDir),
        production: options.production,
        ...(options.now ? { now: options.now } : {}),
      });
    this.#html = options.html ?? null;
  }

  /**
   * The `RenderFunction` of the printer workers. A download that fails (the content, or an
   * image of a receipt) fails the job with the download's errorCode and retryability.
   */
  readonly render = async (queued: QueuedJob, target: RenderTarget): Promise<Uint8Array> => {
    // pdf.js, sharp and puppeteer load with the first job that needs them, not at start.
    const media =
      queued.encoding === 'url' || MEDIA_TYPES.has(queued.type)
        ? await import('./media-job.js')
        : null;
    const policy = this.#policy(queued);
    const job = media ? await media.resolveUrlContent(queued, this.downloader, policy) : queued;
    if (media?.isMediaJob(job.type)) {
      const { renderMediaJob } = media;
      return renderMediaJob(
        job,
        {
          connection: target.connection ?? 'tcp',
          language: target.language,
          paper: target.paper,
          cut: target.cut,
          ...(target.label ? { label: target.label } : {}),
        },
        { html: await this.#htmlRenderer(), production: this.#production },
      );
    }
    const officeQueue = target.connection === 'system' && target.kind === 'office';
    if (job.type !== 'receipt' || target.language !== 'escpos' || officeQueue) {
      return renderJob(job, target);
    }
    const images = await prefetchReceiptImages(receiptDocumentOf(job), this.downloader, policy);
    const failed = images.failures[0];
    if (failed) {
      throw new PrintwireError(failed.code, `receipt image ${failed.url}: ${failed.message}`, {
        retryable: failed.retryable,
      });
    }
    return renderJob(job, target, (document, profile, options) =>
      encodeReceipt(document, profile, { ...options, resolveImage: images.resolveImage }),
    );
  };

  async #htmlRenderer(): Promise<HtmlRenderer> {
    if (!this.#html) {
      const { HtmlRenderer } = await import('./html.js');
      this.#html ??= new HtmlRenderer({ production: this.#production });
    }
    return this.#html;
  }

  /** Removes cached downloads older than the cache's lifetime; resolves to how many. */
  pruneCache(): Promise<number> {
    return this.downloader.pruneCache();
  }

  /** Stops the browser (if an HTML job started it). */
  close(): Promise<void> {
    return this.#html?.close() ?? Promise.resolve();
  }
}
