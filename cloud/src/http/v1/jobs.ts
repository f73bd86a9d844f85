/** /v1/jobs: create, list, read, preview, cancel, reprint. */
import { Router, type Response } from 'express';
import { z } from 'zod';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { JobContext, JobService } from '../../services/jobs.js';
import {
  LABEL_WARNINGS_HEADER_MAX,
  labelPreviewLanguage,
  labelWarningsHeader,
} from '../../sandbox/label-preview.js';
import { auth } from '../context.js';
import { fieldIssues, invalid } from '../../resources/field-issues.js';
import { mount, parseWith, type Guards, type Operation, type ResponseSpec } from '../operation.js';
import { presentJob } from '../../resources/present.js';
import {
  errorBodySchema,
  idParamsSchema,
  jobListQuerySchema,
  jobRequestDocSchema,
  jobSchema,
  listSchema,
  metadataSchema,
} from '../../resources/schemas.js';

const idempotencyHeader = {
  name: 'Idempotency-Key',
  description:
    'same key within 24 hours returns the first job (200) and prints nothing; overrides idempotencyKey in the body',
  schema: z.string().min(1).max(255),
};
const error = (description: string) => ({ description, schema: errorBodySchema });

/** What a job preview is, for both APIs' documentation. */
export const PREVIEW_DESCRIPTION = `Sandbox (test) jobs of type receipt, escpos, raw and text (the paper, as the virtual printer prints it), and zpl and epl, direct or from a template (one label, PNG at the printer’s dpi, default 203: sized by the label’s own ^PW/^LL or EPL q/Q, else the printer’s or the template’s label size, else 4 × 6 in), and pdf, image and html jobs for the label printer (the ^GF labels it gets, drawn back: one a page on its label size; html laid out first by the cloud’s browser on pages of the label’s size, as the agent does, with nothing loaded but data: and blob: URLs and a time limit; a cloud without a browser has no html preview, hasPreview is false and the 404 says why). \`label=N\` picks the N-th label from 0 (each ^XA…^XZ, each copy ^PQ asks for, and each of options.copies is one); the response says how many there are in \`Printwire-Label-Count\` and names the commands the picture could not draw in \`Printwire-Skipped-Commands\` (comma-separated, empty when none). \`Printwire-Label-Warnings\` says where the picture loses data as the printer would (a QR code dropping characters, a graphic cut short, a font drawn as font 0): a JSON array of English sentences, percent-encoded (decode with decodeURIComponent, then JSON.parse); absent when there are none; at most ${LABEL_WARNINGS_HEADER_MAX} characters, whole warnings only, the last entry saying how many more were left off. Deleted with the job content.`;

/** The preview's 200 answer, with the headers a label's preview carries. */
export const PREVIEW_OK = {
  description: 'the printed page, or the label asked for',
  contentType: 'image/png',
  headers: {
    'Printwire-Label-Count': 'label previews: how many labels the content prints',
    'Printwire-Skipped-Commands':
      'label previews: the commands the picture could not draw, comma-separated (empty when none)',
    'Printwire-Label-Warnings': `label previews: where the picture loses data, a percent-encoded JSON array of strings (absent when none; at most ${LABEL_WARNINGS_HEADER_MAX} characters)`,
  },
} satisfies ResponseSpec;

export const previewQuerySchema = z.object({
  label: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .describe('label jobs: which label, from 0 (default 0)'),
});

/**
 * Answers a job's preview: a label job's label (with its count and the commands not drawn in
 * headers), else the printed paper. `label` on a job that is no label is refused.
 */
export async function sendJobPreview(
  res: Response,
  jobs: JobService,
  ctx: JobContext,
  id: string,
  query: unknown,
): Promise<void> {
  const { label } = parseWith(previewQuerySchema, query);
  const job = await jobs.get(ctx, id);
  let png: Buffer;
  if (labelPreviewLanguage(job)) {
    const drawn = await jobs.labelPreview(ctx, id, label ?? 0);
    res.setHeader('Printwire-Label-Count', String(drawn.labelCount));
    res.setHeader('Printwire-Skipped-Commands', drawn.skipped.join(','));
    const warnings = labelWarningsHeader(drawn.warnings);
    if (warnings) res.setHeader('Printwire-Label-Warnings', warnings);
    png = drawn.png;
  } else {
    if (label !== undefined && label > 0) {
      const message = `label: a ${job.type} job has one picture, its paper; label 0 at most`;
      throw new PrintwireError('VALIDATION_FAILED', message, {
        details: [{ path: 'label', message }],
      });
    }
    png = await jobs.preview(ctx, id);
  }
  res.type('image/png').setHeader('Cache-Control', 'private, max-age=300');
  res.send(png);
}

