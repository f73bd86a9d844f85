/** Request and response schemas of the dashboard endpoints (spec "Dashboard endpoints"). */
import { z } from 'zod';
import { originProblem, PROTOCOL_LIMITS } from '@printwire/shared/protocol/index';
import { PLANS, SCOPES } from '../../storage/types.js';
import { PERMISSIONS, ROLES } from '../../accounts/permissions.js';
import type { Operation } from '../operation.js';

export const LOCALES = ['en', 'fr', 'ht'] as const;
export const RETENTION_DAYS = [0, 1, 7, 30, 90] as const;

export const email = z.email('must be an e-mail address').max(254);
const token = z.string().min(10).max(200);
const code = z
  .string()
  .refine((v) => /^\d{6}$/.test(v), {
    message: 'must be exactly 6 digits',
    params: { rule: 'six_digits' },
  })
  .meta({ pattern: '^\\d{6}$' });
const recoveryCode = z
  .string()
  .min(1)
  .max(100)
  .describe('one of the recovery codes, instead of code');
const locale = z.enum(LOCALES);
const role = z.enum(ROLES);

export const signupBody = z.object({
  email,
  password: z.string().min(10).max(200),
  name: z.string().min(1).max(100),
  locale: locale.default('en'),
});
/** PATCH /auth/me: the caller's name and locale, validated as at sign-up; absent fields stay. */
export const patchMeBody = z.object({
  name: z.string().min(1).max(100).optional(),
  locale: locale.optional(),
});
export const tokenBody = z.object({ token });
export const emailBody = z.object({ email });
export const loginBody = z.object({
  email,
  password: z.string().min(1).max(200),
  code: code.optional(),
  recoveryCode: recoveryCode.optional(),
});

/** `code`, or `recoveryCode` in its place: one of the two is required. */
function requireFactor(
  v: { code?: string | undefined; recoveryCode?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (v.code === undefined && v.recoveryCode === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['code'],
      message: 'required: 6 digits',
      params: { rule: 'six_digits' },
    });
  }
}

export const login2faBody = z
  .object({
    challenge: z.string().min(1),
    code: code.optional(),
    recoveryCode: recoveryCode.optional(),
  })
  .superRefine(requireFactor);
export const resetBody = z.object({ token, password: z.string().min(10).max(200) });
export const confirm2faBody = z.object({ setupToken: z.string().min(1), code });
export const disable2faBody = z
  .object({ code: code.optional(), recoveryCode: recoveryCode.optional() })
  .superRefine(requireFactor);

export const createOrgBody = z.object({
  name: z.string().min(2).max(100),
  locale: locale.default('en'),
});
/** Local mode: exact origins whose unsigned requests print (../shared/CONTRACT.md). */
export const allowedOriginsSchema = z
  .array(z.string())
  .max(PROTOCOL_LIMITS.maxAllowedOrigins, {
    error: `at most ${PROTOCOL_LIMITS.maxAllowedOrigins} origins`,
  })
  .superRefine((origins, ctx) => {
    origins.forEach((origin, i) => {
      const problem = originProblem(origin);
      if (problem) ctx.addIssue({ code: 'custom', path: [i], message: problem });
      else if (origins.indexOf(origin) !== i) {
        ctx.addIssue({ code: 'custom', path: [i], message: `${origin} is listed twice` });
      }
    });
  })
  .meta({
    description: `exact origins (scheme://host[:port], as a browser sends them in Origin), at most ${PROTOCOL_LIMITS.maxAllowedOrigins}; no path, no wildcard`,
    example: ['https://shop.example.com', 'http://localhost:3000'],
  });

