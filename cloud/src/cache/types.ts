/**
 * The cache store: in-process for one instance, Redis for several. Rate-limit buckets and
 * failed-login throttles live in it (the event bus has its own room, `bus/`).
 */
import { backoffMs } from '@printwire/shared/time/backoff';

export interface TokenBucketOptions {
  /** Most tokens the bucket holds (the burst). */
  capacity: number;
  /** Tokens added per second. */
  refillPerSecond: number;
  /** Epoch milliseconds from the injected clock. */
  now: number;
}

export interface TokenBucketResult {
  allowed: boolean;
  /** Tokens left after this request. */
  remaining: number;
  /** When refused: milliseconds until one token is back. */
  retryAfterMs: number;
}

/** A failed-login throttle (Throttle in accounts/throttle.ts uses it). */
export interface ThrottleOptions {
  /** Failures allowed before any delay. */
  freeAttempts: number;
  /** Delay after the first counted failure; doubles per further failure. */
  baseDelayMs: number;
  /** Longest delay. */
  maxDelayMs: number;
  /** Keys remembered at most, oldest dropped (the in-process store; Redis expires keys instead). */
  maxKeys: number;
  /** A key quiet this long starts counting again from zero. */
  forgetAfterMs: number;
}

/** One throttle key: failures in a row and until when the next attempt must wait. */
export interface ThrottleState {
  failures: number;
  /** Epoch milliseconds; 0 when not blocked. */
  blockedUntil: number;
  lastFailureAt: number;
}

export interface CacheStore {
  /** Takes one token from the bucket named `key` (created full). */
  takeToken(key: string, options: TokenBucketOptions): Promise<TokenBucketResult>;
  /** Milliseconds until the throttle `key` may try again at `now`; 0 when it may now. */
  throttleWait(key: string, now: number): Promise<number>;
  /** Counts one failure of the throttle `key` at `now` (see `throttleFailure`). */
  throttleFail(key: string, options: ThrottleOptions, now: number): Promise<void>;
  /** Forgets the throttle `key` (a success). */
  throttleReset(key: string): Promise<void>;
  /** Throws when the cache does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Pure token-bucket arithmetic, shared by the in-process store and the Redis script's tests. */
export function refill(
  state: { tokens: number; updatedAt: number } | undefined,
  options: TokenBucketOptions,
): { tokens: number; updatedAt: number } {
  if (!state) return { tokens: options.capacity, updatedAt: options.now };
  const elapsed = Math.max(0, options.now - state.updatedAt) / 1000;
  return {
    tokens: Math.min(options.capacity, state.tokens + elapsed * options.refillPerSecond),
    updatedAt: Math.max(state.updatedAt, options.now),
  };
}

/**
 * The delay a throttle imposes after its `failures`-th failure in a row: none for the first
 * `freeAttempts - 1`, then `baseDelayMs` doubled per failure, capped at `maxDelayMs`. The one
 * place this arithmetic lives: the in-process store calls it, the Redis store sends its values
 * to the script (`throttleDelays`).
 */
export function throttleDelayMs(failures: number, options: ThrottleOptions): number {
  const over = failures - options.freeAttempts + 1;
  if (over <= 0) return 0;
  return backoffMs(over - 1, { baseMs: options.baseDelayMs, maxMs: options.maxDelayMs });
}

/**
 * `throttleDelayMs` for 1, 2, … failures, up to the count from which the delay no longer changes
 * (the cap, or the exponent's limit): entry `i` is the delay after `i + 1` failures, and the last
 * entry holds for every count beyond.
 */
export function throttleDelays(options: ThrottleOptions): number[] {
  const delays: number[] = [];
  const last = Math.max(1, options.freeAttempts + 30);
  for (let failures = 1; failures <= last; failures++) {
    const delay = throttleDelayMs(failures, options);
    delays.push(delay);
    if (delay >= options.maxDelayMs) break;
  }
  return delays;
}

/** A throttle key after one more failure at `now`: pure, like `refill`. */
export function throttleFailure(
  state: ThrottleState | undefined,
  options: ThrottleOptions,
  now: number,
): ThrottleState {
  const fresh = !state || now - state.lastFailureAt >= options.forgetAfterMs;
  const failures = (fresh ? 0 : state.failures) + 1;
  const delay = throttleDelayMs(failures, options);
  const blockedUntil = delay > 0 ? now + delay : fresh ? 0 : state.blockedUntil;
  return { failures, blockedUntil, lastFailureAt: now };
}
