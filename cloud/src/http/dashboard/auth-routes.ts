/**
 * The accounts endpoints (spec "Dashboard endpoints: accounts"): sign-up, verification, login
 * with two-factor, refresh and logout through the `pw_refresh` cookie, password reset, the
 * caller's user, and two-factor setup.
 */
import { Router, type RequestHandler, type Response } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { AccountService, IssuedSession } from '../../accounts/service.js';
import { parseWith, type Operation } from '../operation.js';
import { errorBodySchema } from '../../resources/schemas.js';
import {
  challengeSchema,
  confirm2faBody,
  disable2faBody,
  disabledSchema,
  emailBody,
  enabledSchema,
  login2faBody,
  loginBody,
  messageSchema,
  patchMeBody,
  resetBody,
  sessionSchema,
  setupSchema,
  signupAnswerSchema,
  signupBody,
  tokenBody,
  userSchema,
} from './schemas.js';
import {
  readCookie,
  REFRESH_COOKIE,
  requireSession,
  session,
  setRefreshCookie,
} from './session.js';

const TAG = 'Dashboard: accounts';
const invalidBody = {
  description: 'VALIDATION_FAILED: details name each field',
  schema: errorBodySchema,
};
const twoFactorConflict = (state: string) => ({
  description: `CONFLICT: two-factor authentication is ${state}`,
  schema: errorBodySchema,
});
const SESSION_NOTE =
  'Dashboard session: Authorization: Bearer <accessToken> from POST /auth/login (not an API key).';

