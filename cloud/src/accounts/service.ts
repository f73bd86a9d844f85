/**
 * AccountService: sign-up, e-mail verification, login with two-factor, sessions (access token +
 * rotating refresh token), password reset and two-factor setup. HTTP-free: the dashboard routes
 * call it with validated input and turn its PrintwireErrors into responses.
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { CacheStore } from '../cache/types.js';
import type { Clock } from '../lib/clock.js';
import { composeMail, mailLink, type MailKind } from '../mail/messages.js';
import type { Account, Invitation, Role, SessionTokens } from '../storage/accounts.js';
import type { MailMessage } from '../storage/mail-outbox.js';
import type { Store } from '../storage/store.js';
import type { User } from '../storage/types.js';
import { hashPassword, verifyNothing, verifyPassword } from './passwords.js';
import { newRecoveryCode, newToken, normalizeRecoveryCode, sha256 } from './secrets.js';
import {
  DEFAULT_ACCOUNT_THROTTLE,
  DEFAULT_ADDRESS_THROTTLE,
  DEFAULT_MAIL_THROTTLE,
  Throttle,
  type ThrottleOptions,
} from './throttle.js';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp.js';

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

const unauthorized = (message: string) => new PrintwireError('UNAUTHORIZED', message);
const badToken = (field = 'token') =>
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

export class AccountService {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly mail: MailNudge | undefined;
  private readonly publicUrl: string;
  readonly lifetimes: AccountLifetimes;
  private readonly accountThrottle: Throttle;
  private readonly addressThrottle: Throttle;
  private readonly mailThrottle: Throttle;

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

  // Sign-up and verification

  /** Creates the account and mails a verification link; a known address gets the same answer. */
  async signup(input: {
    email: string;
    password: string;
    name: string;
    locale: string;
  }): Promise<void> {
    const mayMail = await this.mayMail(input.email);
    const now = this.clock.now();
    const passwordHash = await hashPassword(input.password);
    const user = await this.store.accounts.createUser(
      { email: input.email, name: input.name, passwordHash, locale: input.locale, verified: false },
      now,
    );
    if (user) {
      if (mayMail) {
        await this.sendUserMail('verify-email', user, input.locale, this.lifetimes.verifyEmailMs);
      }
      return;
    }
    if (!mayMail) return;
    // Known address: an unverified owner gets a fresh link; nothing tells the caller.
    const existing = await this.store.accounts.findAccountByEmail(input.email);
    if (existing && existing.user.emailVerifiedAt === null) {
      await this.sendUserMail(
        'verify-email',
        existing.user,
        existing.locale,
        this.lifetimes.verifyEmailMs,
      );
    }
  }

  async resendVerification(email: string): Promise<void> {
    if (!(await this.mayMail(email))) return;
    const account = await this.store.accounts.findAccountByEmail(email);
    if (!account || account.user.emailVerifiedAt !== null) return;
    await this.sendUserMail(
      'verify-email',
      account.user,
      account.locale,
      this.lifetimes.verifyEmailMs,
    );
  }

  async verifyEmail(token: string): Promise<UserView> {
    const now = this.clock.now();
    const used = await this.store.accounts.consumeToken('verify-email', sha256(token), now);
    if (!used) throw badToken();
    await this.store.accounts.markVerified(used.userId, now);
    return presentUser(await this.account(used.userId));
  }

  // Password reset

  async forgotPassword(email: string): Promise<void> {
    if (!(await this.mayMail(email))) return;
    const account = await this.store.accounts.findAccountByEmail(email);
    if (!account) return;
    await this.sendUserMail(
      'reset-password',
      account.user,
      account.locale,
      this.lifetimes.resetPasswordMs,
    );
  }

  /**
   * Sets a new password and revokes every session. Two-factor stays on: the next login still
   * asks for the code. Following the link also proves the address, so it verifies the e-mail.
   */
  async resetPassword(token: string, password: string): Promise<void> {
    const now = this.clock.now();
    const used = await this.store.accounts.consumeToken('reset-password', sha256(token), now);
    if (!used) throw badToken();
    await this.store.accounts.setPasswordHash(used.userId, await hashPassword(password));
    await this.store.accounts.markVerified(used.userId, now);
    await this.store.accounts.revokeUserSessions(used.userId, now);
  }

  // Login and sessions

  /** Checks e-mail and password (and the second factor when one is on). `address`: client IP. */
  async login(input: {
    email: string;
    password: string;
    factor: SecondFactor;
    address: string;
  }): Promise<LoginResult> {
    const accountKey = input.email.toLowerCase();
    const addressKey = input.address;
    await this.checkThrottle(accountKey, addressKey);
    const account = await this.store.accounts.findAccountByEmail(input.email);
    const ok = account
      ? await verifyPassword(account.passwordHash, input.password)
      : (await verifyNothing(input.password), false);
    if (!account || !ok) {
      await Promise.all([
        this.accountThrottle.fail(accountKey),
        this.addressThrottle.fail(addressKey),
      ]);
      throw unauthorized('the e-mail address or the password is wrong');
    }
    if (account.user.emailVerifiedAt === null) {
      throw new PrintwireError(
        'EMAIL_NOT_VERIFIED',
        'confirm your e-mail address first: open the link we sent (or ask for a new one)',
      );
    }
    if (account.totpEnabledAt !== null) {
      if (!input.factor.code && !input.factor.recoveryCode) {
        const challenge = newToken();
        const now = this.clock.now();
        await this.store.accounts.createToken(
          {
            kind: 'login-challenge',
            userId: account.user.id,
            tokenHash: sha256(challenge),
            expiresAt: now + this.lifetimes.challengeMs,
          },
          now,
        );
        return { kind: 'challenge', challenge };
      }
      await this.checkSecondFactor(account, input.factor, accountKey, addressKey);
    }
    await this.accountThrottle.reset(accountKey);
    return { kind: 'session', ...(await this.issueSession(account)) };
  }

  /** Completes a login challenge with a code or a recovery code. */
  async completeChallenge(
    challenge: string,
    factor: SecondFactor,
    address: string,
  ): Promise<IssuedSession> {
    const now = this.clock.now();
    const hash = sha256(challenge);
    const pending = await this.store.accounts.peekToken('login-challenge', hash, now);
    if (!pending) throw unauthorized('the login challenge is invalid or expired: log in again');
    const account = await this.account(pending.userId);
    const accountKey = account.user.email;
    await this.checkThrottle(accountKey, address);
    await this.checkSecondFactor(account, factor, accountKey, address);
    const used = await this.store.accounts.consumeToken('login-challenge', hash, now);
    if (!used) throw unauthorized('the login challenge is invalid or expired: log in again');
    await this.accountThrottle.reset(accountKey);
    return this.issueSession(account);
  }

  /** Rotates a refresh token; a rotated token presented again revokes its session. */
  async refresh(refreshToken: string): Promise<IssuedSession> {
    const now = this.clock.now();
    const next = this.newTokens(now);
    const outcome = await this.store.accounts.rotateRefresh(sha256(refreshToken), next.hashes, now);
    if (outcome.kind === 'reused') {
      throw unauthorized(
        'this refresh token was already used: the session is closed, log in again',
      );
    }
    if (outcome.kind === 'invalid') throw unauthorized('the session has ended: log in again');
    const account = await this.account(outcome.userId);
    return this.present(account, outcome.sessionId, next, now);
  }

  async logout(sessionId: string): Promise<void> {
    await this.store.accounts.revokeSession(sessionId, this.clock.now());
  }

  /** The session of a refresh token (logout without an access token). */
  async sessionOfRefresh(refreshToken: string): Promise<string | undefined> {
    return this.store.accounts.sessionOfRefresh(sha256(refreshToken), this.clock.now());
  }

  /** The session and user of an access token. */
  async authenticate(
    accessToken: string,
  ): Promise<{ sessionId: string; userId: string } | undefined> {
    return this.store.accounts.findAccess(sha256(accessToken), this.clock.now());
  }

  async me(userId: string): Promise<UserView> {
    return presentUser(await this.account(userId));
  }

  /** Changes the caller's name and locale (already validated); answers the user as it now is. */
  async updateMe(userId: string, patch: { name?: string; locale?: string }): Promise<UserView> {
    await this.account(userId);
    await this.store.accounts.updateAccount(userId, patch);
    return this.me(userId);
  }

  // Two-factor

  async setupTwoFactor(
    userId: string,
  ): Promise<{ setupToken: string; secret: string; otpauthUrl: string }> {
    const account = await this.account(userId);
    if (account.totpEnabledAt !== null) {
      throw new PrintwireError('CONFLICT', 'two-factor authentication is already enabled');
    }
    const now = this.clock.now();
    const secret = newTotpSecret();
    const setupToken = newToken();
    await this.store.accounts.createToken(
      {
        kind: '2fa-setup',
        userId,
        tokenHash: sha256(setupToken),
        expiresAt: now + this.lifetimes.setupMs,
        data: secret,
      },
      now,
    );
    return { setupToken, secret, otpauthUrl: otpauthUrl(secret, account.user.email) };
  }

  async confirmTwoFactor(
    userId: string,
    setupToken: string,
    code: string,
  ): Promise<{ enabled: true; recoveryCodes: string[] }> {
    const now = this.clock.now();
    const hash = sha256(setupToken);
    const pending = await this.store.accounts.peekToken('2fa-setup', hash, now);
    if (!pending || pending.userId !== userId || !pending.data) throw badToken('setupToken');
    const step = matchTotp(pending.data, code, now);
    if (step === undefined) throw this.wrongCode();
    if (!(await this.store.accounts.consumeToken('2fa-setup', hash, now))) {
      throw badToken('setupToken');
    }
    await this.store.twoFactor.updateProfile(userId, {
      totpSecret: pending.data,
      totpEnabledAt: now,
      totpLastStep: step,
    });
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.store.twoFactor.replaceRecoveryCodes(
      userId,
      recoveryCodes.map((c) => sha256(normalizeRecoveryCode(c))),
    );
    return { enabled: true, recoveryCodes };
  }

  async disableTwoFactor(userId: string, factor: SecondFactor): Promise<{ enabled: false }> {
    const account = await this.account(userId);
    if (account.totpEnabledAt === null) {
      throw new PrintwireError('CONFLICT', 'two-factor authentication is not enabled');
    }
    await this.checkSecondFactor(account, factor, account.user.email, undefined);
    await this.store.twoFactor.updateProfile(userId, {
      totpSecret: null,
      totpEnabledAt: null,
      totpLastStep: null,
    });
    await this.store.twoFactor.replaceRecoveryCodes(userId, []);
    return { enabled: false };
  }

  // Helpers

  /**
   * Creates an invitation valid for `ttlMs` and its e-mail, in the organization's locale, in one
   * transaction; the mail sender sends it.
   */
  async invite(input: {
    organization: { id: string; name: string; locale: string };
    email: string;
    role: Role;
    inviter: { id: string; name: string };
    ttlMs: number;
  }): Promise<Invitation> {
    const now = this.clock.now();
    const token = newToken();
    const expiresAt = now + input.ttlMs;
    const invitation = await this.store.members.createInvitation(
      {
        organizationId: input.organization.id,
        email: input.email,
        role: input.role,
        invitedBy: input.inviter.id,
        tokenHash: sha256(token),
        expiresAt,
      },
      now,
      {
        organizationId: input.organization.id,
        expiresAt,
        ...composeMail('invitation', input.organization.locale, {
          to: input.email.toLowerCase(),
          link: mailLink(this.publicUrl, 'invitation', token),
          vars: { inviter: input.inviter.name, org: input.organization.name, role: input.role },
        }),
      },
    );
    this.mail?.nudge();
    return invitation;
  }

  private async account(userId: string): Promise<Account> {
    const account = await this.store.accounts.getAccount(userId);
    if (!account) throw unauthorized('the account no longer exists');
    return account;
  }

  private async checkThrottle(accountKey: string, addressKey: string): Promise<void> {
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

  private wrongCode(): PrintwireError {
    return unauthorized('the two-factor code is wrong, expired or already used');
  }

  /** A TOTP code (each time step once) or an unused recovery code; counts failures. */
  private async checkSecondFactor(
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

  private newTokens(now: number): {
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

  private async issueSession(account: Account): Promise<IssuedSession> {
    const now = this.clock.now();
    const tokens = this.newTokens(now);
    const sessionId = await this.store.accounts.createSession(
      account.user.id,
      tokens.hashes,
      now + this.lifetimes.refreshMs,
      now,
    );
    return this.present(account, sessionId, tokens, now);
  }

  private present(
    account: Account,
    sessionId: string,
    tokens: { access: string; refresh: string; hashes: SessionTokens },
    now: number,
  ): IssuedSession {
    return {
      user: presentUser(account),
      sessionId,
      accessToken: tokens.access,
      expiresAt: new Date(now + this.lifetimes.accessMs).toISOString(),
      refreshToken: tokens.refresh,
      refreshExpiresAt: tokens.hashes.refreshExpiresAt,
    };
  }

  /**
   * Whether an account e-mail to `email` is within its limit (DEFAULT_MAIL_THROTTLE). Asked before
   * the address is looked up, known or not, so that neither the answer nor a 503 (the cache store
   * is down) tells whether it is known; over the limit no e-mail is made and the caller answers as
   * usual.
   */
  private async mayMail(email: string): Promise<boolean> {
    return (await this.mailThrottle.waitMs(email.toLowerCase())) === 0;
  }

  /** Writes a token and the e-mail carrying it; counts the e-mail against the recipient's limit. */
  private async sendUserMail(
    kind: Extract<MailKind, 'verify-email' | 'reset-password'>,
    user: User,
    locale: string,
    lifetimeMs: number,
  ): Promise<void> {
    const now = this.clock.now();
    const token = newToken();
    const expiresAt = now + lifetimeMs;
    const mail: MailMessage = {
      organizationId: null,
      expiresAt,
      ...composeMail(kind, locale, {
        to: user.email,
        link: mailLink(this.publicUrl, kind, token),
        vars: { name: user.name },
      }),
    };
    await this.store.accounts.createToken(
      { kind, userId: user.id, tokenHash: sha256(token), expiresAt },
      now,
      mail,
    );
    await this.mailThrottle.fail(user.email.toLowerCase());
    this.mail?.nudge();
  }
}
