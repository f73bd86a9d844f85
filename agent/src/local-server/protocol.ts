import { z } from 'zod';
import {
  LOCAL_API_VERSION,
  LOCAL_LIMITS,
  REQUEST_TYPES,
} from '@printwire/shared/contracts/local-api';

/**
 * The local API's WebSocket protocol (docs/local-api.md): JSON text frames. The page sends
 * requests `{ v, id, type, body?, auth? }`; the agent answers each with `reply` or `error`
 * (`replyTo` = the request's id) and pushes `event`s. The frames, limits and the signature
 * payload are the contract the SDK shares (`@printwire/shared/contracts/local-api`); here are
 * the schemas the agent checks a page's requests with.
 */
export {
  LOCAL_API_VERSION,
  LOCAL_LIMITS,
  LOCAL_WS_PATH,
  REQUEST_TYPES,
  signaturePayload,
  signedMessage,
  type LocalJob,
  type LocalJobState,
  type LocalPrinter,
  type LocalServerFrame as ServerFrame,
  type RequestType,
} from '@printwire/shared/contracts/local-api';

export const authSchema = z.strictObject({
  signature: z.string().min(1).max(512),
  timestamp: z.number().int().min(0),
  nonce: z
    .string()
    .min(16)
    .max(LOCAL_LIMITS.maxIdChars)
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'letters, digits, _ and - only' }),
});
export type RequestAuth = z.infer<typeof authSchema>;

export const requestSchema = z.strictObject({
  v: z.literal(LOCAL_API_VERSION, { error: `v must be ${LOCAL_API_VERSION}` }),
  id: z.string().min(1).max(LOCAL_LIMITS.maxIdChars),
  type: z.enum(REQUEST_TYPES),
  body: z.unknown().optional(),
  auth: authSchema.optional(),
});
export type LocalRequest = z.infer<typeof requestSchema>;

export const jobIdBodySchema = z.strictObject({ jobId: z.string().min(1).max(128) });
