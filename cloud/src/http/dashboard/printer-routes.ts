/**
 * Printers in the dashboard: the organization's printers with their device, one printer, a change
 * of alias, default printer and per-printer defaults (paper or label size, dpi, codepage, cut) that reaches the
 * printer's agent at once in its `config`, and a test page by the printer's kind. Also the
 * Overview's counts: printers by status and today's jobs by state, with the last failures.
 */
import { Router } from 'express';
import { z } from 'zod';
import { PrintwireError } from '@printwire/shared/errors/index';
import { CODEPAGES } from '@printwire/shared/codepage/index';
import { LABEL_DPIS, labelSizeProblem } from '@printwire/shared/label-graphics/label-size';
import { printerReachSchema } from '@printwire/shared/protocol/index';
import type { AccountService } from '../../accounts/service.js';
import type { MembershipService } from '../../accounts/members.js';
import type { InventoryService } from '../../services/inventory.js';
import type { OrganizationService } from '../../services/organizations.js';
import type { JobService } from '../../services/jobs.js';
import type { Device, Job, Printer } from '../../storage/types.js';
import { JOB_STATES } from '../../storage/types.js';
import { parseWith, type Operation } from '../operation.js';
import { presentJob, presentPrinter } from '../../resources/present.js';
import { errorBodySchema, jobSchema, printerSchema } from '../../resources/schemas.js';
import { route } from './auth-routes.js';
import { modeQuery } from './job-routes.js';
import type { Permission } from '../../accounts/permissions.js';
import { dataSchema, idParams, orgIdParams } from './schemas.js';
import { requireOrgPermission, requireSession } from './session.js';

const TAG = 'Dashboard: printers';
const NOTE =
  'Dashboard session: Authorization: Bearer <accessToken>. `mode=test` also lists the sandbox’s virtual printers.';
const error = (description: string) => ({ description, schema: errorBodySchema });
const common = {
  403: error('FORBIDDEN: the role may not do this'),
  404: error('NOT_FOUND'),
};

const PAPERS = ['58mm', '80mm'] as const;
const CUTS = ['full', 'partial', 'none'] as const;
const dpiSchema = z
  .union(LABEL_DPIS.map((d) => z.literal(d)))
  .describe('label printers: dots per inch, 203 (8 dots/mm), 300 or 600');
/** A receipt printer's paper width, or a label printer's label: `4x6in`, `100x150mm`. */
const paperSchema = z
  .string()
  .refine((v) => (PAPERS as readonly string[]).includes(v) || labelSizeProblem(v) === null, {
    error: (issue) =>
      `58mm or 80mm for a receipt printer, a label size for a label printer (${labelSizeProblem(String(issue.input))})`,
  })
  .describe(
    'receipt printers: 58mm or 80mm; label printers: the label, WIDTHxHEIGHT in mm or in (4x6in, 100x150mm)',
  );

export const printerDefaultsSchema = z
  .object({
    paper: paperSchema.nullable(),
    dpi: dpiSchema.nullable(),
    codepage: z.enum(CODEPAGES).nullable(),
    cut: z.enum(CUTS).nullable(),
  })
  .meta({
    id: 'PrinterDefaults',
    description: 'set in the dashboard and pushed to the agent; null: the agent’s own',
  });

/** Printers that poll the cloud themselves: no agent reaches them, their last poll says they live. */
const PULL_CONNECTIONS = ['cloudprnt', 'sdp'] as const;

export const dashboardReachSchema = z
  .union([
    printerReachSchema,
    z.object({
      via: z.enum(PULL_CONNECTIONS),
      lastPollAt: z
        .string()
        .nullable()
        .meta({ format: 'date-time', description: 'its last poll; null: it has never polled' }),
    }),
  ])
  .nullable()
  .meta({
    id: 'PrinterReach',
    description:
      'How the printer is reached, to tell two of one model apart: tcp (host, port), usb (vendorId, productId as hex, serial), serial (path, baud), system (the spooler queue), or cloudprnt / sdp (its last poll). Never a secret. null: a sandbox printer, or one reported by an agent older than this field.',
  });

