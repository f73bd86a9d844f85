/**
 * API-key authentication: `Authorization: Bearer pw_live_…|pw_test_…`. Missing, malformed,
 * unknown and revoked keys are 401 UNAUTHORIZED; a key without the route's scope is 403
 * FORBIDDEN naming the scope.
 */
import type { RequestHandler } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';
import { hashSecret, keyMode } from '../../services/api-keys.js';
import type { Store } from '../../storage/store.js';
import type { Scope } from '../../storage/types.js';
import { auth, locals } from '../context.js';

export function authenticate(store: Store): RequestHandler {
  return async (req, res, next) => {
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
    locals(res).auth = {
      organization: found.organization,
      apiKey: found.apiKey,
      mode: found.apiKey.mode,
    };
    next();
  };
}

export function requireScope(scope: Scope): RequestHandler {
  return (_req, res, next) => {
    const { apiKey } = auth(res);
    if (!apiKey.scopes.includes(scope)) {
      throw new PrintwireError('FORBIDDEN', `this API key lacks the scope ${scope}`, {
        details: { missingScope: scope },
      });
    }
    next();
  };
}
