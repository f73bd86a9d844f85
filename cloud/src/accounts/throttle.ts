/**
 * Login throttling per account and per client address. Once `freeAttempts` failures in a row
 * are spent, each further attempt must wait `baseDelayMs` doubled per failure, capped at `maxDelayMs`:
 * a stranger guessing at an account delays its owner by at most the cap, and a success resets
 * the account's count. The counts live in the cache store, so every instance sharing it (Redis)
 * counts the same failures and sees the same resets; the in-process store keeps them for its one
 * instance, pruned when they grow. Times come from the injected clock. Without its counts a login
 * is refused (503 UNAVAILABLE), never let through unthrottled. The same counting limits the
 * account e-mails sent to one address (`DEFAULT_MAIL_THROTTLE`).
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { CacheStore, ThrottleOptions } from '../cache/types.js';
import type { Clock } from '../lib/clock.js';

export type { ThrottleOptions } from '../cache/types.js';

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

/**
 * Verification and password-reset e-mails per recipient: anyone may ask for them, so without a
 * limit anyone could flood an inbox (and the sender's reputation). Three at once, then the next
 * after 1 min, 2, 4 … up to one an hour; an hour without one starts over.
 */
export const DEFAULT_MAIL_THROTTLE: ThrottleOptions = {
  freeAttempts: 3,
  baseDelayMs: 60_000,
  maxDelayMs: 60 * 60_000,
  maxKeys: 100_000,
  forgetAfterMs: 60 * 60_000,
};

const SIGN_IN_PAUSED =
  'sign-in is paused: the cache store that counts failed logins cannot be reached; try again shortly';

/**
 * Counts events of a key (a failed login, an e-mail sent) in the cache store and says how long the
 * next must wait: the logins' throttles and the account e-mails' limit.
 */
export class Throttle {
  /**
   * `prefix` names this throttle's keys in the cache store (e.g. `login:account:`), so that two
   * throttles over one store do not share counts.
   */
  constructor(
    private readonly cache: CacheStore,
    private readonly clock: Clock,
    private readonly options: ThrottleOptions,
    private readonly prefix: string,
    /** The 503's message when the cache store does not answer. */
    private readonly unavailable: string = SIGN_IN_PAUSED,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  waitMs(key: string): Promise<number> {
    return this.guard(this.cache.throttleWait(this.prefix + key, this.clock.now()));
  }

  fail(key: string): Promise<void> {
    return this.guard(this.cache.throttleFail(this.prefix + key, this.options, this.clock.now()));
  }

  reset(key: string): Promise<void> {
    return this.guard(this.cache.throttleReset(this.prefix + key));
  }

  private async guard<T>(operation: Promise<T>): Promise<T> {
    try {
      return await operation;
    } catch (cause) {
      throw new PrintwireError('UNAVAILABLE', this.unavailable, { cause });
    }
  }
}
