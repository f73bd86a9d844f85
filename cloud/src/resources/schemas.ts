/**
 * zod schemas of every body, query and response of the public API. Handlers validate with them and
 * /openapi.json is generated from them, so the description cannot drift from the code.
 * Schemas with a `meta({ id })` become named components in the OpenAPI document.
 */
import { z } from 'zod';
import { receiptDocumentSchema } from '@printwire/shared/receipt/index';
import { DEFAULT_LIMITS } from '../config.js';
import { jobRequestFields } from '@printwire/shared/contracts/job-request';
import { ID_BODY_PATTERN } from '@printwire/shared/ids/index';
import { JOB_STATES, PLANS, SCOPES } from '../storage/types.js';

const isoDate = z.string().meta({ format: 'date-time', description: 'ISO 8601 date-time' });

// The job request is a contract of @printwire/shared (the agent's local server checks it too).
export {
  JOB_ENCODINGS,
  JOB_TYPES,
  jobOptionsSchema,
  jobRequestSchema,
  metadataSchema,
  printerReferenceSchema,
  type JobRequest,
} from '@printwire/shared/contracts/job-request';

// ---------------------------------------------------------------------------------------------
// Resources

export const jobEventSchema = z
  .object({
    state: z.enum(JOB_STATES),
    errorCode: z.string().nullable(),
    printerId: z.string().optional().meta({
      description:
        'On the `queued` event of a printer-group job that moved to another member: that member.',
    }),
    at: isoDate,
  })
  .meta({ id: 'JobEvent', description: 'One state change of a job.' });

export const jobSchema = z
  .object({
    id: z.string(),
    idempotencyKey: z.string().nullable(),
    deviceId: z.string().nullable(),
    printerId: z.string().nullable(),
    source: z.enum(['local', 'cloud']),
    mode: z.enum(['live', 'test']).meta({ description: 'test: created with a pw_test_ key' }),
    type: z.string(),
    templateId: z.string().nullable(),
    state: z.enum(JOB_STATES),
    attempt: z.int(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    contentRetained: z
      .boolean()
      .meta({ description: 'whether content is still stored; needed to reprint' }),
    hasPreview: z
      .boolean()
      .meta({ description: 'true for sandbox jobs that have a preview image' }),
    createdAt: isoDate,
    updatedAt: isoDate,
    dispatchedAt: isoDate.nullable(),
    printedAt: isoDate.nullable(),
    expiresAt: isoDate.nullable(),
    printerGroupId: z.string().nullable().meta({
      description:
        'the printer group the job named; printerId is then the member that has it now (null while no member is ready)',
    }),
    movedFrom: z.array(z.string()).meta({
      description:
        'printer ids of the group members the job was moved from before any byte of it printed, oldest first',
    }),
    events: z.array(jobEventSchema).optional().meta({
      description: 'state history; present on single-job reads and job-returning actions',
    }),
  })
  .meta({ id: 'Job', description: 'A print job.' });

export const printerSchema = z
  .object({
    id: z.string(),
    deviceId: z.string(),
    agentPrinterId: z.string(),
    name: z.string(),
    alias: z.string().nullable(),
    connection: z.string().meta({ description: 'tcp, serial, usb, system, or virtual (sandbox)' }),
    kind: z.string().meta({ description: 'receipt, label or office' }),
    paper: z.string().nullable(),
    codepage: z.string().nullable(),
    capabilities: z.array(z.string()),
    isDefault: z.boolean(),
    status: z.string().meta({
      description:
        'online, offline, paper_out, cover_open, error, or unknown (not read yet); shown within seconds of the agent connecting, and a change made while it was disconnected is reported when it reconnects',
    }),
    lastStatusAt: isoDate
      .nullable()
      .meta({ description: 'when the cloud recorded the last change of status' }),
  })
  .meta({
    id: 'Printer',
    description:
      'A printer attached to a device (or a sandbox printer). An agent reports its configured printers and every printer it finds on its computer (USB printers, system queues), looking again every 30 s; a printer no longer found stays listed, offline; one hidden on the agent (printwire-agent printers hide ID) is removed from the list.',
  });

export const deviceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    groupId: z.string().nullable(),
    os: z.string(),
    arch: z.string(),
    agentVersion: z.string(),
    status: z.enum(['online', 'offline']),
    activated: z.boolean(),
    lastSeenAt: isoDate.nullable(),
    createdAt: isoDate,
  })
  .meta({ id: 'Device', description: 'A computer running the agent (or the sandbox).' });

export const printerGroupSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    printerIds: z.array(z.string()).meta({ description: 'the members, in order (1 to 20)' }),
    strategy: z.enum(['failover', 'round-robin']).meta({
      description:
        'failover: the first member in order that is online and not paper_out or cover_open; round-robin: the next such member after the one that took the group’s last job',
    }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'PrinterGroup', description: 'Printers that share jobs, in order.' });

export const templateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(['zpl', 'epl', 'receipt', 'html']),
    content: z.string(),
    paper: z.string().nullable(),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Template', description: 'A stored template filled with data by template jobs.' });

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      retryable: z.boolean(),
      details: z.unknown().optional(),
    }),
    requestId: z.string().nullable(),
  })
  .meta({ id: 'Error', description: 'Every error: the x-request-id header equals requestId.' });