export const authOperations = {
  signup: {
    method: 'post',
    path: '/auth/signup',
    summary: 'Create an account and mail a verification link',
    description: 'Answers the same for an address that already has an account.',
    tag: TAG,
    auth: 'none',
    body: signupBody,
    responses: {
      201: { description: 'check your mail', schema: signupAnswerSchema },
      400: invalidBody,
    },
  },
  verifyEmail: {
    method: 'post',
    path: '/auth/verify-email',
    summary: 'Confirm the e-mail address with the mailed token (single use, 24 hours)',
    tag: TAG,
    auth: 'none',
    body: tokenBody,
    responses: { 200: { description: 'the verified user', schema: userSchema }, 400: invalidBody },
  },
  resendVerification: {
    method: 'post',
    path: '/auth/resend-verification',
    summary: 'Mail a new verification link',
    description: 'Answers the same for any address.',
    tag: TAG,
    auth: 'none',
    body: emailBody,
    responses: { 202: { description: 'accepted', schema: messageSchema }, 400: invalidBody },
  },
  login: {
    method: 'post',
    path: '/auth/login',
    summary: 'Log in: an access token (15 minutes) and the pw_refresh cookie',
    description:
      'With two-factor on and no code (or recoveryCode), answers { twoFactorRequired, challenge } to complete at /auth/login/2fa. 401 for a wrong e-mail or password alike; 403 EMAIL_NOT_VERIFIED; 429 after repeated failures; 503 while the cache store that counts failures cannot be reached.',
    tag: TAG,
    auth: 'none',
    body: loginBody,
    responses: {
      200: {
        description: 'a session, or a two-factor challenge',
        schema: sessionSchema.or(challengeSchema),
      },
      400: invalidBody,
      401: { description: 'UNAUTHORIZED', schema: errorBodySchema },
      403: { description: 'EMAIL_NOT_VERIFIED', schema: errorBodySchema },
      429: { description: 'RATE_LIMITED', schema: errorBodySchema },
      503: {
        description: 'UNAVAILABLE: the cache store counting failed logins cannot be reached',
        schema: errorBodySchema,
      },
    },
  },
  login2fa: {
    method: 'post',
    path: '/auth/login/2fa',
    summary: 'Complete a two-factor login with a code or a recovery code',
    tag: TAG,
    auth: 'none',
    body: login2faBody,
    responses: {
      200: { description: 'a session', schema: sessionSchema },
      400: invalidBody,
      401: { description: 'UNAUTHORIZED', schema: errorBodySchema },
      503: {
        description: 'UNAVAILABLE: the cache store counting failed logins cannot be reached',
        schema: errorBodySchema,
      },
    },
  },
  refresh: {
    method: 'post',
    path: '/auth/refresh',
    summary: 'Rotate the pw_refresh cookie and get a new access token',
    description: 'A refresh token used twice revokes its session.',
    tag: TAG,
    auth: 'none',
    responses: {
      200: { description: 'a session', schema: sessionSchema },
      401: { description: 'UNAUTHORIZED', schema: errorBodySchema },
    },
  },
  logout: {
    method: 'post',
    path: '/auth/logout',
    summary: 'End the session (of the access token, else of the pw_refresh cookie)',
    tag: TAG,
    auth: 'none',
    responses: { 200: { description: 'logged out', schema: messageSchema } },
  },
  forgotPassword: {
    method: 'post',
    path: '/auth/forgot-password',
    summary: 'Mail a password reset link (single use, 1 hour)',
    description: 'Answers the same for any address.',
    tag: TAG,
    auth: 'none',
    body: emailBody,
    responses: { 202: { description: 'accepted', schema: messageSchema }, 400: invalidBody },
  },
  resetPassword: {
    method: 'post',
    path: '/auth/reset-password',
    summary: 'Set a new password with the mailed token; every session ends',
    description: 'Two-factor stays on: the next login still asks for the code.',
    tag: TAG,
    auth: 'none',
    body: resetBody,
    responses: {
      200: { description: 'password changed', schema: messageSchema },
      400: invalidBody,
    },
  },
  me: {
    method: 'get',
    path: '/auth/me',
    summary: 'The logged-in user',
    description: SESSION_NOTE,
    tag: TAG,
    auth: 'any',
    responses: { 200: { description: 'the user', schema: userSchema } },
  },
  updateMe: {
    method: 'patch',
    path: '/auth/me',
    summary: "Change the logged-in user's name or locale",
    description: `${SESSION_NOTE} name 1-100 characters, locale en, fr or ht (the language of the dashboard and of the mails to this user); fields left out stay as they are.`,
    tag: TAG,
    auth: 'any',
    body: patchMeBody,
    responses: {
      200: { description: 'the user as it now is', schema: userSchema },
      400: invalidBody,
    },
  },
  setup2fa: {
    method: 'post',
    path: '/auth/2fa/setup',
    summary: 'Start two-factor setup: a secret for the authenticator app',
    description: `${SESSION_NOTE} TOTP per RFC 6238: SHA-1, 6 digits, 30 s. 409 when already on.`,
    tag: TAG,
    auth: 'any',
    responses: {
      200: { description: 'the setup', schema: setupSchema },
      409: twoFactorConflict('already enabled'),
    },
  },
  confirm2fa: {
    method: 'post',
    path: '/auth/2fa/confirm',
    summary: 'Turn two-factor on with a first code; answers 10 single-use recovery codes',
    description: SESSION_NOTE,
    tag: TAG,
    auth: 'any',
    body: confirm2faBody,
    responses: { 200: { description: 'enabled', schema: enabledSchema }, 400: invalidBody },
  },
  disable2fa: {
    method: 'post',
    path: '/auth/2fa/disable',
    summary: 'Turn two-factor off with a code or a recovery code',
    description: SESSION_NOTE,
    tag: TAG,
    auth: 'any',
    body: disable2faBody,
    responses: {
      200: { description: 'disabled', schema: disabledSchema },
      400: invalidBody,
      409: twoFactorConflict('not enabled'),
    },
  },
} satisfies Record<string, Operation>;

/** Registers `op` with its handlers (the dashboard's own guards, not the API-key guards). */
export function route(router: Router, op: Operation, ...handlers: RequestHandler[]): void {
  router[op.method](op.path.replace(/\{(\w+)\}/g, ':$1'), ...handlers);
}

