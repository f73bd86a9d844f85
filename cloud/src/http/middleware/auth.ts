/**
 * API-key authentication: `Authorization: Bearer pw_live_…|pw_test_…`. Missing, malformed,
 * unknown and revoked keys are 401 UNAUTHORIZED; a key without the route's scope is 403
 * FORBIDDEN naming the scope.
 */
import type { Request, Response } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Clock } from '../../lib/clock.js';
import { keyMode } from '../../services/api-keys.js';
import type { CredentialService } from '../../services/credentials.js';
import type { ApiKey, Scope } from '../../storage/types.js';
import type { CacheStore } from '../../cache/types.js';
import { locals, type ApiAuth } from '../context.js';
import { rateLimiter, type RateLimitOptions } from './rate-limit.js';

export { LAST_USED_RESOLUTION_MS } from '../../services/credentials.js';

/** Checks a request's API key; resolves with who is calling (401 UNAUTHORIZED otherwise). */
export function keyAuthenticator(
  credentials: Pick<CredentialService, 'authenticate'>,
): (req: Request) => Promise<ApiAuth> {
  return async (req) => {
    const header = req.get('authorization');
    if (!header) {
      throw new PrintwireError(
        'UNAUTHORIZED',
        'missing API key: send Authorization: Bearer pw_live_… or pw_test_…',
      );
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const key = match?.[1];
    if (!key || !keyMode(key)) {
      throw new PrintwireError(
        'UNAUTHORIZED',
        'the Authorization header holds no Printwire API key',
      );
    }
    const found = await credentials.authenticate(key);
    return { organization: found.organization, apiKey: found.apiKey, mode: found.apiKey.mode };
  };
}

/** 403 FORBIDDEN naming the scope when `apiKey` lacks it. */
export function checkScope(apiKey: ApiKey, scope: Scope): void {
  if (!apiKey.scopes.includes(scope)) {
    throw new PrintwireError('FORBIDDEN', `this API key lacks the scope ${scope}`, {
      details: { missingScope: scope },
    });
  }
}

/**
 * The guard of an API-key route: the key (401), its rate limit (429), then the route's scope
 * (403). `mount` runs it in the route's own handler, so a request walks one router layer for the
 * guard and the handler together.
 */
export function apiKeyGuard(deps: {
  credentials: Pick<CredentialService, 'authenticate'>;
  cache: CacheStore;
  clock: Clock;
  rateLimit: RateLimitOptions;
}): (scope: Scope | 'any') => (req: Request, res: Response) => Promise<void> {
  const authenticate = keyAuthenticator(deps.credentials);
  const limit = rateLimiter(deps.cache, deps.clock, deps.rateLimit);
  return (scope) => async (req, res) => {
    const a = await authenticate(req);
    locals(res).auth = a;
    await limit(a.apiKey.id, res);
    if (scope !== 'any') checkScope(a.apiKey, scope);
  };
}
