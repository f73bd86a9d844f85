import { z } from 'zod';
import { ERROR_CATALOG } from '../errors/index.js';
import { ID_BODY_PATTERN } from '../ids/index.js';
import { TEMPLATE_TYPES } from '../template/limits.js';
import { fieldSchema, idSchema, isoDateSchema, JOB_TYPES, textSchema } from './fields.js';
import { PROTOCOL_LIMITS as L } from './limits.js';

/**
 * Local mode on the agent protocol: the templates and trust settings the cloud pushes in the
 * agent's configuration, and the `job.local` report of a job a web page printed through the
 * agent. See docs/agent-protocol.md; the meaning of each setting is in docs/local-mode.md.
 */

export const JOB_STATES = ['queued', 'sending', 'printed', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * Why `origin` is not an exact origin (`scheme://host[:port]`, http or https, written as a
 * browser sends it in the Origin header), or null when it is one. The cloud refuses such an
 * entry of allowedOrigins with this text; the agent compares origins as plain strings.
 */
export function originProblem(origin: string): string | null {
  if (origin.length > L.maxOriginChars) return `must be at most ${L.maxOriginChars} characters`;
  if (origin.includes('*')) return 'wildcards are not allowed: list each origin exactly';
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return 'must be an origin such as https://shop.example.com';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'the scheme must be https or http';
  }
  if (url.origin !== origin) {
    const hint = `did you mean ${url.origin}?`;
    if (url.username || url.password) return `no user or password in an origin (${hint})`;
    if (url.pathname !== '/' || url.search || url.hash || origin.endsWith('/')) {
      return `no path, query or trailing slash in an origin (${hint})`;
    }
    return `must be written as the browser sends it: lowercase, no default port (${hint})`;
  }
  return null;
}

/** One template as the agent stores and renders it offline. */
export const configTemplateSchema = z.object({
  id: idSchema,
  name: fieldSchema.min(1),
  type: z.enum(TEMPLATE_TYPES),
  content: z.string().max(L.maxTemplateContentChars),
  paper: fieldSchema.nullable(),
  updatedAt: isoDateSchema,
});
export type ConfigTemplate = z.infer<typeof configTemplateSchema>;

/** A signing key's public half: Ed25519, SPKI PEM. Revoked keys are not sent. */
export const configSigningKeySchema = z.object({
  id: idSchema,
  publicKey: z.string().min(1).max(L.maxPublicKeyChars),
});
export type ConfigSigningKey = z.infer<typeof configSigningKeySchema>;

/** Who may print through the agent's local server (the organization's settings). */
export const localSettingsSchema = z.object({
  requireSignature: z.boolean(),
  unsignedModeEnabled: z.boolean(),
  devModeEnabled: z.boolean(),
  allowedOrigins: z.array(z.string().min(1).max(L.maxOriginChars)).max(L.maxAllowedOrigins),
  signingKeys: z.array(configSigningKeySchema).max(L.maxSigningKeys),
  /**
   * A local job's URL (or receipt image) may be fetched from the shop's network (private,
   * loopback, link-local addresses). Absent (an older cloud): false.
   */
  localDownloadsToPrivateNetwork: z.boolean().optional(),
});
export type LocalSettings = z.infer<typeof localSettingsSchema>;

const errorCodeSchema = z.enum(Object.keys(ERROR_CATALOG) as [keyof typeof ERROR_CATALOG]);

/** A local job's id: `job_` and the body `newId` makes, so it never collides with a cloud job. */
export const localJobIdSchema = z
  .string()
  .regex(new RegExp(`^job_${ID_BODY_PATTERN}$`), { error: 'must be job_ and 26 characters' });

/** The whole current record of a job a web page printed through the agent. */
export const localJobSchema = z.object({
  id: localJobIdSchema,
  idempotencyKey: z.string().min(1).max(L.maxIdempotencyKeyChars).nullable(),
  agentPrinterId: idSchema,
  type: z.enum(JOB_TYPES),
  templateId: idSchema.nullable(),
  metadata: z
    .record(z.string().min(1).max(L.maxMetadataKeyChars), z.string().max(L.maxMetadataValueChars))
    .refine((m) => Object.keys(m).length <= L.maxMetadataKeys, {
      error: `at most ${L.maxMetadataKeys} keys`,
    }),
  state: z.enum(JOB_STATES),
  /** Attempts made so far (0 while the job waits for its first). */
  attempt: z.number().int().min(0).max(L.maxAttempts),
  errorCode: errorCodeSchema.nullable(),
  errorMessage: textSchema.nullable(),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
  printedAt: isoDateSchema.nullable(),
  events: z
    .array(
      z.object({
        state: z.enum(JOB_STATES),
        errorCode: errorCodeSchema.nullable(),
        at: isoDateSchema,
      }),
    )
    .max(L.maxJobEvents),
});
export type LocalJob = z.infer<typeof localJobSchema>;

/** agent → cloud: a local job was created or changed state. The cloud answers `ack { id }`. */
export const jobLocalSchema = z.object({
  type: z.literal('job.local'),
  id: idSchema,
  job: localJobSchema,
});
