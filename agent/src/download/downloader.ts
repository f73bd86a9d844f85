import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { PrintwireError } from '@printwire/shared/errors/index';
import { DownloadCache, type DownloadedFile } from './download-cache.js';
import { checkDownloadUrl } from './url-policy.js';
import { isPrivateAddress, privateNetworkRefused } from './private-network.js';

/** The spec's download limits. */
export const DOWNLOAD_DEFAULTS = {
  /** Whole download (connect, headers and body), in ms. */
  timeoutMs: 5000,
  /** Largest body accepted, in bytes (2 MB); exactly this many pass. */
  maxBytes: 2 * 1024 * 1024,
  /** How long a downloaded file is served from the cache, in ms (24 hours). */
  cacheTtlMs: 24 * 60 * 60 * 1000,
  /** Redirects followed; each target is checked like the first URL. */
  maxRedirects: 3,
} as const;

export interface DownloaderOptions {
  /** Where cached files live (the agent uses `<data dir>/downloads`); null: no cache. */
  cacheDir: string | null;
  /** `NODE_ENV=production`: http is refused. */
  production: boolean;
  /** Default `DOWNLOAD_DEFAULTS.timeoutMs` (5 s). */
  timeoutMs?: number;
  /** Default `DOWNLOAD_DEFAULTS.maxBytes` (2 MB). */
  maxBytes?: number;
  /** Default `DOWNLOAD_DEFAULTS.cacheTtlMs` (24 h). */
  cacheTtlMs?: number;
  /** Default `DOWNLOAD_DEFAULTS.maxRedirects` (3). */
  maxRedirects?: number;
  /** Milliseconds since the epoch; injectable for the cache's age. */
  now?: () => number;
  /** Extra trusted CA certificates (PEM), e.g. a self-hosted server's. */
  ca?: string | Buffer;
}

/** What one download may reach. */
export interface DownloadPolicy {
  /**
   * Refuse addresses of the shop's network (see `isPrivateAddress`), checked after DNS
   * resolution and on every redirect, the resolved address pinned for the connection. Default
   * false (jobs from the cloud); true for local jobs unless the organization allows it.
   */
  publicOnly?: boolean;
}

/**
 * A `lookup` for http.request that refuses a name resolving to any address of the shop's
 * network and hands the socket the very addresses it checked, so that a second resolution (DNS
 * rebinding) cannot switch the connection to another address.
 */
function publicOnlyLookup(url: URL): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
        callback(privateNetworkRefused(url) as unknown as NodeJS.ErrnoException, '', 0);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The folder of the download cache inside the agent's data dir. */
export function downloadCacheDir(dataDir: string): string {
  return join(dataDir, 'downloads');
}

function tooLarge(url: URL, maxBytes: number): PrintwireError {
  return new PrintwireError(
    'DOWNLOAD_TOO_LARGE',
    `${url.origin}${url.pathname} is larger than ${maxBytes} bytes`,
  );
}

/**
 * Downloads job content and receipt images for the agent (`encoding: url`): https only (http
 * outside production), 5 s, 2 MB, a 24 h cache on disk. Errors: DOWNLOAD_FAILED (retryable,
 * except for refused URLs), DOWNLOAD_TIMEOUT (retryable), DOWNLOAD_TOO_LARGE (not retryable).
 */
export class Downloader {
  readonly #options: Required<Omit<DownloaderOptions, 'ca' | 'cacheDir'>> &
    Pick<DownloaderOptions, 'ca'>;
  readonly #cache: DownloadCache | null;
  /** Network requests made (the cache's hits make none). */
  requests = 0;

