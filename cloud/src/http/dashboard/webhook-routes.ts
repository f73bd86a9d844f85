/**
 * Webhooks in the dashboard (../shared/CONTRACT.md): list and create (the dashboard chooses the
 * mode), update (`enabled`, url, events, description; `enabled: true` re-enables a disabled
 * endpoint), delete, deliveries with response codes and timings, resend a delivery, send
 * `webhook.test`, rotate the secret. Session auth and the role table of the dashboard: reading
 * needs org:read, every change webhooks:write.
 */
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { AccountService } from '../../accounts/service.js';
import { route } from './auth-routes.js';
import type { Permission } from '../../accounts/permissions.js';
import { requireOrgPermission, requireSession } from './session.js';
import { sessionOperation } from './schemas.js';
import { parseWith, type Operation } from '../operation.js';
import { errorBodySchema, listSchema } from '../../resources/schemas.js';
import type { MembershipService } from '../../accounts/members.js';
import type { OrganizationService } from '../../services/organizations.js';
import type { Organization } from '../../storage/types.js';
import {
  deliverySchema,
  pageQuerySchema,
  webhookCreateSchema,
  webhookSchema,
  webhookUpdateSchema,
} from '../../webhooks/schemas.js';
import { ALERT_CHANNELS, ALERT_KINDS } from '../../alerts/service.js';
import { presentWebhook, type WebhookService } from '../../webhooks/service.js';

const common = {
  403: {
    description: 'FORBIDDEN (the role may not) or PLAN_REQUIRED (below Business)',
    schema: errorBodySchema,
  },
  404: { description: 'NOT_FOUND', schema: errorBodySchema },
};
const invalidBody = {
  description: 'VALIDATION_FAILED: details name each field',
  schema: errorBodySchema,
};

const orgParams = z.object({ orgId: z.string() });
const idParams = z.object({ orgId: z.string(), id: z.string() });
const deliveryParams = z.object({ orgId: z.string(), id: z.string(), deliveryId: z.string() });
const dashboardWebhookSchema = webhookSchema
  .extend({ mode: z.enum(['live', 'test']) })
  .meta({ id: 'DashboardWebhook' });
const dashboardCreateSchema = webhookCreateSchema.extend({ mode: z.enum(['live', 'test']) });

const ruleBody = z.strictObject({
  kind: z.enum(ALERT_KINDS),
  channels: z.array(z.enum(ALERT_CHANNELS)).min(1).max(2),
  thresholdPercent: z.int().min(1).max(100).optional(),
  windowMinutes: z.int().min(1).max(1440).optional(),
  minJobs: z.int().min(1).max(10_000).optional(),
});
const ruleSchema = z
  .object({
    id: z.string(),
    kind: z.enum(ALERT_KINDS),
    channels: z.array(z.enum(ALERT_CHANNELS)),
    thresholdPercent: z.number().nullable(),
    windowMinutes: z.number().nullable(),
    minJobs: z.number().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'AlertRule' });
const alertSchema = z
  .object({
    id: z.string(),
    ruleId: z.string(),
    kind: z.enum(ALERT_KINDS),
    subjectId: z
      .string()
      .meta({ description: 'the device or printer; the organization for failure_rate' }),
    state: z.enum(['open', 'resolved']),
    details: z.record(z.string(), z.unknown()),
    openedAt: z.string(),
    resolvedAt: z.string().nullable(),
  })
  .meta({ id: 'Alert' });

const op = sessionOperation('Dashboard: webhooks', common);

export const webhookDashboardOperations = {
  list: op({
    method: 'get',
    path: '/orgs/{orgId}/webhooks',
    summary: 'The organization’s webhook endpoints, both modes, newest first',
    params: orgParams,
    query: pageQuerySchema,
    responses: { 200: { description: 'a page', schema: listSchema(dashboardWebhookSchema) } },
  }),
  create: op({
    method: 'post',
    path: '/orgs/{orgId}/webhooks',
    summary: 'Create an endpoint for the live or the test mode; the secret is shown once',
    params: orgParams,
    body: dashboardCreateSchema,
    responses: {
      201: {
        description: 'the endpoint and its secret',
        schema: z.object({ webhook: dashboardWebhookSchema, secret: z.string() }),
      },
      400: invalidBody,
    },
  }),
  update: op({
    method: 'patch',
    path: '/orgs/{orgId}/webhooks/{id}',
    summary: 'Change url, events, description or enabled (true re-enables a disabled endpoint)',
    params: idParams,
    body: webhookUpdateSchema,
    responses: {
      200: { description: 'the endpoint', schema: dashboardWebhookSchema },
      400: invalidBody,
    },
  }),
  delete: op({
    method: 'delete',
    path: '/orgs/{orgId}/webhooks/{id}',
    summary: 'Delete an endpoint and its deliveries',
    params: idParams,
    responses: { 200: { description: 'the deleted endpoint', schema: webhookSchema } },
  }),
  deliveries: op({
    method: 'get',
    path: '/orgs/{orgId}/webhooks/{id}/deliveries',
    summary: 'The endpoint’s deliveries, newest first, with response codes and timings',
    params: idParams,
    query: pageQuerySchema,
    responses: { 200: { description: 'a page', schema: listSchema(deliverySchema) } },
  }),
  resend: op({
    method: 'post',
    path: '/orgs/{orgId}/webhooks/{id}/deliveries/{deliveryId}/resend',
    summary: 'Send a delivery again (same event id and body)',
    params: deliveryParams,
    responses: { 200: { description: 'the delivery, queued', schema: deliverySchema } },
  }),
  test: op({
    method: 'post',
    path: '/orgs/{orgId}/webhooks/{id}/test',
    summary: 'Send a webhook.test event to this endpoint',
    params: idParams,
    responses: { 201: { description: 'the queued delivery', schema: deliverySchema } },
  }),
  rotate: op({
    method: 'post',
    path: '/orgs/{orgId}/webhooks/{id}/rotate-secret',
    summary: 'A new secret; deliveries are signed with it from now on',
    params: idParams,
    responses: { 200: { description: 'the new secret', schema: z.object({ secret: z.string() }) } },
  }),
  listRules: op({
    method: 'get',
    path: '/orgs/{orgId}/alert-rules',
    summary: 'The organization’s alert rules',
    params: orgParams,
    responses: {
      200: { description: 'the rules', schema: z.object({ data: z.array(ruleSchema) }) },
    },
  }),
  createRule: op({
    method: 'post',
    path: '/orgs/{orgId}/alert-rules',
    summary:
      'Create an alert rule: device_offline, printer_offline, paper_out, or failure_rate (thresholdPercent over windowMinutes, at least minJobs); channels webhook and/or email',
    params: orgParams,
    body: ruleBody,
    responses: { 201: { description: 'the rule', schema: ruleSchema }, 400: invalidBody },
  }),
  deleteRule: op({
    method: 'delete',
    path: '/orgs/{orgId}/alert-rules/{id}',
    summary: 'Delete an alert rule and its alerts',
    params: idParams,
    responses: { 200: { description: 'deleted', schema: z.object({ message: z.string() }) } },
  }),
  listAlerts: op({
    method: 'get',
    path: '/orgs/{orgId}/alerts',
    summary: 'The organization’s alerts, newest first (at most 100)',
    params: orgParams,
    responses: {
      200: { description: 'the alerts', schema: z.object({ data: z.array(alertSchema) }) },
    },
  }),
} satisfies Record<string, Operation>;

