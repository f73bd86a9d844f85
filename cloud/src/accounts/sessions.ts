/**
 * Signing in and staying in: login (with the second factor when one is on), the login
 * challenge, sessions as an access token and a rotating refresh token, logout, and the user's
 * own profile.
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Account, SessionTokens } from '../storage/accounts.js';
import {
  presentUser,
  unauthorized,
  type AccountContext,
  type IssuedSession,
  type LoginResult,
  type SecondFactor,
  type UserView,
} from './context.js';
import { verifyNothing, verifyPassword } from './passwords.js';
import { newToken, sha256 } from './secrets.js';

export class Sessions {
  constructor(private readonly ctx: AccountContext) {}

  /** Checks e-mail and password (and the second factor when one is on). `address`: client IP. */
  async login(input: {
    email: string;
    password: string;
    factor: SecondFactor;
    address: string;
  }): Promise<LoginResult> {
    const accountKey = input.email.toLowerCase();
    const addressKey = input.address;
    await this.ctx.checkThrottle(accountKey, addressKey);
    const account = await this.ctx.store.accounts.findAccountByEmail(input.email);
    const ok = account
      ? await verifyPassword(account.passwordHash, input.password)
      : (await verifyNothing(input.password), false);
    if (!account || !ok) {
      await Promise.all([
        this.ctx.accountThrottle.fail(accountKey),
        this.ctx.addressThrottle.fail(addressKey),
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
        const now = this.ctx.clock.now();
        await this.ctx.store.accounts.createToken(
          {
            kind: 'login-challenge',
            userId: account.user.id,
            tokenHash: sha256(challenge),
            expiresAt: now + this.ctx.lifetimes.challengeMs,
          },
          now,
        );
        return { kind: 'challenge', challenge };
      }
      await this.ctx.checkSecondFactor(account, input.factor, accountKey, addressKey);
    }
    await this.ctx.accountThrottle.reset(accountKey);
    return { kind: 'session', ...(await this.issueSession(account)) };
  }

  /** Completes a login challenge with a code or a recovery code. */
  async completeChallenge(
    challenge: string,
    factor: SecondFactor,
    address: string,
  ): Promise<IssuedSession> {
    const now = this.ctx.clock.now();
    const hash = sha256(challenge);
    const pending = await this.ctx.store.accounts.peekToken('login-challenge', hash, now);
    if (!pending) throw unauthorized('the login challenge is invalid or expired: log in again');
    const account = await this.ctx.account(pending.userId);
    const accountKey = account.user.email;
    await this.ctx.checkThrottle(accountKey, address);
    await this.ctx.checkSecondFactor(account, factor, accountKey, address);
    const used = await this.ctx.store.accounts.consumeToken('login-challenge', hash, now);
    if (!used) throw unauthorized('the login challenge is invalid or expired: log in again');
    await this.ctx.accountThrottle.reset(accountKey);
    return this.issueSession(account);
  }

  /** Rotates a refresh token; a rotated token presented again revokes its session. */
  async refresh(refreshToken: string): Promise<IssuedSession> {
    const now = this.ctx.clock.now();
    const next = this.ctx.newTokens(now);
    const outcome = await this.ctx.store.accounts.rotateRefresh(
      sha256(refreshToken),
      next.hashes,
      now,
    );
    if (outcome.kind === 'reused') {
      throw unauthorized(
        'this refresh token was already used: the session is closed, log in again',
      );
    }
    if (outcome.kind === 'invalid') throw unauthorized('the session has ended: log in again');
    const account = await this.ctx.account(outcome.userId);
    return this.present(account, outcome.sessionId, next, now);
  }

  async logout(sessionId: string): Promise<void> {
    await this.ctx.store.accounts.revokeSession(sessionId, this.ctx.clock.now());
  }

  /** The session of a refresh token (logout without an access token). */
  async sessionOfRefresh(refreshToken: string): Promise<string | undefined> {
    return this.ctx.store.accounts.sessionOfRefresh(sha256(refreshToken), this.ctx.clock.now());
  }

  /** The session and user of an access token. */
  async authenticate(
    accessToken: string,
  ): Promise<{ sessionId: string; userId: string } | undefined> {
    return this.ctx.store.accounts.findAccess(sha256(accessToken), this.ctx.clock.now());
  }

  async me(userId: string): Promise<UserView> {
    return presentUser(await this.ctx.account(userId));
  }

  /** Changes the caller's name and locale (already validated); answers the user as it now is. */
  async updateMe(userId: string, patch: { name?: string; locale?: string }): Promise<UserView> {
    await this.ctx.account(userId);
    await this.ctx.store.accounts.updateAccount(userId, patch);
    return this.me(userId);
  }

  private async issueSession(account: Account): Promise<IssuedSession> {
    const now = this.ctx.clock.now();
    const tokens = this.ctx.newTokens(now);
    const sessionId = await this.ctx.store.accounts.createSession(
      account.user.id,
      tokens.hashes,
      now + this.ctx.lifetimes.refreshMs,
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
      expiresAt: new Date(now + this.ctx.lifetimes.accessMs).toISOString(),
      refreshToken: tokens.refresh,
      refreshExpiresAt: tokens.hashes.refreshExpiresAt,
    };
  }
}