  constructor(options: DownloaderOptions) {
    this.#options = {
      production: options.production,
      timeoutMs: options.timeoutMs ?? DOWNLOAD_DEFAULTS.timeoutMs,
      maxBytes: options.maxBytes ?? DOWNLOAD_DEFAULTS.maxBytes,
      cacheTtlMs: options.cacheTtlMs ?? DOWNLOAD_DEFAULTS.cacheTtlMs,
      maxRedirects: options.maxRedirects ?? DOWNLOAD_DEFAULTS.maxRedirects,
      now: options.now ?? Date.now,
      ca: options.ca,
    };
    this.#cache = options.cacheDir === null ? null : new DownloadCache(options.cacheDir);
  }

  /**
   * The file at `url`, from the cache when fetched within the cache TTL. With
   * `policy.publicOnly`, only files fetched under that same rule come from the cache (a file
   * a cloud job fetched from the shop's network is never handed to a local job).
   */
  async download(url: string, policy: DownloadPolicy = {}): Promise<DownloadedFile> {
    const target = checkDownloadUrl(url, this.#options.production);
    const publicOnly = policy.publicOnly === true;
    if (publicOnly && isPrivateAddress(target.hostname)) throw privateNetworkRefused(target);
    const key = publicOnly ? `public-only ${target.href}` : target.href;
    const now = this.#options.now();
    const cached = await this.#cache?.get(key, now, this.#options.cacheTtlMs);
    if (cached) return cached;
    const file = await this.#fetch(target, publicOnly);
    await this.#cache?.put(key, file, now).catch(() => undefined);
    return file;
  }

  /** Deletes cache entries past the TTL. */
  pruneCache(): Promise<number> {
    return this.#cache?.prune(this.#options.now(), this.#options.cacheTtlMs) ?? Promise.resolve(0);
  }

  #fetch(first: URL, publicOnly: boolean): Promise<DownloadedFile> {
    const { timeoutMs } = this.#options;
    return new Promise<DownloadedFile>((resolve, reject) => {
      let settled = false;
      let abort: (() => void) | null = null;
      const finish = (error: PrintwireError | null, file?: DownloadedFile) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        abort?.();
        if (error) reject(error);
        else resolve(file!);
      };
      const timer = setTimeout(
        () =>
          finish(
            new PrintwireError(
              'DOWNLOAD_TIMEOUT',
              `${first.origin} did not deliver the file within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      const get = (url: URL, redirects: number) => {
        // An address written in the URL is not looked up: it is checked here.
        if (publicOnly && isPrivateAddress(url.hostname)) {
          finish(privateNetworkRefused(url));
          return;
        }
        const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
        const req = send(url, {
          method: 'GET',
          ...(publicOnly ? { lookup: publicOnlyLookup(url) } : {}),
          headers: { 'user-agent': 'Printwire-Agent', accept: '*/*' },
          ...(this.#options.ca && url.protocol === 'https:' ? { ca: this.#options.ca } : {}),
        });
        abort = () => req.destroy();
        req.on('error', (error: NodeJS.ErrnoException) =>
          finish(
            error instanceof PrintwireError
              ? error
              : new PrintwireError(
                  'DOWNLOAD_FAILED',
                  `${url.origin}: ${error.code ?? error.message}`,
                  { cause: error },
                ),
          ),
        );
        req.on('response', (res) => {
          const location = res.headers.location;
          if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
            res.resume();
            if (redirects >= this.#options.maxRedirects) {
              finish(new PrintwireError('DOWNLOAD_FAILED', `${url.origin}: too many redirects`));
              return;
            }
            try {
              get(
                checkDownloadUrl(new URL(location, url).href, this.#options.production),
                redirects + 1,
              );
            } catch (error) {
              finish(error as PrintwireError);
            }
            return;
          }
          this.#readBody(url, res, finish);
        });
        req.end();
      };
      this.requests++;
      get(first, 0);
    });
  }

  #readBody(
    url: URL,
    res: IncomingMessage,
    finish: (error: PrintwireError | null, file?: DownloadedFile) => void,
  ): void {
    const { maxBytes } = this.#options;
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      res.resume();
      // 4xx other than 408/429 will not change on a retry.
      const retryable = status >= 500 || status === 408 || status === 429;
      finish(
        new PrintwireError('DOWNLOAD_FAILED', `${url.origin}${url.pathname} answered ${status}`, {
          retryable,
        }),
      );
      return;
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      finish(tooLarge(url, maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    res.on('data', (chunk: Buffer) => {
      length += chunk.length;
      // The declared length can lie: count what actually arrives.
      if (length > maxBytes) finish(tooLarge(url, maxBytes));
      else chunks.push(chunk);
    });
    res.on('end', () => {
      const contentType = res.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? null;
      finish(null, { bytes: Buffer.concat(chunks, length), contentType });
    });
    res.on('error', (error) =>
      finish(new PrintwireError('DOWNLOAD_FAILED', `${url.origin}: ${error.message}`)),
    );
    res.on('aborted', () =>
      finish(new PrintwireError('DOWNLOAD_FAILED', `${url.origin} closed the connection early`)),
    );
  }
}
