/** Two-factor authentication: setting up a TOTP secret, confirming it (recovery codes), disabling it. */
import { PrintwireError } from '@printwire/shared/errors/index';
import {
  badToken,
  RECOVERY_CODE_COUNT,
  type AccountContext,
  type SecondFactor,
} from './context.js';
import { newRecoveryCode, newToken, normalizeRecoveryCode, sha256 } from './secrets.js';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp.js';

export class TwoFactor {
  constructor(private readonly ctx: AccountContext) {}

  async setupTwoFactor(
    userId: string,
  ): Promise<{ setupToken: string; secret: string; otpauthUrl: string }> {
    const account = await this.ctx.account(userId);
    if (account.totpEnabledAt !== null) {
      throw new PrintwireError('CONFLICT', 'two-factor authentication is already enabled');
    }
    const now = this.ctx.clock.now();
    const secret = newTotpSecret();
    const setupToken = newToken();
    await this.ctx.store.accounts.createToken(
      {
        kind: '2fa-setup',
        userId,
        tokenHash: sha256(setupToken),
        expiresAt: now + this.ctx.lifetimes.setupMs,
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
    const now = this.ctx.clock.now();
    const hash = sha256(setupToken);
    const pending = await this.ctx.store.accounts.peekToken('2fa-setup', hash, now);
    if (!pending || pending.userId !== userId || !pending.data) throw badToken('setupToken');
    const step = matchTotp(pending.data, code, now);
    if (step === undefined) throw this.ctx.wrongCode();
    if (!(await this.ctx.store.accounts.consumeToken('2fa-setup', hash, now))) {
      throw badToken('setupToken');
    }
    await this.ctx.store.twoFactor.updateProfile(userId, {
      totpSecret: pending.data,
      totpEnabledAt: now,
      totpLastStep: step,
    });
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.ctx.store.twoFactor.replaceRecoveryCodes(
      userId,
      recoveryCodes.map((c) => sha256(normalizeRecoveryCode(c))),
    );
    return { enabled: true, recoveryCodes };
  }

  async disableTwoFactor(userId: string, factor: SecondFactor): Promise<{ enabled: false }> {
    const account = await this.ctx.account(userId);
    if (account.totpEnabledAt === null) {
      throw new PrintwireError('CONFLICT', 'two-factor authentication is not enabled');
    }
    await this.ctx.checkSecondFactor(account, factor, account.user.email, undefined);
    await this.ctx.store.twoFactor.updateProfile(userId, {
      totpSecret: null,
      totpEnabledAt: null,
      totpLastStep: null,
    });
    await this.ctx.store.twoFactor.replaceRecoveryCodes(userId, []);
    return { enabled: false };
  }
}
