/**
 * What every part of the account service shares: its dependencies, the token lifetimes, the
 * login and e-mail throttles, the views it answers, and the checks more than one part makes
 * (the account exists, the throttle allows, the second factor is right).
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { CacheStore } from '../cache/types.js';
import type { Clock } from '../lib/clock.js';
import type { Account, SessionTokens } from '../storage/accounts.js';
import type { Store } from '../storage/store.js';
import { normalizeRecoveryCode, newToken, sha256 } from './secrets.js';
import {
  DEFAULT_ACCOUNT_THROTTLE,
  DEFAULT_ADDRESS_THROTTLE,
  DEFAULT_MAIL_THROTTLE,
  Throttle,
  type ThrottleOptions,
} from './throttle.js';
import { matchTotp } from './totp.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Lifetimes of the account's tokens; defaults from ../shared/CONTRACT.md and issue 7. */
export interface AccountLifetimes {
  /** Access token. Default 15 minutes. */
  accessMs: number;
  /** Refresh token, and the longest a session lives without a login. Default 30 days. */
  refreshMs: number;
  /** E-mail verification link. Default 24 hours. */
  verifyEmailMs: number;
  /** Password reset link. Default 1 hour. */
  resetPasswordMs: number;
  /** Two-factor setup token. Default 10 minutes. */
  setupMs: number;
  /** Login challenge of a two-factor account. Default 5 minutes. */
  challengeMs: number;
}

export const DEFAULT_LIFETIMES: AccountLifetimes = {
  accessMs: 15 * MINUTE,
  refreshMs: 30 * DAY,
  verifyEmailMs: DAY,
  resetPasswordMs: HOUR,
  setupMs: 10 * MINUTE,
  challengeMs: 5 * MINUTE,
};

/** Recovery codes given when two-factor is enabled. */
export const RECOVERY_CODE_COUNT = 10;

export interface AccountServiceDeps {
  store: Store;
  clock: Clock;
  /**
   * The mail sender: account e-mails are written to the mail outbox with their tokens, and the
   * sender is nudged to send them at once (it also finds them on its own timer).
   */
  mail: MailNudge | undefined;
  publicUrl: string;
  /** Holds the failed-login counts: shared by every instance that shares the store. */
  cache: CacheStore;
  lifetimes?: Partial<AccountLifetimes>;
  accountThrottle?: ThrottleOptions;
  addressThrottle?: ThrottleOptions;
  /** Verification and reset e-mails per recipient. Default `DEFAULT_MAIL_THROTTLE`. */
  mailThrottle?: ThrottleOptions;
}

/** Tells the mail sender that e-mails were written. */
export interface MailNudge {
  nudge(): void;
}

/** What the dashboard shows of a user. */
export interface UserView {
  id: string;
  email: string;
  name: string;
  locale: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  createdAt: string;
}

export interface IssuedSession {
  user: UserView;
  sessionId: string;
  accessToken: string;
  expiresAt: string;
  refreshToken: string;
  refreshExpiresAt: number;
}

export type LoginResult =
  ({ kind: 'session' } & IssuedSession) | { kind: 'challenge'; challenge: string };

/** A second factor: a 6-digit TOTP code or one of the recovery codes. */
export interface SecondFactor {
  code?: string | undefined;
  recoveryCode?: string | undefined;
}

export const unauthorized = (message: string) => new PrintwireError('UNAUTHORIZED', message);
export const badToken = (field = 'token') =>
  new PrintwireError('VALIDATION_FAILED', `${field}: the link is invalid, used or expired`, {
    details: [
      {
        path: field,
        message: `${field}: the link is invalid, used or expired`,
        rule: 'link_invalid',
      },
    ],
  });

export function presentUser(account: Account): UserView {
  return {
    id: account.user.id,
    email: account.user.email,
    name: account.user.name,
    locale: account.locale,
    emailVerified: account.user.emailVerifiedAt !== null,
    twoFactorEnabled: account.totpEnabledAt !== null,
    createdAt: new Date(account.user.createdAt).toISOString(),
  };
}

export class AccountContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly mail: MailNudge | undefined;
  readonly publicUrl: string;
  readonly lifetimes: AccountLifetimes;
  readonly accountThrottle: Throttle;
  readonly addressThrottle: Throttle;
  readonly mailThrottle: Throttle;

  constructor(deps: AccountServiceDeps) {
    this.store = deps.store;
    this.clock = deps.clock;
    this.mail = deps.mail;
    this.publicUrl = deps.publicUrl;
    this.lifetimes = { ...DEFAULT_LIFETIMES, ...deps.lifetimes };
    this.accountThrottle = new Throttle(
      deps.cache,
      deps.clock,
      deps.accountThrottle ?? DEFAULT_ACCOUNT_THROTTLE,
      'login:account:',
    );
    this.addressThrottle = new Throttle(
      deps.cache,
      deps.clock,
      deps.addressThrottle ?? DEFAULT_ADDRESS_THROTTLE,
      'login:address:',
    );
    this.mailThrottle = new Throttle(
      deps.cache,
      deps.clock,
      deps.mailThrottle ?? DEFAULT_MAIL_THROTTLE,
      'mail:to:',
      'account e-mails are paused: the cache store that limits them cannot be reached; try again shortly',
    );
  }

  /** The account of `userId`; UNAUTHORIZED when it no longer exists. */
  async account(userId: string): Promise<Account> {
    const account = await this.store.accounts.getAccount(userId);
    if (!account) throw unauthorized('the account no longer exists');
    return account;
  }

  async checkThrottle(accountKey: string, addressKey: string): Promise<void> {
    const wait = Math.max(
      ...(await Promise.all([
        this.accountThrottle.waitMs(accountKey),
        this.addressThrottle.waitMs(addressKey),
      ])),
    );
    if (wait > 0) {
      const retryAfterSeconds = Math.ceil(wait / 1000);
      throw new PrintwireError(
        'RATE_LIMITED',
        `too many failed logins: try again in ${retryAfterSeconds} s`,
        { details: { retryAfterSeconds } },
      );
    }
  }

  wrongCode(): PrintwireError {
    return unauthorized('the two-factor code is wrong, expired or already used');
  }

  /** A TOTP code (each time step once) or an unused recovery code; counts failures. */
  async checkSecondFactor(
    account: Account,
    factor: SecondFactor,
    accountKey: string,
    addressKey: string | undefined,
  ): Promise<void> {
    const now = this.clock.now();
    let ok = false;
    if (factor.code && account.totpSecret) {
      const step = matchTotp(account.totpSecret, factor.code, now);
      ok = step !== undefined && (await this.store.twoFactor.claimTotpStep(account.user.id, step));
    } else if (factor.recoveryCode) {
      ok = await this.store.twoFactor.useRecoveryCode(
        account.user.id,
        sha256(normalizeRecoveryCode(factor.recoveryCode)),
        now,
      );
    }
    if (!ok) {
      await Promise.all([
        this.accountThrottle.fail(accountKey),
        addressKey !== undefined ? this.addressThrottle.fail(addressKey) : undefined,
      ]);
      throw this.wrongCode();
    }
  }

  /** A new pair of access and refresh tokens, and their hashes as stored. */
  newTokens(now: number): {
    access: string;
    refresh: string;
    hashes: SessionTokens;
  } {
    const access = newToken();
    const refresh = newToken();
    return {
      access,
      refresh,
      hashes: {
        accessHash: sha256(access),
        accessExpiresAt: now + this.lifetimes.accessMs,
        refreshHash: sha256(refresh),
        refreshExpiresAt: now + this.lifetimes.refreshMs,
      },
    };
  }
}