export const dashboardPrinterSchema = printerSchema
  .extend({
    sandbox: z.boolean(),
    reach: dashboardReachSchema,
    defaults: printerDefaultsSchema,
    device: z
      .object({
        id: z.string(),
        name: z.string(),
        status: z.string(),
        lastSeenAt: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'DashboardPrinter', description: 'A printer with its device and its defaults.' });

export const patchPrinterBody = z.strictObject({
  alias: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .describe('the name jobs may target it by; null: none'),
  isDefault: z
    .boolean()
    .optional()
    .describe('true: the organization’s default printer (the others stop being it)'),
  defaults: z
    .strictObject({
      paper: paperSchema.nullable().optional(),
      dpi: dpiSchema.nullable().optional(),
      codepage: z.enum(CODEPAGES).nullable().optional(),
      cut: z.enum(CUTS).nullable().optional(),
    })
    .optional(),
});

export const overviewSchema = z
  .object({
    printers: z.object({
      total: z.number(),
      online: z.number(),
      offline: z.number(),
      attention: z.number().describe('paper out, cover open, error or unknown'),
    }),
    jobs: z.object({
      since: z.string(),
      byState: z.record(z.enum(JOB_STATES), z.number()),
    }),
    lastFailures: z.array(jobSchema).describe('the 5 newest failed jobs'),
  })
  .meta({ id: 'Overview' });

const overviewQuery = modeQuery.extend({
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('count jobs created from here (the viewer’s midnight); default: 24 hours ago'),
});
const listQuery = modeQuery.extend({
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const printerOperations = {
  overview: {
    method: 'get',
    path: '/orgs/{orgId}/overview',
    summary: 'Printers by status, jobs since a time by state, and the last failures',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: orgIdParams,
    query: overviewQuery,
    responses: { 200: { description: 'the counts', schema: overviewSchema }, ...common },
  },
  listPrinters: {
    method: 'get',
    path: '/orgs/{orgId}/printers',
    summary: 'The organization’s printers, newest first, with their device and defaults',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: orgIdParams,
    query: listQuery,
    responses: {
      200: { description: 'a page of printers', schema: dataSchema(dashboardPrinterSchema) },
      ...common,
    },
  },
  getPrinter: {
    method: 'get',
    path: '/orgs/{orgId}/printers/{id}',
    summary: 'Read a printer',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: idParams,
    query: modeQuery,
    responses: { 200: { description: 'the printer', schema: dashboardPrinterSchema }, ...common },
  },
  patchPrinter: {
    method: 'patch',
    path: '/orgs/{orgId}/printers/{id}',
    summary: 'Change a printer’s alias, make it the default, set its defaults',
    description: `The agent receives the new defaults at once in its \`config\` (paper, dpi, codepage and cut apply to the next job; a paper, dpi or codepage given in the printer's URI on the agent wins). A label printer's paper is its label size (4x6in, 100x150mm), on which pdf, image and html jobs are drawn at its dpi. Sandbox printers cannot be changed (409). ${NOTE}`,
    tag: TAG,
    auth: 'any',
    params: idParams,
    body: patchPrinterBody,
    responses: {
      200: { description: 'the printer', schema: dashboardPrinterSchema },
      400: error('VALIDATION_FAILED'),
      ...common,
      409: error('CONFLICT: a sandbox printer'),
    },
  },
  testPage: {
    method: 'post',
    path: '/orgs/{orgId}/printers/{id}/test-page',
    summary: 'Print a test page: a receipt, a label or a page, by the printer’s kind',
    description: `A live job (a sandbox printer: a test job); it counts like any job. ${NOTE}`,
    tag: TAG,
    auth: 'any',
    params: idParams,
    responses: {
      201: { description: 'the job', schema: jobSchema },
      ...common,
      402: error('LICENSE_LIMIT'),
    },
  },
} satisfies Record<string, Operation>;

export const PRINTER_PERMISSIONS: Record<keyof typeof printerOperations, Permission> = {
  overview: 'jobs:read',
  listPrinters: 'printers:read',
  getPrinter: 'printers:read',
  patchPrinter: 'printers:write',
  testPage: 'jobs:write',
};

/** The test page's job request: what the printer's kind prints. */
export function testPageRequest(printer: Printer, at: Date): Record<string, unknown> {
  const name = printer.alias ?? printer.name;
  const when = at.toISOString().replace('T', ' ').slice(0, 16);
  const metadata = { testPage: 'true' };
  if (printer.kind === 'label') {
    const zpl = [
      '^XA',
      '^CF0,40',
      '^FO40,40^FDPrintwire test label^FS',
      '^CF0,28',
      `^FO40,100^FD${name.replace(/[\^~]/g, ' ')}^FS`,
      `^FO40,140^FD${when} UTC^FS`,
      '^FO40,190^BCN,60,Y,N,N^FD1234567890^FS',
      '^XZ',
    ].join('\n');
    return { printerId: printer.id, type: 'zpl', data: zpl, metadata };
  }
  if (printer.kind === 'office') {
    const text = `Printwire test page\n\n${name}\n${when} UTC\n\nIf you can read this, the printer works.\n`;
    return { printerId: printer.id, type: 'text', data: text, metadata };
  }
  return {
    printerId: printer.id,
    type: 'receipt',
    data: {
      blocks: [
        { type: 'text', value: 'Printwire', align: 'center', bold: true, size: 2 },
        { type: 'text', value: 'Test receipt', align: 'center' },
        { type: 'line' },
        { type: 'pair', left: 'Printer', right: name.slice(0, 40) },
        { type: 'pair', left: 'Paper', right: printer.paper ?? '80mm' },
        { type: 'pair', left: 'Codepage', right: printer.codepage ?? 'CP437' },
        { type: 'pair', left: 'Time (UTC)', right: when },
        { type: 'text', value: 'àéèêç ñ ü € £' },
        { type: 'qr', value: 'https://printwire.example/test' },
        { type: 'cut' },
      ],
    },
    metadata,
  };
}

export function printerRoutes(deps: {
  accounts: AccountService;
  members: MembershipService;
  organizations: OrganizationService;
  inventory: InventoryService;
  jobs: JobService;
  clockNow: () => number;
  defaultPageSize: number;
}): Router {
  const { accounts, members, organizations, inventory, jobs, defaultPageSize } = deps;
  const router = Router();
  const ops = printerOperations;
  const withSession = requireSession(accounts);
  const guard = (name: keyof typeof ops) => [
    withSession,
    requireOrgPermission(members, PRINTER_PERMISSIONS[name]),
  ];
  const visibility = (mode: string) => ({ includeSandbox: mode === 'test' });

  const present = async (orgId: string, printers: Printer[]) => {
    const devices = new Map<string, Device | undefined>();
    for (const p of printers) {
      if (!devices.has(p.deviceId)) {
        devices.set(
          p.deviceId,
          await inventory.getDevice(orgId, p.deviceId, { includeSandbox: true }),
        );
      }
    }
    return printers.map((p) => presentDashboardPrinter(p, devices.get(p.deviceId)));
  };
  const organization = (orgId: string) => organizations.get(orgId);

  route(router, ops.overview, ...guard('overview'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const q = parseWith(overviewQuery, req.query);
    const since = q.since ? Date.parse(q.since) : deps.clockNow() - 86_400_000;
    const org = await organization(orgId);
    const [{ statuses, byState }, failed] = await Promise.all([
      inventory.overview(orgId, q.mode, since),
      jobs.list({ organization: org, mode: q.mode }, { state: 'failed' }, { limit: 5 }),
    ]);
    const count = (s: string) => statuses[s] ?? 0;
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    res.json({
      printers: {
        total,
        online: count('online'),
        offline: count('offline'),
        attention: total - count('online') - count('offline'),
      },
      jobs: {
        since: new Date(since).toISOString(),
        byState: Object.fromEntries(JOB_STATES.map((s) => [s, byState[s] ?? 0])),
      },
      lastFailures: failed.data.map((j: Job) => presentJob(j)),
    });
  });

  route(router, ops.listPrinters, ...guard('listPrinters'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const q = parseWith(listQuery, req.query);
    const page = await inventory.listPrinters(
      orgId,
      visibility(q.mode),
      {},
      { cursor: q.cursor, limit: q.limit ?? defaultPageSize },
    );
    res.json({ data: await present(orgId, page.data), nextCursor: page.nextCursor });
  });

  route(router, ops.getPrinter, ...guard('getPrinter'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    const { mode } = parseWith(modeQuery, req.query);
    const printer = await inventory.getPrinter(orgId, id, visibility(mode));
    if (!printer) throw new PrintwireError('NOT_FOUND', `no printer ${id}`);
    res.json((await present(orgId, [printer]))[0]);
  });

  route(router, ops.patchPrinter, ...guard('patchPrinter'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    const body = parseWith(patchPrinterBody, req.body);
    const printer = await inventory.updatePrinterSettings(orgId, id, body);
    res.json((await present(orgId, [printer]))[0]);
  });

  route(router, ops.testPage, ...guard('testPage'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    const printer = await inventory.getPrinter(orgId, id, { includeSandbox: true });
    if (!printer) throw new PrintwireError('NOT_FOUND', `no printer ${id}`);
    const ctx = {
      organization: await organization(orgId),
      mode: printer.sandbox ? ('test' as const) : ('live' as const),
    };
    const { job } = await jobs.create(ctx, testPageRequest(printer, new Date(deps.clockNow())));
    res.status(201).json(presentJob(job));
  });

  return router;
}

const isPulling = (connection: string): connection is (typeof PULL_CONNECTIONS)[number] =>
  (PULL_CONNECTIONS as readonly string[]).includes(connection);

export function presentDashboardPrinter(
  p: Printer,
  device: Device | undefined,
): z.infer<typeof dashboardPrinterSchema> {
  const lastSeenAt =
    device?.lastSeenAt === null || device === undefined
      ? null
      : new Date(device.lastSeenAt).toISOString();
  return {
    ...presentPrinter(p),
    sandbox: p.sandbox,
    // A printer that polls is its own device, seen at each poll it records (every 15 s at most).
    reach: isPulling(p.connection) ? { via: p.connection, lastPollAt: lastSeenAt } : p.reach,
    defaults: {
      paper: p.settings.paper ?? null,
      dpi: (p.settings.dpi as (typeof LABEL_DPIS)[number] | undefined) ?? null,
      codepage: (p.settings.codepage as (typeof CODEPAGES)[number] | undefined) ?? null,
      cut: p.settings.cut ?? null,
    },
    device: device
      ? {
          id: device.id,
          name: device.name,
          status: device.status,
          lastSeenAt,
        }
      : null,
  };
}
