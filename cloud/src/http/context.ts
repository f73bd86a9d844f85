/** What middleware leaves on a response for the handlers after it (typed `res.locals`). */
import type { Response } from 'express';
import type { Logger } from 'pino';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { ApiKey, Mode, Organization } from '../storage/types.js';

export interface ApiAuth {
  organization: Organization;
  apiKey: ApiKey;
  mode: Mode;
}

interface Locals {
  requestId?: string;
  log?: Logger;
  auth?: ApiAuth;
}

export function locals(res: Response): Locals {
  return res.locals as Locals;
}

/** The caller's key and organization; only behind the API-key guard. */
export function auth(res: Response): ApiAuth {
  const a = locals(res).auth;
  if (!a) throw new PrintwireError('UNAUTHORIZED', 'an API key is required');
  return a;
}
