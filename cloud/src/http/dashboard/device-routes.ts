/**
 * Devices in the dashboard (../shared/CONTRACT.md "Dashboard resources"): list the organization's
 * agents, rename or group one, deactivate one. Deactivating revokes the device token at once:
 * the gateway closes the agent's socket and refuses the token from then on.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AccountService } from '../../accounts/service.js';
import { parseWith, type Operation } from '../operation.js';
import { presentDevice } from '../../resources/present.js';
import { deviceSchema, errorBodySchema } from '../../resources/schemas.js';
import type { MembershipService } from '../../accounts/members.js';
import type { InventoryService } from '../../services/inventory.js';
import { route } from './auth-routes.js';
import type { Permission } from '../../accounts/permissions.js';
import { dataSchema, idParams, messageSchema, orgIdParams } from './schemas.js';
import { requireOrgPermission, requireSession } from './session.js';

const TAG = 'Dashboard: devices';
const NOTE = 'Dashboard session: Authorization: Bearer <accessToken>.';
const common = {
  403: { description: 'FORBIDDEN: the role may not do this', schema: errorBodySchema },
  404: { description: 'NOT_FOUND', schema: errorBodySchema },
};

export const patchDeviceBody = z.object({
  name: z.string().min(1).max(100).optional(),
  groupId: z.string().min(1).max(100).nullable().optional().describe('any label; null: no group'),
});

export const deviceOperations = {
  listDevices: {
    method: 'get',
    path: '/orgs/{orgId}/devices',
    summary: 'The organization’s activated agents',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: orgIdParams,
    responses: { 200: { description: 'the devices', schema: dataSchema(deviceSchema) }, ...common },
  },
  patchDevice: {
    method: 'patch',
    path: '/orgs/{orgId}/devices/{id}',
    summary: 'Rename a device or put it in a group',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: idParams,
    body: patchDeviceBody,
    responses: {
      200: { description: 'the device', schema: deviceSchema },
      400: { description: 'VALIDATION_FAILED', schema: errorBodySchema },
      ...common,
    },
  },
  deactivateDevice: {
    method: 'post',
    path: '/orgs/{orgId}/devices/{id}/deactivate',
    summary: 'Deactivate a device: its token is revoked at once and its connection closed',
    description: `A new activation code connects the computer again. ${NOTE}`,
    tag: TAG,
    auth: 'any',
    params: idParams,
    responses: { 200: { description: 'deactivated', schema: messageSchema }, ...common },
  },
} satisfies Record<string, Operation>;

export const DEVICE_PERMISSIONS: Record<keyof typeof deviceOperations, Permission> = {
  listDevices: 'devices:read',
  patchDevice: 'devices:write',
  deactivateDevice: 'devices:write',
};

export function deviceRoutes(deps: {
  accounts: AccountService;
  members: MembershipService;
  inventory: InventoryService;
}): Router {
  const { accounts, members, inventory } = deps;
  const router = Router();
  const ops = deviceOperations;
  const withSession = requireSession(accounts);
  const guard = (name: keyof typeof ops) => [
    withSession,
    requireOrgPermission(members, DEVICE_PERMISSIONS[name]),
  ];

  route(router, ops.listDevices, ...guard('listDevices'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const devices = await inventory.allDevices(orgId);
    res.json({ data: devices.map(presentDevice), nextCursor: null });
  });
  route(router, ops.patchDevice, ...guard('patchDevice'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    const body = parseWith(patchDeviceBody, req.body);
    const device = await inventory.updateDevice(orgId, id, body);
    res.json(presentDevice(device));
  });
  route(router, ops.deactivateDevice, ...guard('deactivateDevice'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    await inventory.deactivateDevice(orgId, id);
    res.json({ message: 'device deactivated' });
  });
  return router;
}
