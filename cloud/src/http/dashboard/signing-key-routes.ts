/**
 * Signing keys of local mode (../shared/CONTRACT.md "Local mode"): Ed25519 key pairs whose
 * private half signs an integrator's local print requests on their own server, and whose public
 * half every agent of the organization receives to verify them. The cloud makes the pair, answers
 * the private key once (PKCS#8 PEM) and keeps only the public key (SPKI PEM). Creating and
 * revoking reach the organization's agents within seconds. Roles as for API keys.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AccountService } from '../../accounts/service.js';
import { parseWith, type Operation } from '../operation.js';
import { errorBodySchema } from '../../resources/schemas.js';
import type { MembershipService } from '../../accounts/members.js';
import { MAX_ACTIVE_SIGNING_KEYS, type SigningKeyService } from '../../services/signing-keys.js';
import type { SigningKey } from '../../storage/types.js';
import { route } from './auth-routes.js';
import type { Permission } from '../../accounts/permissions.js';
import { dataSchema, idParams, messageSchema, orgIdParams } from './schemas.js';
import { requireOrgPermission, requireSession } from './session.js';

const TAG = 'Dashboard: developers';
const NOTE = 'Dashboard session: Authorization: Bearer <accessToken>.';

/** Active keys per organization: what one agent configuration carries at most. */
export { MAX_ACTIVE_SIGNING_KEYS };

export const createSigningKeyBody = z.object({ name: z.string().min(1).max(100) });

export const signingKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    algorithm: z.literal('Ed25519'),
    publicKey: z.string().describe('SPKI PEM'),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'SigningKey' });

export const createdSigningKeySchema = z.object({
  signingKey: signingKeySchema,
  privateKey: z
    .string()
    .describe('PKCS#8 PEM; shown only in this answer: keep it on your server, never in a page'),
});

type KeyOperation = Operation & { permission: Permission };

const op = (
  o: Omit<Operation, 'tag' | 'auth' | 'description' | 'params'> & {
    permission: Permission;
    description?: string;
    params?: Operation['params'];
  },
): KeyOperation => ({
  tag: TAG,
  auth: 'any',
  ...o,
  params: o.params ?? orgIdParams,
  description: o.description ? `${o.description} ${NOTE}` : NOTE,
  responses: {
    403: { description: 'FORBIDDEN: the role may not do this', schema: errorBodySchema },
    404: { description: 'NOT_FOUND', schema: errorBodySchema },
    ...o.responses,
  },
});

export const signingKeyOperations = {
  createSigningKey: op({
    method: 'post',
    path: '/orgs/{orgId}/signing-keys',
    summary: 'Create an Ed25519 signing key for local mode; the private key is shown once',
    description: `Every agent of the organization receives the public key within 5 seconds and then accepts local requests signed with the private key (docs/local-api.md). At most ${MAX_ACTIVE_SIGNING_KEYS} active keys (409 CONFLICT above).`,
    permission: 'signingKeys:write',
    body: createSigningKeyBody,
    responses: {
      201: { description: 'the key and its private key', schema: createdSigningKeySchema },
      400: { description: 'VALIDATION_FAILED: details name each field', schema: errorBodySchema },
      409: { description: 'CONFLICT: too many active keys', schema: errorBodySchema },
    },
  }),
  listSigningKeys: op({
    method: 'get',
    path: '/orgs/{orgId}/signing-keys',
    summary: 'The signing keys (public keys), revoked ones included, newest first',
    permission: 'signingKeys:read',
    responses: { 200: { description: 'the keys', schema: dataSchema(signingKeySchema) } },
  }),
  revokeSigningKey: op({
    method: 'delete',
    path: '/orgs/{orgId}/signing-keys/{id}',
    summary: 'Revoke a signing key; agents refuse requests signed with it within 5 seconds',
    permission: 'signingKeys:write',
    params: idParams,
    responses: { 200: { description: 'revoked', schema: messageSchema } },
  }),
} satisfies Record<string, Operation>;

const iso = (ms: number) => new Date(ms).toISOString();

export const presentSigningKey = (k: SigningKey) => ({
  id: k.id,
  name: k.name,
  algorithm: k.algorithm,
  publicKey: k.publicKey,
  createdAt: iso(k.createdAt),
  revokedAt: k.revokedAt === null ? null : iso(k.revokedAt),
});

/** A new Ed25519 key pair as PEM: the public key SPKI, the private key PKCS#8. */
export function signingKeyRoutes(deps: {
  accounts: AccountService;
  members: MembershipService;
  signingKeys: SigningKeyService;
}): Router {
  const { accounts, members, signingKeys } = deps;
  const router = Router();
  const ops = signingKeyOperations;
  const withSession = requireSession(accounts);
  const guard = (o: KeyOperation) => [withSession, requireOrgPermission(members, o.permission)];

  route(router, ops.createSigningKey, ...guard(ops.createSigningKey), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const { name } = parseWith(createSigningKeyBody, req.body);
    const created = await signingKeys.create(orgId, name);
    res
      .status(201)
      .json({ signingKey: presentSigningKey(created.signingKey), privateKey: created.privateKey });
  });
  route(router, ops.listSigningKeys, ...guard(ops.listSigningKeys), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const keys = await signingKeys.list(orgId);
    res.json({ data: keys.map(presentSigningKey), nextCursor: null });
  });
  route(router, ops.revokeSigningKey, ...guard(ops.revokeSigningKey), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    await signingKeys.revoke(orgId, id);
    res.json({ message: 'signing key revoked' });
  });
  return router;
}
