/**
 * Arriving and getting back in: sign-up, e-mail verification, password reset, and invitations,
 * each with the e-mail that carries its token (written to the mail outbox, limited per
 * recipient).
 */
import type { MailKind } from '../mail/messages.js';
import { composeMail, mailLink } from '../mail/messages.js';
import type { Invitation, Role } from '../storage/accounts.js';
import type { MailMessage } from '../storage/mail-outbox.js';
import type { User } from '../storage/types.js';
import { badToken, presentUser, type AccountContext, type UserView } from './context.js';
import { hashPassword } from './passwords.js';
import { newToken, sha256 } from './secrets.js';

export class Registration {
  constructor(private readonly ctx: AccountContext) {}

  /** Creates the account and mails a verification link; a known address gets the same answer. */
  async signup(input: {
    email: string;
    password: string;
    name: string;
    locale: string;
  }): Promise<void> {
    const mayMail = await this.mayMail(input.email);
    const now = this.ctx.clock.now();
    const passwordHash = await hashPassword(input.password);
    const user = await this.ctx.store.accounts.createUser(
      { email: input.email, name: input.name, passwordHash, locale: input.locale, verified: false },
      now,
    );
    if (user) {
      if (mayMail) {
        await this.sendUserMail(
          'verify-email',
          user,
          input.locale,
          this.ctx.lifetimes.verifyEmailMs,
        );
      }
      return;
    }
    if (!mayMail) return;
    // Known address: an unverified owner gets a fresh link; nothing tells the caller.
    const existing = await this.ctx.store.accounts.findAccountByEmail(input.email);
    if (existing && existing.user.emailVerifiedAt === null) {
      await this.sendUserMail(
        'verify-email',
        existing.user,
        existing.locale,
        this.ctx.lifetimes.verifyEmailMs,
      );
    }
  }

  async resendVerification(email: string): Promise<void> {
    if (!(await this.mayMail(email))) return;
    const account = await this.ctx.store.accounts.findAccountByEmail(email);
    if (!account || account.user.emailVerifiedAt !== null) return;
    await this.sendUserMail(
      'verify-email',
      account.user,
      account.locale,
      this.ctx.lifetimes.verifyEmailMs,
    );
  }

  async verifyEmail(token: string): Promise<UserView> {
    const now = this.ctx.clock.now();
    const used = await this.ctx.store.accounts.consumeToken('verify-email', sha256(token), now);
    if (!used) throw badToken();
    await this.ctx.store.accounts.markVerified(used.userId, now);
    return presentUser(await this.ctx.account(used.userId));
  }

  // Password reset

  async forgotPassword(email: string): Promise<void> {
    if (!(await this.mayMail(email))) return;
    const account = await this.ctx.store.accounts.findAccountByEmail(email);
    if (!account) return;
    await this.sendUserMail(
      'reset-password',
      account.user,
      account.locale,
      this.ctx.lifetimes.resetPasswordMs,
    );
  }

  /**
   * Sets a new password and revokes every session. Two-factor stays on: the next login still
   * asks for the code. Following the link also proves the address, so it verifies the e-mail.
   */
  async resetPassword(token: string, password: string): Promise<void> {
    const now = this.ctx.clock.now();
    const used = await this.ctx.store.accounts.consumeToken('reset-password', sha256(token), now);
    if (!used) throw badToken();
    await this.ctx.store.accounts.setPasswordHash(used.userId, await hashPassword(password));
    await this.ctx.store.accounts.markVerified(used.userId, now);
    await this.ctx.store.accounts.revokeUserSessions(used.userId, now);
  }

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
    const now = this.ctx.clock.now();
    const token = newToken();
    const expiresAt = now + input.ttlMs;
    const invitation = await this.ctx.store.members.createInvitation(
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
          link: mailLink(this.ctx.publicUrl, 'invitation', token),
          vars: { inviter: input.inviter.name, org: input.organization.name, role: input.role },
        }),
      },
    );
    this.ctx.mail?.nudge();
    return invitation;
  }

  /**
   * Whether an account e-mail to `email` is within its limit (DEFAULT_MAIL_THROTTLE). Asked before
   * the address is looked up, known or not, so that neither the answer nor a 503 (the cache store
   * is down) tells whether it is known; over the limit no e-mail is made and the caller answers as
   * usual.
   */
  private async mayMail(email: string): Promise<boolean> {
    return (await this.ctx.mailThrottle.waitMs(email.toLowerCase())) === 0;
  }

  /** Writes a token and the e-mail carrying it; counts the e-mail against the recipient's limit. */
  private async sendUserMail(
    kind: Extract<MailKind, 'verify-email' | 'reset-password'>,
    user: User,
    locale: string,
    lifetimeMs: number,
  ): Promise<void> {
    const now = this.ctx.clock.now();
    const token = newToken();
    const expiresAt = now + lifetimeMs;
    const mail: MailMessage = {
      organizationId: null,
      expiresAt,
      ...composeMail(kind, locale, {
        to: user.email,
        link: mailLink(this.ctx.publicUrl, kind, token),
        vars: { name: user.name },
      }),
    };
    await this.ctx.store.accounts.createToken(
      { kind, userId: user.id, tokenHash: sha256(token), expiresAt },
      now,
      mail,
    );
    await this.ctx.mailThrottle.fail(user.email.toLowerCase());
    this.ctx.mail?.nudge();
  }
}