export function webhookDashboardRoutes(deps: {
  accounts: AccountService;
  members: MembershipService;
  organizations: OrganizationService;
  webhooks: WebhookService;
  defaultPageSize: number;
}): Router {
  const { members, organizations, webhooks } = deps;
  const router = Router();
  const ops = webhookDashboardOperations;
  const withSession = requireSession(deps.accounts);
  const guard = (permission: Permission): RequestHandler[] => [
    withSession,
    requireOrgPermission(members, permission),
  ];
  const org = async (orgId: string): Promise<Organization> => {
    const o = await organizations.get(orgId);
    webhooks.requirePlan(o);
    return o;
  };
  const withMode = async (orgId: string, id: string) => {
    const e = await webhooks.get(orgId, id);
    return { ...presentWebhook(e), mode: e.mode };
  };

  route(router, ops.list, ...guard('org:read'), async (req, res) => {
    const { orgId } = parseWith(orgParams, req.params);
    const q = parseWith(pageQuerySchema, req.query);
    const o = await org(orgId);
    const page = await webhooks.list(o, undefined, {
      cursor: q.cursor,
      limit: q.limit ?? deps.defaultPageSize,
    });
    const data = await Promise.all(page.data.map((w) => withMode(orgId, w.id)));
    res.json({ data, nextCursor: page.nextCursor });
  });

  route(router, ops.create, ...guard('webhooks:write'), async (req, res) => {
    const { orgId } = parseWith(orgParams, req.params);
    const o = await org(orgId);
    const { mode, ...input } = parseWith(dashboardCreateSchema, req.body);
    const { webhook, secret } = await webhooks.create(o, mode, input);
    res.status(201).json({ webhook: { ...webhook, mode }, secret });
  });

  route(router, ops.update, ...guard('webhooks:write'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    const o = await org(orgId);
    await webhooks.update(o, id, parseWith(webhookUpdateSchema, req.body));
    res.json(await withMode(orgId, id));
  });

  route(router, ops.delete, ...guard('webhooks:write'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    res.json(await webhooks.delete(await org(orgId), id));
  });

  route(router, ops.deliveries, ...guard('org:read'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    const q = parseWith(pageQuerySchema, req.query);
    res.json(
      await webhooks.deliveries(await org(orgId), id, {
        cursor: q.cursor,
        limit: q.limit ?? deps.defaultPageSize,
      }),
    );
  });

  route(router, ops.resend, ...guard('webhooks:write'), async (req, res) => {
    const { orgId, id, deliveryId } = parseWith(deliveryParams, req.params);
    res.json(await webhooks.resend(await org(orgId), id, deliveryId));
  });

  route(router, ops.test, ...guard('webhooks:write'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    res.status(201).json(await webhooks.sendTest(await org(orgId), id));
  });

  route(router, ops.rotate, ...guard('webhooks:write'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    res.json(await webhooks.rotateSecret(await org(orgId), id));
  });

  route(router, ops.listRules, ...guard('org:read'), async (req, res) => {
    const { orgId } = parseWith(orgParams, req.params);
    await org(orgId);
    res.json({ data: await webhooks.alerts.listRules(orgId) });
  });

  route(router, ops.createRule, ...guard('webhooks:write'), async (req, res) => {
    const { orgId } = parseWith(orgParams, req.params);
    await org(orgId);
    res.status(201).json(await webhooks.alerts.createRule(orgId, parseWith(ruleBody, req.body)));
  });

  route(router, ops.deleteRule, ...guard('webhooks:write'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    await org(orgId);
    await webhooks.alerts.deleteRule(orgId, id);
    res.json({ message: 'deleted' });
  });

  route(router, ops.listAlerts, ...guard('org:read'), async (req, res) => {
    const { orgId } = parseWith(orgParams, req.params);
    await org(orgId);
    res.json({ data: await webhooks.alerts.listAlerts(orgId, 100) });
  });

  return router;
}