export const jobOperations = {
  list: {
    method: 'get',
    path: '/v1/jobs',
    summary: 'List jobs, newest first',
    tag: 'Jobs',
    auth: 'jobs:read',
    query: jobListQuerySchema,
    extraQuery: [
      { name: 'metadata.<key>', description: 'only jobs whose metadata has this value for <key>' },
    ],
    responses: {
      200: { description: 'a page of jobs', schema: listSchema(jobSchema) },
      400: error('VALIDATION_FAILED: a query parameter is invalid'),
    },
  },
  create: {
    method: 'post',
    path: '/v1/jobs',
    summary: 'Create a print job',
    description:
      'Test-key jobs print at once on the sandbox’s virtual printers (queued → sending → printed, or failed with PAPER_OUT); live jobs stay queued until their device takes them.',
    tag: 'Jobs',
    auth: 'jobs:write',
    headers: [idempotencyHeader],
    body: jobRequestDocSchema,
    responses: {
      200: {
        description: 'the job this idempotency key already created, unchanged',
        schema: jobSchema,
      },
      201: { description: 'the job, created', schema: jobSchema },
      400: error('INVALID_JOB: details name each field'),
      402: error('LICENSE_LIMIT: the plan’s monthly live jobs are used up'),
    },
  },
  get: {
    method: 'get',
    path: '/v1/jobs/{id}',
    summary: 'Read a job with its events',
    tag: 'Jobs',
    auth: 'jobs:read',
    params: idParamsSchema,
    responses: {
      200: { description: 'the job with events', schema: jobSchema },
      404: error('JOB_NOT_FOUND'),
    },
  },
  preview: {
    method: 'get',
    path: '/v1/jobs/{id}/preview',
    summary: 'The PNG a sandbox job printed on the virtual printer',
    description: PREVIEW_DESCRIPTION,
    tag: 'Jobs',
    auth: 'jobs:read',
    params: idParamsSchema,
    query: previewQuerySchema,
    responses: {
      200: PREVIEW_OK,
      400: error(
        'VALIDATION_FAILED: `label` past the last label (or given for a receipt); INVALID_JOB: a document that cannot be read; RENDER_FAILED: an HTML page that could not be laid out in time',
      ),
      404: error('JOB_NOT_FOUND (no such job) or NOT_FOUND (no preview)'),
      503: error(
        'UNAVAILABLE: the sandbox is laying out too many HTML pages, ask again shortly; NO_BROWSER: its browser did not start',
      ),
    },
  },
  cancel: {
    method: 'post',
    path: '/v1/jobs/{id}/cancel',
    summary: 'Cancel a queued job',
    tag: 'Jobs',
    auth: 'jobs:write',
    params: idParamsSchema,
    responses: {
      200: { description: 'the job, now cancelled', schema: jobSchema },
      404: error('JOB_NOT_FOUND'),
      409: error('JOB_ALREADY_FINISHED (printed, failed or cancelled) or CONFLICT (being sent)'),
    },
  },
  reprint: {
    method: 'post',
    path: '/v1/jobs/{id}/reprint',
    summary: 'Print a job’s content again as a new job',
    tag: 'Jobs',
    auth: 'jobs:write',
    params: idParamsSchema,
    headers: [idempotencyHeader],
    responses: {
      200: { description: 'the job this idempotency key already created', schema: jobSchema },
      201: { description: 'the new job; metadata.reprintOf names the original', schema: jobSchema },
      404: error('JOB_NOT_FOUND'),
      409: error('CONFLICT: the content is no longer retained'),
    },
  },
} satisfies Record<string, Operation>;

/** `metadata.<key>=<value>` query parameters, validated like job metadata. */
export function metadataFilter(query: Record<string, unknown>): Record<string, string> | undefined {
  const pairs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (name.startsWith('metadata.')) pairs[name.slice('metadata.'.length)] = value;
  }
  if (Object.keys(pairs).length === 0) return undefined;
  const result = metadataSchema.safeParse(pairs);
  if (!result.success) throw invalid('VALIDATION_FAILED', fieldIssues(result.error, ['metadata']));
  return result.data;
}

/**
 * Registers the job routes on `router`: by default a router of their own; the app passes itself,
 * so that its busiest routes sit at its top level and a job request enters no nested router.
 */
export function jobRoutes(
  jobs: JobService,
  guards: Guards,
  defaultPageSize: number,
  router: Router = Router(),
): Router {
  const ops = jobOperations;

  mount(router, guards, ops.list, async (req, res) => {
    const a = auth(res);
    const query = req.query as Record<string, unknown>;
    const q = parseWith(jobListQuerySchema, query);
    const page = await jobs.list(
      a,
      {
        from: q.from,
        to: q.to,
        printerId: q.printerId,
        deviceId: q.deviceId,
        printerGroupId: q.printerGroupId,
        state: q.state,
        metadata: metadataFilter(query),
      },
      { cursor: q.cursor, limit: q.limit ?? defaultPageSize },
    );
    res.json({ data: page.data.map(presentJob), nextCursor: page.nextCursor });
  });

  mount(router, guards, ops.create, async (req, res) => {
    const { job, created } = await jobs.create(auth(res), req.body, req.get('idempotency-key'));
    res.status(created ? 201 : 200).json(presentJob(job));
  });

  mount(router, guards, ops.get, async (req, res) => {
    const { id } = parseWith(idParamsSchema, req.params);
    res.json(presentJob(await jobs.get(auth(res), id)));
  });

  mount(router, guards, ops.preview, async (req, res) => {
    const { id } = parseWith(idParamsSchema, req.params);
    await sendJobPreview(res, jobs, auth(res), id, req.query);
  });

  mount(router, guards, ops.cancel, async (req, res) => {
    const { id } = parseWith(idParamsSchema, req.params);
    res.json(presentJob(await jobs.cancel(auth(res), id)));
  });

  mount(router, guards, ops.reprint, async (req, res) => {
    const { id } = parseWith(idParamsSchema, req.params);
    const { job, created } = await jobs.reprint(auth(res), id, req.get('idempotency-key'));
    res.status(created ? 201 : 200).json(presentJob(job));
  });

  return router;
}
