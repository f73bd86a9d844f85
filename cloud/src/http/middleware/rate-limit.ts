/**
 * Per-key rate limit: a token bucket in the cache store (so it holds across instances with Redis).
 * Over it: 429 RATE_LIMITED with Retry-After in whole seconds. When the cache store fails the
 * request is let through and the failure logged: a cache outage must not stop printing.
 */
import type { Response } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { CacheStore } from '../../cache/types.js';
import type { Clock } from '../../lib/clock.js';
import { locals } from '../context.js';

export interface RateLimitOptions {
  /** Tokens per second. Default 100. */
  perSecond: number;
  /** Bucket size. Default perSecond. */
  burst: number;
}

/**
 * Takes a token from the key's bucket: sets the RateLimit headers, throws 429 RATE_LIMITED when
 * the bucket is empty.
 */
export function rateLimiter(
  cache: CacheStore,
  clock: Clock,
  options: RateLimitOptions,
): (keyId: string, res: Response) => Promise<void> {
  const limit = String(options.perSecond);
  return async (keyId, res) => {
    let result;
    try {
      result = await cache.takeToken(`key:${keyId}`, {
        capacity: options.burst,
        refillPerSecond: options.perSecond,
        now: clock.now(),
      });
    } catch (err) {
      locals(res).log?.warn({ err }, 'rate limit skipped: cache store failed');
      return;
    }
    res.setHeader('RateLimit-Limit', limit);
    res.setHeader('RateLimit-Remaining', String(result.remaining));
    if (!result.allowed) {
      const retryAfterSeconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      throw new PrintwireError(
        'RATE_LIMITED',
        `more than ${options.perSecond} requests per second with this key; retry after ${retryAfterSeconds} s`,
        { details: { retryAfterSeconds } },
      );
    }
  };
}
