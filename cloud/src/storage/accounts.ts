/**
 * Dashboard accounts: users with their profile, single-use tokens, and sessions with their access
 * and refresh tokens. Every secret arrives here already hashed. Two-factor (two-factor.ts),
 * memberships and invitations (members.ts) have their own repositories.
 */
import type { Kysely } from 'kysely';
import { newId } from '../lib/ids.js';
import type { WriteFn } from './organizations.js';
import { nullableNumber, toUser } from './rows.js';
import type { MailMessage, MailOutbox } from './mail-outbox.js';
import type { Database } from './schema.js';
import type { User } from './types.js';

// Still exported here for the modules that import them from the accounts.
export type { Invitation, Member, Role } from './members.js';

export type UserTokenKind = 'verify-email' | 'reset-password' | '2fa-setup' | 'login-challenge';

/** A user as the dashboard sees them: the account, its password hash and its profile. */
export interface Account {
  user: User;
  passwordHash: string;
  locale: string;
  totpSecret: string | null;
  totpEnabledAt: number | null;
  totpLastStep: number | null;
}

export interface SessionTokens {
  accessHash: string;
  accessExpiresAt: number;
  refreshHash: string;
  refreshExpiresAt: number;
}

export type RefreshOutcome =
  | { kind: 'rotated'; sessionId: string; userId: string }
  | { kind: 'reused'; sessionId: string }
  | { kind: 'invalid' };

