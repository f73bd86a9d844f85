import type { PrintwireError } from '@printwire/shared/errors/index';
import type { Downloader, DownloadPolicy } from './downloader.js';

/** Receipt images fetched ahead of encoding, for the receipt engine's `resolveImage`. */
export interface ReceiptImages {
  /** Hand to `encodeReceipt(…, { resolveImage })`: bytes of each fetched URL. */
  resolveImage: (url: string) => Uint8Array | undefined;
  /**
   * Images that could not be fetched (the engine would print a crossed box for each; the agent
   * fails the job with the first one's code, as the contract asks of downloads).
   */
  failures: Array<{
    url: string;
    code: PrintwireError['code'];
    message: string;
    retryable: boolean;
  }>;
}

/** The URLs of the document's image blocks (`{ type: 'image', src: 'https://…' }`). */
export function receiptImageUrls(document: unknown): string[] {
  const blocks = (document as { blocks?: unknown } | null)?.blocks;
  if (!Array.isArray(blocks)) return [];
  const urls = new Set<string>();
  for (const block of blocks as Array<{ type?: unknown; src?: unknown }>) {
    if (
      block?.type === 'image' &&
      typeof block.src === 'string' &&
      /^https?:\/\//i.test(block.src)
    ) {
      urls.add(block.src);
    }
  }
  return [...urls];
}

/**
 * Downloads the images a receipt refers to by URL (the receipt engine is synchronous and takes
 * their bytes through `resolveImage`), under the downloader's limits: https only (http outside
 * production), 5 s, 2 MB, 24 h cache. All are fetched at once.
 */
export async function prefetchReceiptImages(
  document: unknown,
  downloader: Downloader,
  policy: DownloadPolicy = {},
): Promise<ReceiptImages> {
  const fetched = new Map<string, Uint8Array>();
  const failures: ReceiptImages['failures'] = [];
  await Promise.all(
    receiptImageUrls(document).map(async (url) => {
      try {
        fetched.set(url, (await downloader.download(url, policy)).bytes);
      } catch (error) {
        const e = error as PrintwireError;
        failures.push({
          url,
          code: e.code ?? 'DOWNLOAD_FAILED',
          message: e.message,
          retryable: e.retryable ?? true,
        });
      }
    }),
  );
  return { resolveImage: (url) => fetched.get(url), failures };
}
