/**
 * TOTP (RFC 6238): SHA-1, 6 digits, 30-second steps, one step of drift either way. The caller
 * remembers the step a code was accepted at, so that a code is accepted once.
 */
import { generateSecret, generateURI, verifySync } from 'otplib';

export const TOTP_PERIOD_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

export function otpauthUrl(secret: string, account: string, issuer = 'Printwire'): string {
  return generateURI({ issuer, label: account, secret, period: TOTP_PERIOD_SECONDS, digits: 6 });
}

/** The time step at which `code` is valid for `secret` at `nowMs`, or undefined. */
export function matchTotp(secret: string, code: string, nowMs: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const epoch = Math.floor(nowMs / 1000);
  const result = verifySync({
    secret,
    token: code,
    epoch,
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: TOTP_PERIOD_SECONDS,
  });
  return result.valid ? Math.floor(epoch / TOTP_PERIOD_SECONDS) + result.delta : undefined;
}
