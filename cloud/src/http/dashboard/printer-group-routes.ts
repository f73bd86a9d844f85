/**
 * Printer groups in the dashboard (../shared/CONTRACT.md "Printer groups"): list, create, change
 * (name, strategy, members and their order) and delete. Owners, admins and developers write;
 * every role reads. The public API reads them at /v1/printer-groups (http/v1/inventory.ts).
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AccountService } from '../../accounts/service.js';
import type { MembershipService } from '../../accounts/members.js';
import type { Permission } from '../../accounts/permissions.js';
import { presentPrinterGroup } from '../../resources/present.js';
import { errorBodySchema, printerGroupSchema } from '../../resources/schemas.js';
import { MAX_GROUP_MEMBERS, type PrinterGroupService } from '../../services/printer-groups.js';
import { GROUP_STRATEGIES } from '../../storage/types.js';
import { parseWith, type Operation } from '../operation.js';
import { route } from './auth-routes.js';
import { dataSchema, idParams, messageSchema, orgIdParams, sessionOperation } from './schemas.js';
import { requireOrgPermission, requireSession } from './session.js';

const error = (description: string) => ({ description, schema: errorBodySchema });
const common = {
  403: error('FORBIDDEN: the role may not do this'),
  404: error('NOT_FOUND: no such group'),
};
const invalidBody = error(
  'VALIDATION_FAILED: details name each field (printerIds[i]: a printer that is not the organization’s)',
);

const name = z.string().trim().min(1).max(100);
const strategy = z.enum(GROUP_STRATEGIES);
const printerIds = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(MAX_GROUP_MEMBERS)
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) {
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `printer ${id} is already in the group`,
          params: { rule: 'unique' },
        });
      }
      seen.add(id);
    });
  })
  .meta({
    description: `1 to ${MAX_GROUP_MEMBERS} printer ids of the organization, in order, each once`,
  });

export const createPrinterGroupBody = z.object({ name, printerIds, strategy });
export const patchPrinterGroupBody = z.object({
  name: name.optional(),
  printerIds: printerIds.optional(),
  strategy: strategy.optional(),
});

const orgOp = sessionOperation('Dashboard: printer groups', common);

export const printerGroupOperations = {
  listPrinterGroups: orgOp({
    method: 'get',
    path: '/orgs/{orgId}/printer-groups',
    summary: 'The organization’s printer groups, oldest first',
    params: orgIdParams,
    responses: {
      200: {
        description: 'every group; nextCursor is null',
        schema: dataSchema(printerGroupSchema),
      },
    },
  }),
  createPrinterGroup: orgOp({
    method: 'post',
    path: '/orgs/{orgId}/printer-groups',
    summary: 'Create a printer group (failover or round-robin)',
    params: orgIdParams,
    body: createPrinterGroupBody,
    responses: {
      201: { description: 'the group', schema: printerGroupSchema },
      400: invalidBody,
    },
  }),
  getPrinterGroup: orgOp({
    method: 'get',
    path: '/orgs/{orgId}/printer-groups/{id}',
    summary: 'Read a printer group',
    params: idParams,
    responses: { 200: { description: 'the group', schema: printerGroupSchema } },
  }),
  patchPrinterGroup: orgOp({
    method: 'patch',
    path: '/orgs/{orgId}/printer-groups/{id}',
    summary: 'Rename a group, change its strategy, or its members and their order',
    params: idParams,
    body: patchPrinterGroupBody,
    responses: {
      200: { description: 'the group', schema: printerGroupSchema },
      400: invalidBody,
    },
  }),
  deletePrinterGroup: orgOp({
    method: 'delete',
    path: '/orgs/{orgId}/printer-groups/{id}',
    summary:
      'Delete a group: its jobs that have a member print there; those still waiting for one fail (PRINTER_NOT_FOUND)',
    params: idParams,
    responses: { 200: { description: 'deleted', schema: messageSchema } },
  }),
} satisfies Record<string, Operation>;

export const PRINTER_GROUP_PERMISSIONS: Record<keyof typeof printerGroupOperations, Permission> = {
  listPrinterGroups: 'printers:read',
  createPrinterGroup: 'printers:write',
  getPrinterGroup: 'printers:read',
  patchPrinterGroup: 'printers:write',
  deletePrinterGroup: 'printers:write',
};

export function printerGroupRoutes(deps: {
  accounts: AccountService;
  members: MembershipService;
  groups: PrinterGroupService;
}): Router {
  const { accounts, members, groups } = deps;
  const router = Router();
  const ops = printerGroupOperations;
  const withSession = requireSession(accounts);
  const guard = (op: keyof typeof ops) => [
    withSession,
    requireOrgPermission(members, PRINTER_GROUP_PERMISSIONS[op]),
  ];

  route(router, ops.listPrinterGroups, ...guard('listPrinterGroups'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const list = await groups.list(orgId);
    res.json({ data: list.map(presentPrinterGroup), nextCursor: null });
  });
  route(router, ops.createPrinterGroup, ...guard('createPrinterGroup'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const body = parseWith(createPrinterGroupBody, req.body);
    res.status(201).json(presentPrinterGroup(await groups.create(orgId, body)));
  });
  route(router, ops.getPrinterGroup, ...guard('getPrinterGroup'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    res.json(presentPrinterGroup(await groups.get(orgId, id)));
  });
  route(router, ops.patchPrinterGroup, ...guard('patchPrinterGroup'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    const body = parseWith(patchPrinterGroupBody, req.body);
    const patch = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.printerIds !== undefined ? { printerIds: body.printerIds } : {}),
      ...(body.strategy !== undefined ? { strategy: body.strategy } : {}),
    };
    res.json(presentPrinterGroup(await groups.update(orgId, id, patch)));
  });
  route(router, ops.deletePrinterGroup, ...guard('deletePrinterGroup'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    await groups.delete(orgId, id);
    res.json({ message: 'printer group deleted' });
  });
  return router;
}