export class AccountsRepository {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    /** The e-mails that carry tokens are written with their tokens. */
    private readonly mail: MailOutbox,
  ) {}

  // Users and profiles

  /** Creates an unverified (or verified) user with a profile; undefined when the e-mail is taken. */
  async createUser(
    input: { email: string; name: string; passwordHash: string; locale: string; verified: boolean },
    now: number,
  ): Promise<User | undefined> {
    return this.write(async (trx) => {
      const email = input.email.toLowerCase();
      const taken = await trx
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      if (taken) return undefined;
      const row = {
        id: newId('usr', now),
        email,
        name: input.name,
        passwordHash: input.passwordHash,
        emailVerifiedAt: input.verified ? now : null,
        createdAt: now,
      };
      await trx.insertInto('users').values(row).execute();
      await trx
        .insertInto('userProfiles')
        .values({ userId: row.id, locale: input.locale })
        .execute();
      return toUser(row);
    });
  }

  private accountQuery() {
    return this.read
      .selectFrom('users')
      .leftJoin('userProfiles', 'userProfiles.userId', 'users.id')
      .selectAll('users')
      .select([
        'userProfiles.locale',
        'userProfiles.totpSecret',
        'userProfiles.totpEnabledAt',
        'userProfiles.totpLastStep',
      ]);
  }

  async findAccountByEmail(email: string): Promise<Account | undefined> {
    const row = await this.accountQuery()
      .where('users.email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row ? this.toAccount(row) : undefined;
  }

  async getAccount(userId: string): Promise<Account | undefined> {
    const row = await this.accountQuery().where('users.id', '=', userId).executeTakeFirst();
    return row ? this.toAccount(row) : undefined;
  }

  private toAccount(
    row: Parameters<typeof toUser>[0] & {
      locale: string | null;
      totpSecret: string | null;
      totpEnabledAt: number | null;
      totpLastStep: number | null;
    },
  ): Account {
    return {
      user: toUser(row),
      passwordHash: row.passwordHash,
      locale: row.locale ?? 'en',
      totpSecret: row.totpSecret,
      totpEnabledAt: nullableNumber(row.totpEnabledAt),
      totpLastStep: nullableNumber(row.totpLastStep),
    };
  }

  async markVerified(userId: string, now: number): Promise<void> {
    await this.write((trx) =>
      trx
        .updateTable('users')
        .set({ emailVerifiedAt: now })
        .where('id', '=', userId)
        .where('emailVerifiedAt', 'is', null)
        .execute(),
    );
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.write((trx) =>
      trx.updateTable('users').set({ passwordHash }).where('id', '=', userId).execute(),
    );
  }

  /** Changes the user's name and the profile's locale; absent fields stay as they are. */
  async updateAccount(userId: string, patch: { name?: string; locale?: string }): Promise<void> {
    await this.write(async (trx) => {
      if (patch.name !== undefined) {
        await trx.updateTable('users').set({ name: patch.name }).where('id', '=', userId).execute();
      }
      if (patch.locale !== undefined) {
        await trx
          .insertInto('userProfiles')
          .values({ userId, locale: patch.locale })
          .onConflict((oc) => oc.column('userId').doUpdateSet({ locale: patch.locale! }))
          .execute();
      }
    });
  }

  // Single-use tokens

  async createToken(
    input: {
      kind: UserTokenKind;
      userId: string;
      tokenHash: string;
      expiresAt: number;
      data?: string;
    },
    now: number,
    /** The e-mail that carries the token: written to the mail outbox in the same transaction. */
    mail?: MailMessage,
  ): Promise<void> {
    await this.write(async (trx) => {
      await trx
        .insertInto('userTokens')
        .values({
          tokenHash: input.tokenHash,
          userId: input.userId,
          kind: input.kind,
          data: input.data ?? null,
          expiresAt: input.expiresAt,
          usedAt: null,
          createdAt: now,
        })
        .execute();
      if (mail) await this.mail.enqueueIn(trx, [mail], now);
    });
  }

  /** Marks a live token of `kind` used and returns its user and data; undefined otherwise. */
  async consumeToken(
    kind: UserTokenKind,
    tokenHash: string,
    now: number,
  ): Promise<{ userId: string; data: string | null } | undefined> {
    return this.write(async (trx) => {
      const row = await trx
        .updateTable('userTokens')
        .set({ usedAt: now })
        .where('tokenHash', '=', tokenHash)
        .where('kind', '=', kind)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now)
        .returning(['userId', 'data'])
        .executeTakeFirst();
      return row ? { userId: row.userId, data: row.data } : undefined;
    });
  }

  /** A live token's user and data without using it up. */
  async peekToken(
    kind: UserTokenKind,
    tokenHash: string,
    now: number,
  ): Promise<{ userId: string; data: string | null } | undefined> {
    const row = await this.read
      .selectFrom('userTokens')
      .select(['userId', 'data'])
      .where('tokenHash', '=', tokenHash)
      .where('kind', '=', kind)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    return row ? { userId: row.userId, data: row.data } : undefined;
  }

  // Sessions

  async createSession(
    userId: string,
    tokens: SessionTokens,
    expiresAt: number,
    now: number,
  ): Promise<string> {
    return this.write(async (trx) => {
      const id = newId('ses', now);
      await trx
        .insertInto('sessions')
        .values({ id, userId, createdAt: now, expiresAt, revokedAt: null })
        .execute();
      await trx
        .insertInto('sessionTokens')
        .values([
          {
            tokenHash: tokens.accessHash,
            sessionId: id,
            kind: 'access',
            expiresAt: tokens.accessExpiresAt,
            usedAt: null,
          },
          {
            tokenHash: tokens.refreshHash,
            sessionId: id,
            kind: 'refresh',
            expiresAt: tokens.refreshExpiresAt,
            usedAt: null,
          },
        ])
        .execute();
      return id;
    });
  }

  /** The session and user of a live access token. */
  async findAccess(
    accessHash: string,
    now: number,
  ): Promise<{ sessionId: string; userId: string } | undefined> {
    const row = await this.read
      .selectFrom('sessionTokens')
      .innerJoin('sessions', 'sessions.id', 'sessionTokens.sessionId')
      .select(['sessions.id as sessionId', 'sessions.userId as userId'])
      .where('sessionTokens.tokenHash', '=', accessHash)
      .where('sessionTokens.kind', '=', 'access')
      .where('sessionTokens.expiresAt', '>', now)
      .where('sessions.revokedAt', 'is', null)
      .where('sessions.expiresAt', '>', now)
      .executeTakeFirst();
    return row;
  }

  /**
   * Uses a refresh token once and stores its successors. A refresh token presented a second time
   * (stolen, or replayed) revokes its whole session.
   */
  async rotateRefresh(
    refreshHash: string,
    next: SessionTokens,
    now: number,
  ): Promise<RefreshOutcome> {
    return this.write(async (trx) => {
      const row = await trx
        .selectFrom('sessionTokens')
        .innerJoin('sessions', 'sessions.id', 'sessionTokens.sessionId')
        .select([
          'sessionTokens.usedAt',
          'sessionTokens.expiresAt',
          'sessions.id as sessionId',
          'sessions.userId',
          'sessions.revokedAt',
          'sessions.expiresAt as sessionExpiresAt',
        ])
        .where('sessionTokens.tokenHash', '=', refreshHash)
        .where('sessionTokens.kind', '=', 'refresh')
        .executeTakeFirst();
      if (!row || row.revokedAt !== null || Number(row.sessionExpiresAt) <= now) {
        return { kind: 'invalid' };
      }
      if (row.usedAt !== null) {
        await trx
          .updateTable('sessions')
          .set({ revokedAt: now })
          .where('id', '=', row.sessionId)
          .execute();
        return { kind: 'reused', sessionId: row.sessionId };
      }
      if (Number(row.expiresAt) <= now) return { kind: 'invalid' };
      await trx
        .updateTable('sessionTokens')
        .set({ usedAt: now })
        .where('tokenHash', '=', refreshHash)
        .execute();
      // The old access token ends with its refresh token.
      await trx
        .deleteFrom('sessionTokens')
        .where('sessionId', '=', row.sessionId)
        .where('kind', '=', 'access')
        .execute();
      await trx
        .insertInto('sessionTokens')
        .values([
          {
            tokenHash: next.accessHash,
            sessionId: row.sessionId,
            kind: 'access',
            expiresAt: next.accessExpiresAt,
            usedAt: null,
          },
          {
            tokenHash: next.refreshHash,
            sessionId: row.sessionId,
            kind: 'refresh',
            expiresAt: next.refreshExpiresAt,
            usedAt: null,
          },
        ])
        .execute();
      return { kind: 'rotated', sessionId: row.sessionId, userId: row.userId };
    });
  }

  /** The live session a refresh token belongs to (used or not). */
  async sessionOfRefresh(refreshHash: string, now: number): Promise<string | undefined> {
    const row = await this.read
      .selectFrom('sessionTokens')
      .innerJoin('sessions', 'sessions.id', 'sessionTokens.sessionId')
      .select('sessions.id')
      .where('sessionTokens.tokenHash', '=', refreshHash)
      .where('sessionTokens.kind', '=', 'refresh')
      .where('sessions.revokedAt', 'is', null)
      .where('sessions.expiresAt', '>', now)
      .executeTakeFirst();
    return row?.id;
  }

  async revokeSession(sessionId: string, now: number): Promise<void> {
    await this.write((trx) =>
      trx
        .updateTable('sessions')
        .set({ revokedAt: now })
        .where('id', '=', sessionId)
        .where('revokedAt', 'is', null)
        .execute(),
    );
  }

  /** Revokes every session of the user but `exceptSessionId`. */
  async revokeUserSessions(userId: string, now: number, exceptSessionId?: string): Promise<void> {
    await this.write(async (trx) => {
      let query = trx
        .updateTable('sessions')
        .set({ revokedAt: now })
        .where('userId', '=', userId)
        .where('revokedAt', 'is', null);
      if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
      await query.execute();
    });
  }
}
