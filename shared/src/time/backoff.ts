/**
 * Printwire's one exponential backoff: the cloud link's reconnects, a printer's retries, the
 * sign-in throttle, the mail sender's retries and the dashboard's live channel all wait
 * `base × 2^n`, capped. No imports: the web apps take it too.
 */

/** Doublings beyond this change nothing (and 2^31 × base would leave safe integers behind). */
const MAX_DOUBLINGS = 30;

/**
 * The wait after `doublings` doublings of `baseMs` (0: `baseMs` itself), at most `maxMs`.
 * Callers count from their first retry: `backoffMs(attempt - 1, …)`.
 */
export function backoffMs(doublings: number, options: { baseMs: number; maxMs: number }): number {
  const n = Math.min(Math.max(doublings, 0), MAX_DOUBLINGS);
  return Math.min(options.maxMs, options.baseMs * 2 ** n);
}

/**
 * "Full jitter" from AWS's "Exponential Backoff And Jitter": a wait drawn uniformly in
 * [0, window), so that many clients that failed together do not come back together. `random`
 * returns [0, 1) and is injected so tests can fix it.
 */
export function fullJitter(windowMs: number, random: () => number): number {
  return Math.floor(random() * windowMs);
}
