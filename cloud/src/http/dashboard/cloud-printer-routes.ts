/**
 * Printers without a computer in the dashboard (../shared/CONTRACT.md "Printers without a
 * computer"): add a Star CloudPRNT or Epson Server Direct Print printer (its address, with a
 * secret of its own, is shown once) and remove one (its address stops working at once).
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AccountService } from '../../accounts/service.js';
import type { MembershipService } from '../../accounts/members.js';
import type { Permission } from '../../accounts/permissions.js';
import { presentDevice, presentPrinter } from '../../resources/present.js';
import { cloudPrinterCreatedSchema, errorBodySchema } from '../../resources/schemas.js';
import {
  cloudPrinterBody,
  type CloudPrinterService,
} from '../../services/cloud-printers/service.js';
import { parseWith, type Operation } from '../operation.js';
import { route } from './auth-routes.js';
import { messageSchema, orgIdParams } from './schemas.js';
import { requireOrgPermission, requireSession } from './session.js';

const TAG = 'Dashboard: printers that connect by themselves';
const NOTE =
  'Dashboard session: Authorization: Bearer <accessToken>. Roles owner, admin, developer.';
const printerParams = z.object({ orgId: z.string(), printerId: z.string() });

export const cloudPrinterOperations = {
  createCloudPrinter: {
    method: 'post',
    path: '/orgs/{orgId}/cloud-printers',
    summary: 'Add a printer that connects by itself (Star CloudPRNT, Epson Server Direct Print)',
    description: `The answer's url is the address to type into the printer's web settings; it is shown once. The printer is online from its first poll. ${NOTE}`,
    tag: TAG,
    auth: 'any',
    params: orgIdParams,
    body: cloudPrinterBody,
    responses: {
      201: {
        description: 'the device, its printer and the address',
        schema: cloudPrinterCreatedSchema,
      },
      400: { description: 'VALIDATION_FAILED', schema: errorBodySchema },
      403: { description: 'FORBIDDEN: the role may not do this', schema: errorBodySchema },
    },
  },
  deleteCloudPrinter: {
    method: 'delete',
    path: '/orgs/{orgId}/cloud-printers/{printerId}',
    summary: 'Remove a printer that connects by itself: its address stops working at once',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: printerParams,
    responses: {
      200: { description: 'removed', schema: messageSchema },
      403: { description: 'FORBIDDEN: the role may not do this', schema: errorBodySchema },
      404: { description: 'NOT_FOUND', schema: errorBodySchema },
    },
  },
} satisfies Record<string, Operation>;

export const CLOUD_PRINTER_PERMISSIONS: Record<keyof typeof cloudPrinterOperations, Permission> = {
  createCloudPrinter: 'devices:write',
  deleteCloudPrinter: 'devices:write',
};

export function cloudPrinterRoutes(deps: {
  accounts: AccountService;
  members: MembershipService;
  cloudPrinters: CloudPrinterService;
}): Router {
  const { accounts, members, cloudPrinters } = deps;
  const router = Router();
  const ops = cloudPrinterOperations;
  const withSession = requireSession(accounts);
  const guard = (name: keyof typeof ops) => [
    withSession,
    requireOrgPermission(members, CLOUD_PRINTER_PERMISSIONS[name]),
  ];

  route(router, ops.createCloudPrinter, ...guard('createCloudPrinter'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const body = parseWith(cloudPrinterBody, req.body);
    const created = await cloudPrinters.create(orgId, body);
    res.status(201).json({
      device: presentDevice(created.device),
      printer: presentPrinter(created.printer),
      url: created.url,
    });
  });
  route(router, ops.deleteCloudPrinter, ...guard('deleteCloudPrinter'), async (req, res) => {
    const { orgId, printerId } = parseWith(printerParams, req.params);
    await cloudPrinters.remove(orgId, printerId);
    res.json({ message: 'printer removed; its address no longer works' });
  });
  return router;
}