export const meSchema = z
  .object({
    organization: z.object({
      id: z.string(),
      name: z.string(),
      plan: z.enum(PLANS),
      retentionDays: z.int(),
      createdAt: isoDate,
    }),
    key: z.object({
      id: z.string(),
      name: z.string(),
      mode: z.enum(['live', 'test']),
      prefix: z.string(),
      scopes: z.array(z.enum(SCOPES)),
    }),
    plan: z.object({
      name: z.enum(PLANS),
      monthlyJobs: z.int().nullable().meta({ description: 'null: unlimited' }),
      footer: z.boolean(),
    }),
    usage: z.object({
      period: z.string().meta({ description: 'calendar month in UTC, 2026-11' }),
      liveJobs: z.int(),
      remaining: z.int().nullable(),
    }),
  })
  .meta({ id: 'Me', description: 'The caller: organization, key, plan and this month’s usage.' });

export function listSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() });
}

export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.enum(['ok', 'failed'])).optional(),
});

// ---------------------------------------------------------------------------------------------
// Queries

const limitParam = z
  .string()
  .regex(/^\d{1,3}$/, { error: `must be a whole number ${1}-${DEFAULT_LIMITS.maxPageSize}` })
  .transform(Number)
  .pipe(
    z
      .int()
      .min(1, { error: `must be 1-${DEFAULT_LIMITS.maxPageSize}` })
      .max(DEFAULT_LIMITS.maxPageSize, { error: `must be 1-${DEFAULT_LIMITS.maxPageSize}` }),
  )
  .optional()
  .meta({ description: `page size, 1-${DEFAULT_LIMITS.maxPageSize}, default 25` });

const cursorParam = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .meta({ description: 'nextCursor of the previous page' });

const dateParam = z
  .string()
  .refine(
    (s) =>
      /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) &&
      !Number.isNaN(Date.parse(s)),
    {
      error: 'must be an ISO 8601 date or date-time',
    },
  )
  .transform((s) => Date.parse(s));

export const jobListQuerySchema = z.object({
  cursor: cursorParam,
  limit: limitParam,
  from: dateParam.optional().meta({ description: 'created at or after (ISO 8601)' }),
  to: dateParam.optional().meta({ description: 'created before (ISO 8601)' }),
  printerId: z.string().min(1).max(100).optional(),
  deviceId: z.string().min(1).max(100).optional(),
  printerGroupId: z
    .string()
    .regex(new RegExp(`^grp_${ID_BODY_PATTERN}$`), {
      error: 'must be a printer group id (grp_ and 26 letters or digits)',
    })
    .optional()
    .meta({
      description:
        'only the jobs sent to this printer group, whichever member holds them (an id of no group of the organization: an empty list)',
    }),
  state: z.enum(JOB_STATES).optional(),
});

export const printerListQuerySchema = z.object({
  cursor: cursorParam,
  limit: limitParam,
  status: z.string().min(1).max(40).optional(),
  deviceId: z.string().min(1).max(100).optional(),
});

export const deviceListQuerySchema = z.object({
  cursor: cursorParam,
  limit: limitParam,
  status: z.enum(['online', 'offline']).optional(),
});

export const idParamsSchema = z.object({ id: z.string().min(1).max(100) });

// ---------------------------------------------------------------------------------------------
// Bodies

/** The receipt document of the shared receipt engine, named for the OpenAPI document. */
export const receiptDocumentDocSchema = receiptDocumentSchema.meta({
  id: 'ReceiptDocument',
  description: 'A receipt described as JSON (at most 2000 blocks); see docs/receipts.md.',
});

/** The same request as documented, with `data`'s alternatives spelled out. */
export const jobRequestDocSchema = z
  .strictObject({
    ...jobRequestFields,
    data: z.union([z.string(), receiptDocumentDocSchema, z.record(z.string(), z.unknown())]).meta({
      description:
        'the content: a receipt document (receipt, json), base64 (escpos, raw, pdf, image, and any type with encoding base64), text (utf8), a URL (url); template variables when templateId is set',
    }),
  })
  .meta({ id: 'JobRequest', description: 'The body of POST /v1/jobs.' });

export const receiptPreviewRequestSchema = z
  .strictObject({
    document: z.unknown().meta({ description: 'a receipt document (see ReceiptDocument)' }),
    profile: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'printer profile id; default generic-80mm' }),
    paper: z.enum(['58mm', '80mm']).optional(),
    footer: z.boolean().optional().meta({ description: 'adds the free plan’s footer line' }),
  })
  .meta({ id: 'ReceiptPreviewRequest' });

export const receiptPreviewSchema = z
  .object({
    image: z.string().meta({ description: 'data:image/png;base64,…' }),
    width: z.int(),
    height: z.int(),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'ReceiptPreview' });

export const cloudPrinterCreatedSchema = z
  .object({
    device: deviceSchema,
    printer: printerSchema,
    url: z.string().meta({
      description:
        'The address to type into the printer’s settings (CloudPRNT Server URL, or SDP URL). It carries a secret of its own: it is shown once, and a printer is found by it.',
    }),
  })
  .meta({
    id: 'CloudPrinterCreated',
    description:
      'A printer that connects by itself (Star CloudPRNT, Epson Server Direct Print): a device of its own (os "printer") with one printer (connection "cloudprnt" or "sdp"), and its address.',
  });
