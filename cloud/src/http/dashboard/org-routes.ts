/**
 * The organizations endpoints (spec "Dashboard endpoints: organizations") and the contract's
 * API keys and activation codes. Every org-scoped route names one permission of the role table.
 */
import { Router } from 'express';
import type { MembershipService } from '../../accounts/members.js';
import { permissionsOf, type Permission } from '../../accounts/permissions.js';
import type { AccountService } from '../../accounts/service.js';
import { parseWith, type Operation } from '../operation.js';
import { errorBodySchema } from '../../resources/schemas.js';
import type { Clock } from '../../lib/clock.js';
import type { CredentialService } from '../../services/credentials.js';
import type { OrganizationService } from '../../services/organizations.js';
import { PLAN_RULES } from '../../services/plans.js';
import type { Invitation, Member } from '../../storage/accounts.js';
import type { ApiKey, Organization } from '../../storage/types.js';
import { route } from './auth-routes.js';
import {
  acceptedSchema,
  accessSchema,
  activationCodeSchema,
  apiKeySchema,
  billingSchema,
  createActivationCodeBody,
  createApiKeyBody,
  createdApiKeySchema,
  createOrgBody,
  dataSchema,
  deleteOrgBody,
  idParams,
  invitationSchema,
  inviteBody,
  memberParams,
  memberSchema,
  messageSchema,
  organizationSchema,
  orgIdParams,
  orgWithRoleSchema,
  patchOrgBody,
  roleBody,
  tokenBody,
} from './schemas.js';
import { requireOrgPermission, requireSession, role, session } from './session.js';

const TAG = 'Dashboard: organizations';
const NOTE = 'Dashboard session: Authorization: Bearer <accessToken>.';
const invalidBody = {
  description: 'VALIDATION_FAILED: details name each field',
  schema: errorBodySchema,
};
const forbidden = { description: 'FORBIDDEN: the role may not do this', schema: errorBodySchema };
const notFound = {
  description: 'NOT_FOUND (also for organizations the caller is not in)',
  schema: errorBodySchema,
};

type OrgOperation = Operation & { permission: Permission };

function op(
  o: Omit<Operation, 'tag' | 'auth'> & { permission: Permission; tag?: string },
): OrgOperation {
  const { tag, ...rest } = o;
  return {
    tag: tag ?? TAG,
    auth: 'any',
    ...rest,
    description: rest.description ? `${rest.description} ${NOTE}` : NOTE,
    params: rest.params ?? orgIdParams,
    responses: { 403: forbidden, 404: notFound, ...rest.responses },
  };
}

