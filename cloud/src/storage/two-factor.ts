/**
 * Two-factor sign-in: the TOTP fields of a user's profile (with the last step used, so a code is
 * not accepted twice) and the single-use recovery codes, stored hashed.
 */
import type { WriteFn } from './organizations.js';

export class TwoFactorRepository {
  constructor(private readonly write: WriteFn) {}

  // TOTP

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
}
