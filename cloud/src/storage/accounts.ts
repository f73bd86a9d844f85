/**
 * Dashboard accounts: users with their profile (locale, two-factor), single-use tokens,
 * sessions with their access and refresh tokens, recovery codes, memberships and invitations.
 * Every secret arrives here already hashed; every organization-scoped method takes the org id.
 */
import type { Kysely, Selectable } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import { newId } from '../lib/ids.js';
import type { WriteFn } from './organizations.js';
import { toApiKey, toDevice, toOrganization, toTemplate, toUser } from './rows.js';
import type { MailMessage, MailOutbox } from './mail-outbox.js';
import type { Database, InvitationsTable } from './schema.js';
import type { ApiKey, Device, Organization, Template, User } from './types.js';
import { DEFAULT_TEMPLATE_LIMITS, type TemplateLimits } from './templates.js';

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';
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

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: number;
}

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  invitedBy: string;
  expiresAt: number;
  acceptedAt: number | null;
  revokedAt: number | null;
  createdAt: number;
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

const nullableNumber = (v: number | null): number | null => (v === null ? null : Number(v));

function toInvitation(row: Selectable<InvitationsTable>): Invitation {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role as Role,
    invitedBy: row.invitedBy,
    expiresAt: Number(row.expiresAt),
    acceptedAt: nullableNumber(row.acceptedAt),
    revokedAt: nullableNumber(row.revokedAt),
    createdAt: Number(row.createdAt),
  };
}

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

  /** Sets two-factor fields, creating the profile row of a user made before migration 0002. */
  async updateProfile(
    userId: string,
    patch: {
      totpSecret?: string | null;
      totpEnabledAt?: number | null;
      totpLastStep?: number | null;
    },
  ): Promise<void> {
    await this.write(async (trx) => {
      await trx
        .insertInto('userProfiles')
        .values({ userId, locale: 'en' })
        .onConflict((oc) => oc.column('userId').doNothing())
        .execute();
      await trx.updateTable('userProfiles').set(patch).where('userId', '=', userId).execute();
    });
  }

  /** Records `step` as used; false when it (or a later step) was already used: a replay. */
  async claimTotpStep(userId: string, step: number): Promise<boolean> {
    return this.write(async (trx) => {
      const result = await trx
        .updateTable('userProfiles')
        .set({ totpLastStep: step })
        .where('userId', '=', userId)
        .where((eb) => eb.or([eb('totpLastStep', 'is', null), eb('totpLastStep', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
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

  // Recovery codes

  async replaceRecoveryCodes(userId: string, codeHashes: readonly string[]): Promise<void> {
    await this.write(async (trx) => {
      await trx.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
      if (codeHashes.length === 0) return;
      await trx
        .insertInto('recoveryCodes')
        .values(codeHashes.map((codeHash) => ({ userId, codeHash, usedAt: null })))
        .execute();
    });
  }

  async useRecoveryCode(userId: string, codeHash: string, now: number): Promise<boolean> {
    return this.write(async (trx) => {
      const result = await trx
        .updateTable('recoveryCodes')
        .set({ usedAt: now })
        .where('userId', '=', userId)
        .where('codeHash', '=', codeHash)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  // Memberships

  async organizationsOf(
    userId: string,
  ): Promise<Array<{ organization: Organization; role: Role }>> {
    const rows = await this.read
      .selectFrom('memberships')
      .innerJoin('organizations', 'organizations.id', 'memberships.organizationId')
      .selectAll('organizations')
      .select('memberships.role')
      .where('memberships.userId', '=', userId)
      .orderBy('organizations.createdAt')
      .orderBy('organizations.id')
      .execute();
    return rows.map((row) => ({ organization: toOrganization(row), role: row.role as Role }));
  }

  async roleOf(organizationId: string, userId: string): Promise<Role | undefined> {
    const row = await this.read
      .selectFrom('memberships')
      .select('role')
      .where('organizationId', '=', organizationId)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return row?.role as Role | undefined;
  }

  async listMembers(organizationId: string): Promise<Member[]> {
    const rows = await this.read
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.userId')
      .select([
        'users.id',
        'users.email',
        'users.name',
        'memberships.role',
        'memberships.createdAt',
      ])
      .where('memberships.organizationId', '=', organizationId)
      .orderBy('memberships.createdAt')
      .orderBy('users.id')
      .execute();
    return rows.map((r) => ({
      userId: r.id,
      email: r.email,
      name: r.name,
      role: r.role as Role,
      joinedAt: Number(r.createdAt),
    }));
  }

  /**
   * Changes a member's role or removes them (role null), refusing to leave the organization
   * without an owner. Answers 'not-found', 'last-owner' or 'ok'.
   */
  async changeMember(
    organizationId: string,
    userId: string,
    role: Role | null,
  ): Promise<'ok' | 'not-found' | 'last-owner'> {
    return this.write(async (trx) => {
      const current = await trx
        .selectFrom('memberships')
        .select('role')
        .where('organizationId', '=', organizationId)
        .where('userId', '=', userId)
        .executeTakeFirst();
      if (!current) return 'not-found';
      if (current.role === 'owner' && role !== 'owner') {
        const owners = await trx
          .selectFrom('memberships')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('organizationId', '=', organizationId)
          .where('role', '=', 'owner')
          .executeTakeFirstOrThrow();
        if (Number(owners.n) <= 1) return 'last-owner';
      }
      if (role === null) {
        await trx
          .deleteFrom('memberships')
          .where('organizationId', '=', organizationId)
          .where('userId', '=', userId)
          .execute();
      } else {
        await trx
          .updateTable('memberships')
          .set({ role })
          .where('organizationId', '=', organizationId)
          .where('userId', '=', userId)
          .execute();
      }
      return 'ok';
    });
  }

  async deleteOrganization(organizationId: string): Promise<boolean> {
    return this.write(async (trx) => {
      const result = await trx
        .deleteFrom('organizations')
        .where('id', '=', organizationId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  // Invitations

  async createInvitation(
    input: {
      organizationId: string;
      email: string;
      role: Role;
      invitedBy: string;
      tokenHash: string;
      expiresAt: number;
    },
    now: number,
    /** The invitation e-mail: written to the mail outbox in the same transaction. */
    mail?: MailMessage,
  ): Promise<Invitation> {
    return this.write(async (trx) => {
      const row = {
        id: newId('inv', now),
        ...input,
        email: input.email.toLowerCase(),
        acceptedAt: null,
        revokedAt: null,
        createdAt: now,
      };
      await trx.insertInto('invitations').values(row).execute();
      if (mail) await this.mail.enqueueIn(trx, [mail], now);
      return toInvitation(row);
    });
  }

  /** Invitations neither accepted nor revoked nor expired. */
  async listInvitations(organizationId: string, now: number): Promise<Invitation[]> {
    const rows = await this.read
      .selectFrom('invitations')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    return rows.map(toInvitation);
  }

  async revokeInvitation(organizationId: string, id: string, now: number): Promise<boolean> {
    return this.write(async (trx) => {
      const result = await trx
        .updateTable('invitations')
        .set({ revokedAt: now })
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  /**
   * Accepts a live invitation for `user` when it was sent to the user's address: the membership
   * is added (or kept, with the higher of the two roles left as it was) and the token used up.
   */
  async acceptInvitation(
    tokenHash: string,
    user: { id: string; email: string },
    now: number,
  ): Promise<
    { outcome: 'ok'; invitation: Invitation } | { outcome: 'invalid' } | { outcome: 'wrong-user' }
  > {
    return this.write(async (trx) => {
      const row = await trx
        .selectFrom('invitations')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      if (!row) return { outcome: 'invalid' as const };
      if (row.email !== user.email.toLowerCase()) return { outcome: 'wrong-user' as const };
      await trx
        .updateTable('invitations')
        .set({ acceptedAt: now })
        .where('id', '=', row.id)
        .execute();
      await trx
        .insertInto('memberships')
        .values({
          organizationId: row.organizationId,
          userId: user.id,
          role: row.role,
          createdAt: now,
        })
        .onConflict((oc) => oc.columns(['organizationId', 'userId']).doNothing())
        .execute();
      return { outcome: 'ok' as const, invitation: toInvitation({ ...row, acceptedAt: now }) };
    });
  }

  // API keys (created and revoked through OrganizationsRepository)

  async listApiKeys(organizationId: string): Promise<ApiKey[]> {
    const rows = await this.read
      .selectFrom('apiKeys')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    return rows.map(toApiKey);
  }

  // Devices as the dashboard edits them (the gateway owns activation, presence and tokens)

  /** The organization's activated agents (not the sandbox), oldest first. */
  async listDevices(organizationId: string): Promise<Device[]> {
    const rows = await this.read
      .selectFrom('devices')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('sandbox', '=', 0)
      .where('activated', '=', 1)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    return rows.map(toDevice);
  }

  /** Renames or regroups an activated agent; undefined when there is none with that id. */
  async updateDevice(
    organizationId: string,
    deviceId: string,
    patch: { name?: string; groupId?: string | null },
  ): Promise<Device | undefined> {
    return this.write(async (trx) => {
      const values: { name?: string; groupId?: string | null } = {};
      if (patch.name !== undefined) values.name = patch.name;
      if (patch.groupId !== undefined) values.groupId = patch.groupId;
      let q = trx
        .updateTable('devices')
        .where('organizationId', '=', organizationId)
        .where('id', '=', deviceId)
        .where('sandbox', '=', 0)
        .where('activated', '=', 1);
      // An empty patch still answers the device.
      q = Object.keys(values).length > 0 ? q.set(values) : q.set({ id: deviceId });
      const row = await q.returningAll().executeTakeFirst();
      return row ? toDevice(row) : undefined;
    });
  }

  /** Marks an agent deactivated and offline and forgets its token. False when there is none. */
  async deactivateDevice(organizationId: string, deviceId: string): Promise<boolean> {
    return this.write(async (trx) => {
      const r = await trx
        .updateTable('devices')
        .set({ activated: 0, status: 'offline', tokenHash: null })
        .where('organizationId', '=', organizationId)
        .where('id', '=', deviceId)
        .where('sandbox', '=', 0)
        .where('activated', '=', 1)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    });
  }

  // Templates: the dashboard's update and delete (TemplatesRepository creates and reads)

  /**
   * Updates a template (version + 1) within the organization's total size. Undefined when there
   * is no template with that id.
   */
  async updateTemplate(
    organizationId: string,
    id: string,
    patch: { name?: string; content?: string; paper?: string | null },
    now: number,
    limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
  ): Promise<Template | undefined> {
    return this.write(async (trx) => {
      const rows = await trx
        .selectFrom('templates')
        .select(['id', 'content', 'version'])
        .where('organizationId', '=', organizationId)
        .execute();
      const current = rows.find((r) => r.id === id);
      if (!current) return undefined;
      if (patch.content !== undefined) {
        const others = rows
          .filter((r) => r.id !== id)
          .reduce((sum, r) => sum + Buffer.byteLength(r.content), 0);
        if (others + Buffer.byteLength(patch.content) > limits.maxTotalBytes) {
          throw new PrintwireError(
            'VALIDATION_FAILED',
            `content: an organization's templates hold at most ${limits.maxTotalBytes} bytes in total`,
            {
              details: [
                {
                  path: 'content',
                  message: `content: over ${limits.maxTotalBytes} bytes in total`,
                },
              ],
            },
          );
        }
      }
      const row = await trx
        .updateTable('templates')
        .set({ ...patch, version: Number(current.version) + 1, updatedAt: now })
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? toTemplate(row) : undefined;
    });
  }

  async deleteTemplate(organizationId: string, id: string): Promise<boolean> {
    return this.write(async (trx) => {
      const r = await trx
        .deleteFrom('templates')
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }
}