export const patchOrgBody = z.object({
  name: z.string().min(2).max(100).optional(),
  locale: locale.optional(),
  retentionDays: z
    .number()
    .refine((n) => (RETENTION_DAYS as readonly number[]).includes(n), {
      message: 'must be one of 0, 1, 7, 30, 90',
      params: { rule: 'one_of', values: RETENTION_DAYS.join(', ') },
    })
    .optional(),
  requireSignature: z.boolean().optional(),
  unsignedModeEnabled: z.boolean().optional(),
  devModeEnabled: z.boolean().optional(),
  allowedOrigins: allowedOriginsSchema.optional(),
  localDownloadsToPrivateNetwork: z.boolean().optional().meta({
    description:
      "Jobs printed through local mode may make the agent download their URL (or a receipt image) from the shop's network: private, loopback, link-local and unique-local addresses. Default false.",
  }),
});
export const deleteOrgBody = z.object({ confirm: z.string() });
export const roleBody = z.object({ role });
export const inviteBody = z.object({ email, role });
export const createApiKeyBody = z.object({
  name: z.string().min(1).max(100),
  mode: z.enum(['live', 'test']),
  scopes: z
    .array(z.enum(SCOPES))
    .min(1)
    .refine((s) => new Set(s).size === s.length, {
      message: 'must not repeat a scope',
      params: { rule: 'unique' },
    }),
});
export const createActivationCodeBody = z.object({ name: z.string().min(1).max(100).optional() });

export const orgIdParams = z.object({ orgId: z.string() });
export const memberParams = z.object({ orgId: z.string(), userId: z.string() });
export const idParams = z.object({ orgId: z.string(), id: z.string() });

// Responses

export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    locale: z.string(),
    emailVerified: z.boolean(),
    twoFactorEnabled: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'DashboardUser' });
export const sessionSchema = z
  .object({ user: userSchema, accessToken: z.string(), expiresAt: z.string() })
  .meta({ id: 'DashboardSession' });
export const challengeSchema = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
});
export const messageSchema = z.object({ message: z.string() });
export const signupAnswerSchema = z.object({
  message: z.string(),
  mailDelivery: z.enum(['smtp', 'files']).meta({
    description:
      '`files`: this server has no SMTP server set, so the message was written as an .eml file in its mail folder (DATA_DIR/mail/) instead of being sent',
  }),
});
export const setupSchema = z.object({
  setupToken: z.string(),
  secret: z.string(),
  otpauthUrl: z.string(),
});
export const enabledSchema = z.object({
  enabled: z.literal(true),
  recoveryCodes: z.array(z.string()),
});
export const disabledSchema = z.object({ enabled: z.literal(false) });
export const organizationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    locale: z.string(),
    plan: z.enum(PLANS),
    retentionDays: z.number(),
    requireSignature: z.boolean(),
    unsignedModeEnabled: z.boolean(),
    devModeEnabled: z.boolean(),
    allowedOrigins: z.array(z.string()),
    localDownloadsToPrivateNetwork: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'Organization' });
export const orgWithRoleSchema = organizationSchema.extend({ role });
export const accessSchema = z.object({ role, permissions: z.array(z.enum(PERMISSIONS)) });
export const memberSchema = z
  .object({ userId: z.string(), email: z.string(), name: z.string(), role, joinedAt: z.string() })
  .meta({ id: 'Member' });
export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role,
    invitedBy: z.string(),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'Invitation' });
export const acceptedSchema = z.object({ organization: organizationSchema, role });
export const billingSchema = z
  .object({
    plan: z.enum(PLANS),
    monthlyQuota: z.number().nullable().describe('live jobs per month; null: unlimited'),
    usedThisMonth: z.number(),
    periodStart: z.string(),
    periodEnd: z.string(),
  })
  .meta({ id: 'Billing' });
export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(['live', 'test']),
    prefix: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });
export const createdApiKeySchema = z.object({ apiKey: apiKeySchema, key: z.string() });
export const activationCodeSchema = z.object({ code: z.string(), expiresAt: z.string() });

export function dataSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() });
}

/** How a dashboard endpoint authenticates, as its description says last. */
export const SESSION_NOTE = 'Dashboard session: Authorization: Bearer <accessToken>.';

/**
 * The operation maker of one dashboard tag: session auth (`any` to the OpenAPI builder), the
 * description (if any) followed by SESSION_NOTE, and the tag's `common` responses under the
 * operation's own.
 */
export function sessionOperation(tag: string, common: Operation['responses']) {
  return (o: Omit<Operation, 'tag' | 'auth' | 'description'> & { description?: string }) =>
    ({
      tag,
      auth: 'any',
      ...o,
      description: o.description ? `${o.description} ${SESSION_NOTE}` : SESSION_NOTE,
      responses: { ...common, ...o.responses },
    }) satisfies Operation;
}
