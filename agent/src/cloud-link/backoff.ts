import { backoffMs, fullJitter } from '@printwire/shared/time/backoff';

/** Reconnection backoff of the cloud link. */
export const RECONNECT_DEFAULTS = {
  /**
   * Window of the first reconnect after a connection is lost. Wide enough that when a cloud
   * restarts, its agents come back spread over several seconds rather than in the same one.
   */
  baseMs: 5000,
  /** Longest window, so a long outage is retried at least once a minute. */
  capMs: 60_000,
} as const;

/**
 * Delay before reconnect number `failures + 1`: "full jitter" (uniform between 0 and
 * min(cap, base × 2^failures)), from AWS's "Exponential Backoff And Jitter". `random` returns
 * [0, 1) and is injected so tests can fix it.
 */
export function reconnectDelayMs(
  failures: number,
  random: () => number,
  options: { baseMs?: number; capMs?: number } = {},
): number {
  const base = options.baseMs ?? RECONNECT_DEFAULTS.baseMs;
  const cap = options.capMs ?? RECONNECT_DEFAULTS.capMs;
  return fullJitter(backoffMs(failures, { baseMs: base, maxMs: cap }), random);
}

/**
 * Delay before reconnecting when the cloud answered the handshake 503 with `Retry-After`: the
 * hint, plus full jitter over as much again, so that the agents it turned away together do not
 * come back together. The hint is capped at the backoff's cap.
 */
export function busyDelayMs(
  retryAfterMs: number,
  random: () => number,
  capMs: number = RECONNECT_DEFAULTS.capMs,
): number {
  const hint = Math.min(Math.max(retryAfterMs, 0), capMs);
  return hint + fullJitter(hint, random);
}

/** A small seeded PRNG (mulberry32) for tests and benchmarks that need repeatable jitter. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
