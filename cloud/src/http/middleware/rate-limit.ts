/**
 * Per-key rate limit: a token bucket in the cache store (so it holds across instances with Redis).
 * Over it: 429 RATE_LIMITED with Retry-After in whole seconds. When the cache store fails the
 * request is let through and the failure logged: a cache outage must not stop printing.
 */
import type { RequestHandler } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { CacheStore } from '../../cache/types.js';
import type { Clock } from '../../lib/clock.js';
import { auth, locals } from '../context.js';

export interface RateLimitOptions {
  /** Tokens per second. Default 100. */
  perSecond: number;
  /** Bucket size. Default perSecond. */
  burst: number;
}

export function rateLimit(
  cache: CacheStore,
  clock: Clock,
  options: RateLimitOptions,
): RequestHandler {
  return async (_req, res, next) => {
    const { apiKey } = auth(res);
    let result;
    try {
      result = await cache.takeToken(`key:${apiKey.id}`, {
        capacity: options.burst,
        refillPerSecond: options.perSecond,
        now: clock.now(),
      });
    } catch (err) {
      locals(res).log?.warn({ err }, 'rate limit skipped: cache store failed');
      next();
      return;
    }
    res.setHeader('RateLimit-Limit', String(options.perSecond));
    res.setHeader('RateLimit-Remaining', String(result.remaining));
    if (!result.allowed) {
      const retryAfterSeconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      throw new PrintwireError(
        'RATE_LIMITED',
        `more than ${options.perSecond} requests per second with this key; retry after ${retryAfterSeconds} s`,
        { details: { retryAfterSeconds } },
      );
    }
    next();
  };
}
