/**
 * Login throttling per account and per client address. Once `freeAttempts` failures in a row
 * are spent, each further attempt must wait `baseDelayMs` doubled per failure, capped at `maxDelayMs`:
 * a stranger guessing at an account delays its owner by at most the cap, and a success resets
 * the account's count. The counts live in the cache store, so every instance sharing it (Redis)
 * counts the same failures and sees the same resets; the in-process store keeps them for its one
 * instance, pruned when they grow. Times come from the injected clock. Without its counts a login
 * is refused (503 UNAVAILABLE), never let through unthrottled.
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

export class LoginThrottle {
  /**
   * `prefix` names this throttle's keys in the cache store (e.g. `login:account:`), so that two
   * throttles over one store do not share counts.
   */
  constructor(
    private readonly cache: CacheStore,
    private readonly clock: Clock,
    private readonly options: ThrottleOptions,
    private readonly prefix: string,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  waitMs(key: string): Promise<number> {
    return unavailableWithoutCache(this.cache.throttleWait(this.prefix + key, this.clock.now()));
  }

  fail(key: string): Promise<void> {
    return unavailableWithoutCache(
      this.cache.throttleFail(this.prefix + key, this.options, this.clock.now()),
    );
  }

  reset(key: string): Promise<void> {
    return unavailableWithoutCache(this.cache.throttleReset(this.prefix + key));
  }
}

async function unavailableWithoutCache<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (cause) {
    throw new PrintwireError(
      'UNAVAILABLE',
      'sign-in is paused: the cache store that counts failed logins cannot be reached; try again shortly',
      { cause },
    );
  }
}
