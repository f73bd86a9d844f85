/** In-process cache store: the default for a single instance. */
import {
  refill,
  throttleFailure,
  type CacheStore,
  type ThrottleOptions,
  type ThrottleState,
  type TokenBucketOptions,
  type TokenBucketResult,
} from './types.js';

export interface MemoryCacheOptions {
  /** Buckets kept before the idle ones are dropped. Default 100,000. */
  maxBuckets?: number;
}

export class MemoryCache implements CacheStore {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();
  /** In order of last failure, oldest first. */
  private readonly throttles = new Map<string, ThrottleState>();
  private readonly maxBuckets: number;

  constructor(options: MemoryCacheOptions = {}) {
    this.maxBuckets = options.maxBuckets ?? 100_000;
  }

  async takeToken(key: string, options: TokenBucketOptions): Promise<TokenBucketResult> {
    const state = refill(this.buckets.get(key), options);
    if (!this.buckets.has(key) && this.buckets.size >= this.maxBuckets) this.evict(options);
    if (state.tokens >= 1) {
      state.tokens -= 1;
      this.buckets.set(key, state);
      return { allowed: true, remaining: Math.floor(state.tokens), retryAfterMs: 0 };
    }
    this.buckets.set(key, state);
    const retryAfterMs = Math.ceil(((1 - state.tokens) / options.refillPerSecond) * 1000);
    return { allowed: false, remaining: 0, retryAfterMs };
  }

  /** Drops buckets that are full again (idle long enough): they hold no information. */
  private evict(options: TokenBucketOptions): void {
    for (const [key, state] of this.buckets) {
      if (refill(state, options).tokens >= options.capacity) this.buckets.delete(key);
    }
    if (this.buckets.size >= this.maxBuckets) this.buckets.clear();
  }

  async throttleWait(key: string, now: number): Promise<number> {
    const state = this.throttles.get(key);
    return state ? Math.max(0, state.blockedUntil - now) : 0;
  }

  /** Beyond `options.maxKeys` keys, the one whose last failure is oldest is dropped. */
  async throttleFail(key: string, options: ThrottleOptions, now: number): Promise<void> {
    const state = throttleFailure(this.throttles.get(key), options, now);
    this.throttles.delete(key);
    this.throttles.set(key, state);
    while (this.throttles.size > options.maxKeys) {
      const oldest = this.throttles.keys().next().value;
      if (oldest === undefined) break;
      this.throttles.delete(oldest);
    }
  }

  async throttleReset(key: string): Promise<void> {
    this.throttles.delete(key);
  }

  async ping(): Promise<void> {}
  async close(): Promise<void> {
    this.buckets.clear();
    this.throttles.clear();
  }
}
