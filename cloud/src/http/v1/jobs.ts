/** /v1/jobs: create, list, read, preview, cancel, reprint. */
import { Router } from 'express';
import { z } from 'zod';
import type { JobService } from '../../services/jobs.js';
import { auth } from '../context.js';
import { fieldIssues, invalid } from '../../resources/field-issues.js';
import { mount, parseWith, type Guards, type Operation } from '../operation.js';
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
    description: 'Receipt, escpos, raw and text test jobs only; deleted with the job content.',
    tag: 'Jobs',
    auth: 'jobs:read',
    params: idParamsSchema,
    responses: {
      200: { description: 'the printed page', contentType: 'image/png' },
      404: error('JOB_NOT_FOUND (no such job) or NOT_FOUND (no preview)'),
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
    const png = await jobs.preview(auth(res), id);
    res.type('image/png').setHeader('Cache-Control', 'private, max-age=300');
    res.send(png);
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
