/**
 * API-key authentication: `Authorization: Bearer pw_live_…|pw_test_…`. Missing, malformed,
 * unknown and revoked keys are 401 UNAUTHORIZED; a key without the route's scope is 403
 * FORBIDDEN naming the scope.
 */
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Clock } from '../../lib/clock.js';
import { hashSecret, keyMode } from '../../services/api-keys.js';
import type { Store } from '../../storage/store.js';
import type { ApiKey, Scope } from '../../storage/types.js';
import type { CacheStore } from '../../cache/types.js';
import { locals, type ApiAuth } from '../context.js';
import { rateLimiter, type RateLimitOptions } from './rate-limit.js';

/** How often a key's lastUsedAt is written at most (per key and instance). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Keeps apiKeys.lastUsedAt (shown in the dashboard) to within a minute without a write per
 * request: a key's use is written when its last recorded use is a minute old, after the request
 * is answered, batched with other writes.
 */
class LastUsedRecorder {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger | undefined,
  ) {}

  record(organizationId: string, keyId: string, lastUsedAt: number | null, now: number): void {
    const last = Math.max(this.written.get(keyId) ?? 0, lastUsedAt ?? 0);
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    if (this.written.size >= 100_000) this.written.clear();
    this.written.set(keyId, now);
    this.store.organizations.touchApiKey(organizationId, keyId, now).catch((err: unknown) => {
      this.logger?.warn({ err, keyId }, 'recording when an API key was last used failed');
    });
  }
}

/** Checks a request's API key; resolves with who is calling (401 UNAUTHORIZED otherwise). */
export function keyAuthenticator(
  store: Store,
  clock: Clock,
  logger?: Logger,
): (req: Request) => Promise<ApiAuth> {
  const lastUsed = new LastUsedRecorder(store, logger);
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
    const found = await store.organizations.findApiKeyByHash(hashSecret(key));
    if (!found) throw new PrintwireError('UNAUTHORIZED', 'unknown API key');
    if (found.apiKey.revokedAt !== null) {
      throw new PrintwireError('UNAUTHORIZED', 'this API key has been revoked');
    }
    lastUsed.record(found.organization.id, found.apiKey.id, found.apiKey.lastUsedAt, clock.now());
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
  store: Store;
  cache: CacheStore;
  clock: Clock;
  logger?: Logger;
  rateLimit: RateLimitOptions;
}): (scope: Scope | 'any') => (req: Request, res: Response) => Promise<void> {
  const authenticate = keyAuthenticator(deps.store, deps.clock, deps.logger);
  const limit = rateLimiter(deps.cache, deps.clock, deps.rateLimit);
  return (scope) => async (req, res) => {
    const a = await authenticate(req);
    locals(res).auth = a;
    await limit(a.apiKey.id, res);
    if (scope !== 'any') checkScope(a.apiKey, scope);
  };
}