export const orgOperations = {
  createOrg: {
    method: 'post',
    path: '/orgs',
    summary: 'Create an organization; the caller is its owner',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    body: createOrgBody,
    responses: {
      201: { description: 'the organization', schema: organizationSchema },
      400: invalidBody,
    },
  },
  listOrgs: {
    method: 'get',
    path: '/orgs',
    summary: 'The caller’s organizations, each with the caller’s role',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    responses: { 200: { description: 'the organizations', schema: dataSchema(orgWithRoleSchema) } },
  },
  acceptInvitation: {
    method: 'post',
    path: '/invitations/accept',
    summary: 'Join an organization with the mailed invitation token (single use, 7 days)',
    description: `The logged-in user's e-mail must be the invited address (403 otherwise). ${NOTE}`,
    tag: TAG,
    auth: 'any',
    body: tokenBody,
    responses: {
      200: { description: 'the organization joined', schema: acceptedSchema },
      400: invalidBody,
      403: forbidden,
    },
  },
  getOrg: op({
    method: 'get',
    path: '/orgs/{orgId}',
    summary: 'An organization',
    permission: 'org:read',
    responses: { 200: { description: 'the organization', schema: organizationSchema } },
  }),
  access: op({
    method: 'get',
    path: '/orgs/{orgId}/me',
    summary: 'The caller’s role and permissions in the organization',
    permission: 'org:read',
    responses: { 200: { description: 'the access', schema: accessSchema } },
  }),
  patchOrg: op({
    method: 'patch',
    path: '/orgs/{orgId}',
    summary: 'Change the organization’s settings',
    permission: 'org:update',
    body: patchOrgBody,
    responses: {
      200: { description: 'the organization', schema: organizationSchema },
      400: invalidBody,
    },
  }),
  deleteOrg: op({
    method: 'delete',
    path: '/orgs/{orgId}',
    summary: 'Delete the organization and everything in it; confirm is its exact name',
    permission: 'org:delete',
    body: deleteOrgBody,
    responses: { 200: { description: 'deleted', schema: messageSchema }, 400: invalidBody },
  }),
  listMembers: op({
    method: 'get',
    path: '/orgs/{orgId}/members',
    summary: 'The members',
    permission: 'members:read',
    responses: { 200: { description: 'the members', schema: dataSchema(memberSchema) } },
  }),
  patchMember: op({
    method: 'patch',
    path: '/orgs/{orgId}/members/{userId}',
    summary: 'Change a member’s role (only owners make or unmake owners; the last owner stays)',
    permission: 'members:manage',
    params: memberParams,
    body: roleBody,
    responses: {
      200: { description: 'the member', schema: memberSchema },
      400: invalidBody,
      409: { description: 'CONFLICT: the last owner', schema: errorBodySchema },
    },
  }),
  removeMember: op({
    method: 'delete',
    path: '/orgs/{orgId}/members/{userId}',
    summary: 'Remove a member, or leave (any member may remove themself; the last owner stays)',
    permission: 'org:read',
    params: memberParams,
    responses: {
      200: { description: 'removed', schema: messageSchema },
      409: { description: 'CONFLICT: the last owner', schema: errorBodySchema },
    },
  }),
  listInvitations: op({
    method: 'get',
    path: '/orgs/{orgId}/invitations',
    summary: 'Pending invitations',
    permission: 'invitations:read',
    responses: { 200: { description: 'the invitations', schema: dataSchema(invitationSchema) } },
  }),
  invite: op({
    method: 'post',
    path: '/orgs/{orgId}/invitations',
    summary: 'Invite someone by e-mail with a role no higher than the caller’s',
    permission: 'invitations:manage',
    body: inviteBody,
    responses: {
      201: { description: 'the invitation', schema: invitationSchema },
      400: invalidBody,
      409: { description: 'CONFLICT: already a member', schema: errorBodySchema },
    },
  }),
  revokeInvitation: op({
    method: 'delete',
    path: '/orgs/{orgId}/invitations/{id}',
    summary: 'Revoke a pending invitation',
    permission: 'invitations:manage',
    params: idParams,
    responses: { 200: { description: 'revoked', schema: messageSchema } },
  }),
  billing: op({
    method: 'get',
    path: '/orgs/{orgId}/billing',
    summary: 'Plan, monthly quota, live jobs used this month and the period',
    permission: 'billing:read',
    responses: { 200: { description: 'the billing overview', schema: billingSchema } },
  }),
  createApiKey: op({
    method: 'post',
    path: '/orgs/{orgId}/api-keys',
    summary: 'Create an API key; the key is shown once',
    permission: 'apiKeys:write',
    tag: 'Dashboard: developers',
    body: createApiKeyBody,
    responses: { 201: { description: 'the key', schema: createdApiKeySchema }, 400: invalidBody },
  }),
  listApiKeys: op({
    method: 'get',
    path: '/orgs/{orgId}/api-keys',
    summary: 'The API keys (prefixes only), revoked ones included',
    permission: 'apiKeys:read',
    tag: 'Dashboard: developers',
    responses: { 200: { description: 'the keys', schema: dataSchema(apiKeySchema) } },
  }),
  revokeApiKey: op({
    method: 'delete',
    path: '/orgs/{orgId}/api-keys/{id}',
    summary: 'Revoke an API key at once',
    permission: 'apiKeys:write',
    tag: 'Dashboard: developers',
    params: idParams,
    responses: { 200: { description: 'revoked', schema: messageSchema } },
  }),
  createActivationCode: op({
    method: 'post',
    path: '/orgs/{orgId}/activation-codes',
    summary: 'A single-use code (24 hours) that connects an agent to the organization',
    permission: 'activationCodes:write',
    tag: 'Dashboard: devices',
    body: createActivationCodeBody,
    responses: { 201: { description: 'the code', schema: activationCodeSchema }, 400: invalidBody },
  }),
} satisfies Record<string, Operation>;

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function presentOrganization(o: Organization) {
  return {
    id: o.id,
    name: o.name,
    locale: o.locale,
    plan: o.plan,
    retentionDays: o.retentionDays,
    requireSignature: o.requireSignature,
    unsignedModeEnabled: o.unsignedModeEnabled,
    devModeEnabled: o.devModeEnabled,
    allowedOrigins: o.allowedOrigins,
    localDownloadsToPrivateNetwork: o.localDownloadsToPrivateNetwork,
    createdAt: iso(o.createdAt),
  };
}

