/**
 * The dashboard session on a request: `Authorization: Bearer <accessToken>` resolves to a user,
 * and org-scoped routes resolve the caller's role. A caller who is not a member of the
 * organization gets 404 (its existence is not revealed), a member without the permission 403.
 * The refresh token travels only in the httpOnly cookie `pw_refresh` (Path=/auth).
 */
import type { Request, RequestHandler, Response } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { MembershipService } from '../../accounts/members.js';
import { can, type Permission } from '../../accounts/permissions.js';
import type { AccountService } from '../../accounts/service.js';
import type { Role } from '../../storage/accounts.js';

export const REFRESH_COOKIE = 'pw_refresh';

export interface DashboardSession {
  sessionId: string;
  userId: string;
}

interface DashboardLocals {
  session?: DashboardSession;
  role?: Role;
}

const dashboardLocals = (res: Response) => res.locals as DashboardLocals;

export function session(res: Response): DashboardSession {
  const s = dashboardLocals(res).session;
  if (!s) throw new PrintwireError('UNAUTHORIZED', 'log in: an access token is required');
  return s;
}

export function role(res: Response): Role {
  const r = dashboardLocals(res).role;
  if (!r) throw new PrintwireError('FORBIDDEN', 'not a member of this organization');
  return r;
}

export function requireSession(accounts: AccountService): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const found = match ? await accounts.authenticate(match[1]!) : undefined;
    if (!found) {
      next(new PrintwireError('UNAUTHORIZED', 'log in: the access token is missing or expired'));
      return;
    }
    dashboardLocals(res).session = found;
    next();
  };
}

/** Loads the caller's role in `req.params.orgId` and checks `permission`. */
export function requireOrgPermission(
  members: Pick<MembershipService, 'roleOf'>,
  permission: Permission,
): RequestHandler {
  return async (req, res, next) => {
    const orgId = String(req.params.orgId ?? '');
    const r = await members.roleOf(orgId, session(res).userId);
    if (!r) {
      next(new PrintwireError('NOT_FOUND', `no organization ${orgId}`));
      return;
    }
    if (!can(r, permission)) {
      next(new PrintwireError('FORBIDDEN', `the ${r} role may not do this (${permission})`));
      return;
    }
    dashboardLocals(res).role = r;
    next();
  };
}

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      return decodeURIComponent(part.slice(eq + 1).trim());
    }
  }
  return undefined;
}

/** Sets (or with `token` undefined, clears) the refresh cookie. */
export function setRefreshCookie(
  res: Response,
  token: string | undefined,
  options: { secure: boolean; maxAgeMs: number },
): void {
  const attributes = [
    `${REFRESH_COOKIE}=${token ?? ''}`,
    'HttpOnly',
    'SameSite=Strict',
    'Path=/auth',
    `Max-Age=${token ? Math.floor(options.maxAgeMs / 1000) : 0}`,
  ];
  if (options.secure) attributes.push('Secure');
  res.append('Set-Cookie', attributes.join('; '));
}
