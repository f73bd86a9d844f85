/**
 * Resource ids (`job_01JD3M…`): made by @printwire/shared's `newId`, which the agent also uses
 * for the ids of local jobs, so that the two never collide.
 */
import { randomBytes } from 'node:crypto';

export { newId } from '@printwire/shared/ids/index';

/** A random secret in base62-ish base64url, `bytes` of entropy. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
