/**
 * Login throttling per account and per client address. Once `freeAttempts` failures in a row
 * are spent, each further attempt must wait `baseDelayMs` doubled per failure, capped at `maxDelayMs`:
 * a stranger guessing at an account delays its owner by at most the cap, and a success resets
 * the account's count. State is in memory, per instance, and pruned when it grows.
 */
import type { Clock } from '../lib/clock.js';

export interface ThrottleOptions {
  /** Failures allowed before any delay. Default 5. */
  freeAttempts: number;
  /** Delay after the first counted failure. Default 1 s. */
  baseDelayMs: number;
  /** Longest delay. Default 15 minutes. */
  maxDelayMs: number;
  /** Keys remembered at most (oldest dropped). Default 100 000. */
  maxKeys: number;
  /** A key quiet this long starts counting again from zero. Default 15 minutes. */
  forgetAfterMs: number;
}

export const DEFAULT_ACCOUNT_THROTTLE: ThrottleOptions = {
  freeAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  maxKeys: 100_000,
  forgetAfterMs: 15 * 60_000,
};

/** An address may try more accounts than one person mistypes one password. */
export const DEFAULT_ADDRESS_THROTTLE: ThrottleOptions = {
  ...DEFAULT_ACCOUNT_THROTTLE,
  freeAttempts: 20,
};

interface Entry {
  failures: number;
  blockedUntil: number;
  lastFailureAt: number;
}

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly options: ThrottleOptions,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  waitMs(key: string): number {
    const entry = this.entries.get(key);
    if (!entry) return 0;
    return Math.max(0, entry.blockedUntil - this.clock.now());
  }

  fail(key: string): void {
    const now = this.clock.now();
    let entry = this.entries.get(key);
    if (!entry || now - entry.lastFailureAt >= this.options.forgetAfterMs) {
      entry = { failures: 0, blockedUntil: 0, lastFailureAt: now };
    }
    entry.failures += 1;
    entry.lastFailureAt = now;
    const over = entry.failures - this.options.freeAttempts + 1;
    if (over > 0) {
      const delay = Math.min(
        this.options.maxDelayMs,
        this.options.baseDelayMs * 2 ** Math.min(over - 1, 30),
      );
      entry.blockedUntil = now + delay;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.options.maxKeys) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  reset(key: string): void {
    this.entries.delete(key);
  }
}
