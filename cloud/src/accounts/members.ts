/**
 * Membership: who belongs to an organization with which role, and the rules for changing that.
 * Only owners make, unmake or remove owners; the last owner can be neither demoted nor removed;
 * nobody invites above their own role; any member may leave. Invitations: created (with their
 * e-mail), listed, revoked, accepted by the invited address only.
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Clock } from '../lib/clock.js';
import type { Invitation, Member, Role } from '../storage/accounts.js';
import type { Store } from '../storage/store.js';
import { atMost, can } from './permissions.js';
import { sha256 } from './secrets.js';
import type { AccountService } from './service.js';

/** Invitations are valid 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

/** Who asks: a user and their role in the organization acted on. */
export interface Actor {
  userId: string;
  role: Role;
}

export class MembershipService {
  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      /** Sends invitations (their e-mail) and names the user accepting one. */
      accounts: AccountService;
    },
  ) {}

  /** The user's role in the organization; undefined when not a member (or no organization). */
  roleOf(organizationId: string, userId: string): Promise<Role | undefined> {
    return this.deps.store.members.roleOf(organizationId, userId);
  }

  list(organizationId: string): Promise<Member[]> {
    return this.deps.store.members.listMembers(organizationId);
  }

  /** Gives a member another role; answers the member as they now are. */
  async changeRole(
    organizationId: string,
    userId: string,
    next: Role,
    actor: Actor,
  ): Promise<Member> {
    const { store } = this.deps;
    const current = await store.members.roleOf(organizationId, userId);
    if (!current) throw new PrintwireError('NOT_FOUND', `no member ${userId}`);
    if ((current === 'owner' || next === 'owner') && !can(actor.role, 'owners:manage')) {
      throw new PrintwireError('FORBIDDEN', 'only owners make or unmake owners');
    }
    const outcome = await store.members.changeMember(organizationId, userId, next);
    if (outcome === 'last-owner') {
      throw new PrintwireError(
        'CONFLICT',
        'the last owner cannot be demoted: make another owner first',
      );
    }
    const member = (await store.members.listMembers(organizationId)).find(
      (m) => m.userId === userId,
    );
    if (!member) throw new PrintwireError('NOT_FOUND', `no member ${userId}`);
    return member;
  }

  /** Removes a member, or lets one leave (`userId` the actor's own). */
  async remove(organizationId: string, userId: string, actor: Actor): Promise<void> {
    const { store } = this.deps;
    const self = userId === actor.userId;
    if (!self && !can(actor.role, 'members:manage')) {
      throw new PrintwireError('FORBIDDEN', `the ${actor.role} role may not remove members`);
    }
    const current = await store.members.roleOf(organizationId, userId);
    if (!current) throw new PrintwireError('NOT_FOUND', `no member ${userId}`);
    if (!self && current === 'owner' && !can(actor.role, 'owners:manage')) {
      throw new PrintwireError('FORBIDDEN', 'only owners remove owners');
    }
    const outcome = await store.members.changeMember(organizationId, userId, null);
    if (outcome === 'last-owner') {
      throw new PrintwireError('CONFLICT', 'the last owner cannot leave: make another owner first');
    }
  }

  /** Pending invitations. */
  listInvitations(organizationId: string): Promise<Invitation[]> {
    return this.deps.store.members.listInvitations(organizationId, this.deps.clock.now());
  }

  /** Invites `email` with a role no higher than the actor's; CONFLICT when already a member. */
  async invite(
    organizationId: string,
    input: { email: string; role: Role },
    actor: Actor,
  ): Promise<Invitation> {
    if (
      !atMost(input.role, actor.role) ||
      (input.role === 'owner' && !can(actor.role, 'owners:manage'))
    ) {
      throw new PrintwireError('FORBIDDEN', `a ${actor.role} may not invite a ${input.role}`);
    }
    const { store, accounts } = this.deps;
    const members = await store.members.listMembers(organizationId);
    if (members.some((m) => m.email === input.email.toLowerCase())) {
      throw new PrintwireError('CONFLICT', `${input.email} is already a member`);
    }
    const organization = await store.organizations.get(organizationId);
    if (!organization) throw new PrintwireError('NOT_FOUND', `no organization ${organizationId}`);
    return accounts.invite({
      organization,
      email: input.email,
      role: input.role,
      inviter: await accounts.me(actor.userId),
      ttlMs: INVITATION_TTL_MS,
    });
  }

  /** Revokes a pending invitation; NOT_FOUND when there is none with this id. */
  async revokeInvitation(organizationId: string, id: string): Promise<void> {
    const { store, clock } = this.deps;
    if (!(await store.members.revokeInvitation(organizationId, id, clock.now()))) {
      throw new PrintwireError('NOT_FOUND', `no pending invitation ${id}`);
    }
  }

  /**
   * Joins the organization of the invitation `token` as the user `userId` (whose e-mail must be
   * the invited one); answers the organization's id and the user's role in it now.
   */
  async accept(token: string, userId: string): Promise<{ organizationId: string; role: Role }> {
    const { store, clock, accounts } = this.deps;
    const account = await accounts.me(userId);
    const result = await store.members.acceptInvitation(
      sha256(token),
      { id: account.id, email: account.email },
      clock.now(),
    );
    if (result.outcome === 'invalid') {
      const message = 'token: the invitation is invalid, used, revoked or expired';
      throw new PrintwireError('VALIDATION_FAILED', message, {
        details: [{ path: 'token', message, rule: 'link_invalid' }],
      });
    }
    if (result.outcome === 'wrong-user') {
      throw new PrintwireError(
        'FORBIDDEN',
        'this invitation was sent to another address: log in with that account',
      );
    }
    const organizationId = result.invitation.organizationId;
    const current = await store.members.roleOf(organizationId, account.id);
    return { organizationId, role: current ?? result.invitation.role };
  }
}