export function authRoutes(
  accounts: AccountService,
  options: { secureCookies: boolean; mailDelivery?: 'smtp' | 'files' },
): Router {
  const router = Router();
  const ops = authOperations;
  const withSession = requireSession(accounts);
  const address = (req: {
    ip?: string | undefined;
    socket: { remoteAddress?: string | undefined };
  }) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

  const sendSession = (res: Response, issued: IssuedSession) => {
    setRefreshCookie(res, issued.refreshToken, {
      secure: options.secureCookies,
      maxAgeMs: accounts.lifetimes.refreshMs,
    });
    res.json({ user: issued.user, accessToken: issued.accessToken, expiresAt: issued.expiresAt });
  };
  const clearCookie = (res: Response) =>
    setRefreshCookie(res, undefined, { secure: options.secureCookies, maxAgeMs: 0 });

  route(router, ops.signup, async (req, res) => {
    await accounts.signup(parseWith(signupBody, req.body));
    const mailDelivery = options.mailDelivery ?? 'smtp';
    const message =
      mailDelivery === 'files'
        ? 'no mail server is set: the link that confirms your address is in an .eml file in the server’s mail folder (DATA_DIR/mail/)'
        : 'check your mail for the link that confirms your address';
    res.status(201).json({ message, mailDelivery });
  });
  route(router, ops.verifyEmail, async (req, res) => {
    res.json(await accounts.verifyEmail(parseWith(tokenBody, req.body).token));
  });
  route(router, ops.resendVerification, async (req, res) => {
    await accounts.resendVerification(parseWith(emailBody, req.body).email);
    res.status(202).json({ message: 'if the address needs confirming, a new link is on its way' });
  });
  route(router, ops.login, async (req, res) => {
    const body = parseWith(loginBody, req.body);
    const result = await accounts.login({
      email: body.email,
      password: body.password,
      factor: { code: body.code, recoveryCode: body.recoveryCode },
      address: address(req),
    });
    if (result.kind === 'challenge') {
      res.json({ twoFactorRequired: true, challenge: result.challenge });
      return;
    }
    sendSession(res, result);
  });
  route(router, ops.login2fa, async (req, res) => {
    const body = parseWith(login2faBody, req.body);
    sendSession(
      res,
      await accounts.completeChallenge(
        body.challenge,
        { code: body.code, recoveryCode: body.recoveryCode },
        address(req),
      ),
    );
  });
  route(router, ops.refresh, async (req, res) => {
    const token = readCookie(req, REFRESH_COOKIE);
    try {
      if (!token) throw new PrintwireError('UNAUTHORIZED', 'no session: log in');
      sendSession(res, await accounts.refresh(token));
    } catch (error) {
      clearCookie(res);
      throw error;
    }
  });
  route(router, ops.logout, async (req, res) => {
    const header = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const found = header ? await accounts.authenticate(header[1]!) : undefined;
    const cookie = readCookie(req, REFRESH_COOKIE);
    const sessionId =
      found?.sessionId ?? (cookie ? await accounts.sessionOfRefresh(cookie) : undefined);
    if (sessionId) await accounts.logout(sessionId);
    clearCookie(res);
    res.json({ message: 'logged out' });
  });
  route(router, ops.forgotPassword, async (req, res) => {
    await accounts.forgotPassword(parseWith(emailBody, req.body).email);
    res.status(202).json({ message: 'if the address has an account, a reset link is on its way' });
  });
  route(router, ops.resetPassword, async (req, res) => {
    const body = parseWith(resetBody, req.body);
    await accounts.resetPassword(body.token, body.password);
    res.json({ message: 'password changed: log in again' });
  });
  route(router, ops.me, withSession, async (_req, res) => {
    res.json(await accounts.me(session(res).userId));
  });
  route(router, ops.updateMe, withSession, async (req, res) => {
    res.json(await accounts.updateMe(session(res).userId, parseWith(patchMeBody, req.body)));
  });
  route(router, ops.setup2fa, withSession, async (_req, res) => {
    res.json(await accounts.setupTwoFactor(session(res).userId));
  });
  route(router, ops.confirm2fa, withSession, async (req, res) => {
    const body = parseWith(confirm2faBody, req.body);
    res.json(await accounts.confirmTwoFactor(session(res).userId, body.setupToken, body.code));
  });
  route(router, ops.disable2fa, withSession, async (req, res) => {
    const body = parseWith(disable2faBody, req.body);
    res.json(
      await accounts.disableTwoFactor(session(res).userId, {
        code: body.code,
        recoveryCode: body.recoveryCode,
      }),
    );
  });
  return router;
}
