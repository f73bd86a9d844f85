/**
 * /v1/printers, /v1/printer-groups, /v1/devices and /v1/templates: read-only views of the
 * organization's inventory.
 */
import { Router } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { InventoryService } from '../../services/inventory.js';
import type { PrinterGroupService } from '../../services/printer-groups.js';
import type { TemplateService } from '../../services/templates.js';
import { auth } from '../context.js';
import { mount, parseWith, type Guards, type Operation } from '../operation.js';
import {
  presentDevice,
  presentPrinter,
  presentPrinterGroup,
  presentTemplate,
} from '../../resources/present.js';
import {
  deviceListQuerySchema,
  deviceSchema,
  errorBodySchema,
  idParamsSchema,
  listSchema,
  printerGroupSchema,
  printerListQuerySchema,
  printerSchema,
  templateSchema,
} from '../../resources/schemas.js';

const error = (description: string) => ({ description, schema: errorBodySchema });

export const inventoryOperations = {
  listPrinters: {
    method: 'get',
    path: '/v1/printers',
    summary: 'List printers (test keys also see the sandbox’s virtual printers)',
    tag: 'Printers',
    auth: 'printers:read',
    query: printerListQuerySchema,
    responses: { 200: { description: 'a page of printers', schema: listSchema(printerSchema) } },
  },
  getPrinter: {
    method: 'get',
    path: '/v1/printers/{id}',
    summary: 'Read a printer',
    tag: 'Printers',
    auth: 'printers:read',
    params: idParamsSchema,
    responses: {
      200: { description: 'the printer', schema: printerSchema },
      404: error('NOT_FOUND'),
    },
  },
  listPrinterGroups: {
    method: 'get',
    path: '/v1/printer-groups',
    summary: 'Every printer group of the organization, oldest first, in one page',
    description:
      'A job names a group with `printerGroupId` instead of a printer; it goes to one member (failover or round-robin).',
    tag: 'Printers',
    auth: 'printers:read',
    responses: {
      200: {
        description: 'all groups; nextCursor is null',
        schema: listSchema(printerGroupSchema),
      },
    },
  },
  getPrinterGroup: {
    method: 'get',
    path: '/v1/printer-groups/{id}',
    summary: 'Read a printer group',
    tag: 'Printers',
    auth: 'printers:read',
    params: idParamsSchema,
    responses: {
      200: { description: 'the group', schema: printerGroupSchema },
      404: error('NOT_FOUND'),
    },
  },
  listDevices: {
    method: 'get',
    path: '/v1/devices',
    summary: 'List activated devices (test keys also see the sandbox device)',
    tag: 'Devices',
    auth: 'devices:read',
    query: deviceListQuerySchema,
    responses: { 200: { description: 'a page of devices', schema: listSchema(deviceSchema) } },
  },
  getDevice: {
    method: 'get',
    path: '/v1/devices/{id}',
    summary: 'Read a device',
    tag: 'Devices',
    auth: 'devices:read',
    params: idParamsSchema,
    responses: {
      200: { description: 'the device', schema: deviceSchema },
      404: error('NOT_FOUND'),
    },
  },
  listTemplates: {
    method: 'get',
    path: '/v1/templates',
    summary: 'Every template of the organization, in one page',
    tag: 'Templates',
    auth: 'jobs:read',
    responses: {
      200: { description: 'all templates; nextCursor is null', schema: listSchema(templateSchema) },
    },
  },
  getTemplate: {
    method: 'get',
    path: '/v1/templates/{id}',
    summary: 'Read a template',
    tag: 'Templates',
    auth: 'jobs:read',
    params: idParamsSchema,
    responses: {
      200: { description: 'the template', schema: templateSchema },
      404: error('NOT_FOUND'),
    },
  },
} satisfies Record<string, Operation>;

export function inventoryRoutes(
  deps: {
    inventory: InventoryService;
    templates: TemplateService;
    printerGroups: PrinterGroupService;
  },
  guards: Guards,
  defaultPageSize: number,
): Router {
  const { inventory, templates, printerGroups } = deps;
  const router = Router();
  const ops = inventoryOperations;
  const visibility = (mode: string) => ({ includeSandbox: mode === 'test' });

  mount(router, guards, ops.listPrinters, async (req, res) => {
    const a = auth(res);
    const q = parseWith(printerListQuerySchema, req.query);
    const page = await inventory.listPrinters(
      a.organization.id,
      visibility(a.mode),
      { status: q.status, deviceId: q.deviceId },
      { cursor: q.cursor, limit: q.limit ?? defaultPageSize },
    );
    res.json({ data: page.data.map(presentPrinter), nextCursor: page.nextCursor });
  });

  mount(router, guards, ops.getPrinter, async (req, res) => {
    const a = auth(res);
    const { id } = parseWith(idParamsSchema, req.params);
    const printer = await inventory.getPrinter(a.organization.id, id, visibility(a.mode));
    if (!printer) throw new PrintwireError('NOT_FOUND', `no printer ${id}`);
    res.json(presentPrinter(printer));
  });

  mount(router, guards, ops.listPrinterGroups, async (_req, res) => {
    const a = auth(res);
    const list = await printerGroups.list(a.organization.id);
    res.json({ data: list.map(presentPrinterGroup), nextCursor: null });
  });

  mount(router, guards, ops.getPrinterGroup, async (req, res) => {
    const a = auth(res);
    const { id } = parseWith(idParamsSchema, req.params);
    res.json(presentPrinterGroup(await printerGroups.get(a.organization.id, id)));
  });

  mount(router, guards, ops.listDevices, async (req, res) => {
    const a = auth(res);
    const q = parseWith(deviceListQuerySchema, req.query);
    const page = await inventory.listDevices(
      a.organization.id,
      visibility(a.mode),
      { status: q.status },
      { cursor: q.cursor, limit: q.limit ?? defaultPageSize },
    );
    res.json({ data: page.data.map(presentDevice), nextCursor: page.nextCursor });
  });

  mount(router, guards, ops.getDevice, async (req, res) => {
    const a = auth(res);
    const { id } = parseWith(idParamsSchema, req.params);
    const device = await inventory.getDevice(a.organization.id, id, visibility(a.mode));
    if (!device) throw new PrintwireError('NOT_FOUND', `no device ${id}`);
    res.json(presentDevice(device));
  });

  mount(router, guards, ops.listTemplates, async (_req, res) => {
    const a = auth(res);
    const list = await templates.list(a.organization.id);
    res.json({ data: list.map(presentTemplate), nextCursor: null });
  });

  mount(router, guards, ops.getTemplate, async (req, res) => {
    const a = auth(res);
    const { id } = parseWith(idParamsSchema, req.params);
    const template = await templates.find(a.organization.id, id);
    if (!template) throw new PrintwireError('NOT_FOUND', `no template ${id}`);
    res.json(presentTemplate(template));
  });

  return router;
}
