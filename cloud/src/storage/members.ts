/**
 * Who belongs to an organization: memberships with their role, and invitations (the invitation
 * e-mail is written to the mail outbox with its invitation). Every method takes the org id.
 */
import type { Kysely, Selectable } from 'kysely';
import { newId } from '../lib/ids.js';
import type { MailMessage, MailOutbox } from './mail-outbox.js';
import type { WriteFn } from './organizations.js';
import { nullableNumber, toOrganization } from './rows.js';
import type { Database, InvitationsTable } from './schema.js';
import type { Organization } from './types.js';

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';

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

export class MembersRepository {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    /** The invitation e-mail is written with its invitation. */
    private readonly mail: MailOutbox,
  ) {}

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
}