const presentMember = (m: Member) => ({
  userId: m.userId,
  email: m.email,
  name: m.name,
  role: m.role,
  joinedAt: iso(m.joinedAt),
});

const presentInvitation = (i: Invitation) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  invitedBy: i.invitedBy,
  expiresAt: iso(i.expiresAt),
  createdAt: iso(i.createdAt),
});

export const presentApiKey = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  mode: k.mode,
  prefix: k.prefix,
  scopes: k.scopes,
  createdAt: iso(k.createdAt),
  lastUsedAt: isoOrNull(k.lastUsedAt),
  revokedAt: isoOrNull(k.revokedAt),
});

/** First instant of the UTC month of `ms`, and of the next month. */
export function billingPeriod(ms: number): { start: number; end: number } {
  const d = new Date(ms);
  return {
    start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

export function orgRoutes(deps: {
  clock: Clock;
  accounts: AccountService;
  organizations: OrganizationService;
  members: MembershipService;
  credentials: CredentialService;
}): Router {
  const { clock, accounts, organizations, members, credentials } = deps;
  const router = Router();
  const ops = orgOperations;
  const withSession = requireSession(accounts);
  const guard = (o: OrgOperation) => [withSession, requireOrgPermission(members, o.permission)];
  const orgId = (params: unknown) => parseWith(orgIdParams, params).orgId;
  const actor = (res: Parameters<typeof role>[0]) => ({
    userId: session(res).userId,
    role: role(res),
  });

  route(router, ops.createOrg, withSession, async (req, res) => {
    const body = parseWith(createOrgBody, req.body);
    const org = await organizations.create(
      { name: body.name, locale: body.locale },
      session(res).userId,
    );
    res.status(201).json(presentOrganization(org));
  });
  route(router, ops.listOrgs, withSession, async (_req, res) => {
    const rows = await organizations.listFor(session(res).userId);
    res.json({
      data: rows.map((r) => ({ ...presentOrganization(r.organization), role: r.role })),
      nextCursor: null,
    });
  });
  route(router, ops.acceptInvitation, withSession, async (req, res) => {
    const { token } = parseWith(tokenBody, req.body);
    const joined = await members.accept(token, session(res).userId);
    res.json({
      organization: presentOrganization(await organizations.get(joined.organizationId)),
      role: joined.role,
    });
  });

  route(router, ops.getOrg, ...guard(ops.getOrg), async (req, res) => {
    res.json(presentOrganization(await organizations.get(orgId(req.params))));
  });
  route(router, ops.access, ...guard(ops.access), (_req, res) => {
    const r = role(res);
    res.json({ role: r, permissions: permissionsOf(r) });
  });
  route(router, ops.patchOrg, ...guard(ops.patchOrg), async (req, res) => {
    const patch = parseWith(patchOrgBody, req.body);
    res.json(presentOrganization(await organizations.update(orgId(req.params), patch)));
  });
  route(router, ops.deleteOrg, ...guard(ops.deleteOrg), async (req, res) => {
    const { confirm } = parseWith(deleteOrgBody, req.body);
    await organizations.remove(orgId(req.params), confirm);
    res.json({ message: 'organization deleted' });
  });

  route(router, ops.listMembers, ...guard(ops.listMembers), async (req, res) => {
    const list = await members.list(orgId(req.params));
    res.json({ data: list.map(presentMember), nextCursor: null });
  });
  route(router, ops.patchMember, ...guard(ops.patchMember), async (req, res) => {
    const params = parseWith(memberParams, req.params);
    const { role: next } = parseWith(roleBody, req.body);
    const member = await members.changeRole(params.orgId, params.userId, next, actor(res));
    res.json(presentMember(member));
  });
  route(router, ops.removeMember, ...guard(ops.removeMember), async (req, res) => {
    const params = parseWith(memberParams, req.params);
    await members.remove(params.orgId, params.userId, actor(res));
    const self = params.userId === session(res).userId;
    res.json({ message: self ? 'you left the organization' : 'member removed' });
  });

  route(router, ops.listInvitations, ...guard(ops.listInvitations), async (req, res) => {
    const list = await members.listInvitations(orgId(req.params));
    res.json({ data: list.map(presentInvitation), nextCursor: null });
  });
  route(router, ops.invite, ...guard(ops.invite), async (req, res) => {
    const id = orgId(req.params);
    const body = parseWith(inviteBody, req.body);
    const invitation = await members.invite(id, { email: body.email, role: body.role }, actor(res));
    res.status(201).json(presentInvitation(invitation));
  });
  route(router, ops.revokeInvitation, ...guard(ops.revokeInvitation), async (req, res) => {
    const params = parseWith(idParams, req.params);
    await members.revokeInvitation(params.orgId, params.id);
    res.json({ message: 'invitation revoked' });
  });

  route(router, ops.billing, ...guard(ops.billing), async (req, res) => {
    const org = await organizations.get(orgId(req.params));
    const now = clock.now();
    const period = billingPeriod(now);
    res.json({
      plan: org.plan,
      monthlyQuota: PLAN_RULES[org.plan].monthlyJobs,
      usedThisMonth: await organizations.liveJobsThisMonth(org.id, now),
      periodStart: iso(period.start),
      periodEnd: iso(period.end),
    });
  });

  route(router, ops.createApiKey, ...guard(ops.createApiKey), async (req, res) => {
    const body = parseWith(createApiKeyBody, req.body);
    const created = await credentials.createApiKey(orgId(req.params), {
      name: body.name,
      mode: body.mode,
      scopes: body.scopes,
    });
    res.status(201).json({ apiKey: presentApiKey(created.apiKey), key: created.key });
  });
  route(router, ops.listApiKeys, ...guard(ops.listApiKeys), async (req, res) => {
    const keys = await credentials.listApiKeys(orgId(req.params));
    res.json({ data: keys.map(presentApiKey), nextCursor: null });
  });
  route(router, ops.revokeApiKey, ...guard(ops.revokeApiKey), async (req, res) => {
    const params = parseWith(idParams, req.params);
    await credentials.revokeApiKey(params.orgId, params.id);
    res.json({ message: 'API key revoked' });
  });
  route(router, ops.createActivationCode, ...guard(ops.createActivationCode), async (req, res) => {
    const body = parseWith(createActivationCodeBody, req.body ?? {});
    const created = await credentials.createActivationCode(orgId(req.params), body.name ?? null);
    res.status(201).json({ code: created.code, expiresAt: iso(created.expiresAt) });
  });
  return router;
}
