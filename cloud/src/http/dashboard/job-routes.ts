/**
 * Jobs in the dashboard: the organization's jobs of one mode (`?mode=live`, the default, or
 * `?mode=test`, the dashboard's test/live switch), read, created, cancelled and reprinted through
 * the same JobService as /v1/jobs. The caller is a member whose role allows it, not an API key;
 * everything else (validation, targets, quota, sandbox printing, 409s) is the /v1 behaviour.
 */
import { Router, type Response } from 'express';
import { z } from 'zod';
import type { AccountService } from '../../accounts/service.js';
import type { JobContext, JobService } from '../../services/jobs.js';
import type { MembershipService } from '../../accounts/members.js';
import type { OrganizationService } from '../../services/organizations.js';
import { parseWith, type Operation } from '../operation.js';
import { presentJob } from '../../resources/present.js';
import {
  errorBodySchema,
  jobListQuerySchema,
  jobRequestDocSchema,
  jobSchema,
} from '../../resources/schemas.js';
import {
  metadataFilter,
  PREVIEW_DESCRIPTION,
  previewQuerySchema,
  sendJobPreview,
  PREVIEW_OK,
} from '../v1/jobs.js';
import { route } from './auth-routes.js';
import type { Permission } from '../../accounts/permissions.js';
import { dataSchema, idParams, orgIdParams } from './schemas.js';
import { requireOrgPermission, requireSession } from './session.js';

const TAG = 'Dashboard: jobs';
const NOTE =
  'Dashboard session: Authorization: Bearer <accessToken>. `mode` (live by default, or test) chooses the jobs of live keys or of test keys, as the test/live switch does.';
const error = (description: string) => ({ description, schema: errorBodySchema });
const common = {
  403: error('FORBIDDEN: the role may not do this'),
  404: error('NOT_FOUND (no organization) or JOB_NOT_FOUND'),
};

export const modeQuery = z.object({
  mode: z.enum(['live', 'test']).default('live').meta({ description: 'live (default) or test' }),
});
const listQuery = jobListQuerySchema.extend(modeQuery.shape);
const idempotencyHeader = {
  name: 'Idempotency-Key',
  description: 'as on POST /v1/jobs: the same key within 24 hours returns the first job',
  schema: z.string().min(1).max(255),
};

export const jobDashboardOperations = {
  listJobs: {
    method: 'get',
    path: '/orgs/{orgId}/jobs',
    summary: 'The organization’s jobs of one mode, newest first, with the /v1/jobs filters',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: orgIdParams,
    query: listQuery,
    extraQuery: [
      { name: 'metadata.<key>', description: 'only jobs whose metadata has this value for <key>' },
    ],
    responses: {
      200: { description: 'a page of jobs', schema: dataSchema(jobSchema) },
      400: error('VALIDATION_FAILED: a query parameter is invalid'),
      ...common,
    },
  },
  createJob: {
    method: 'post',
    path: '/orgs/{orgId}/jobs',
    summary: 'Create a print job, as POST /v1/jobs does with a key of the mode',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: orgIdParams,
    query: modeQuery,
    headers: [idempotencyHeader],
    body: jobRequestDocSchema,
    responses: {
      200: { description: 'the job this idempotency key already created', schema: jobSchema },
      201: { description: 'the job, created', schema: jobSchema },
      400: error('INVALID_JOB: details name each field'),
      402: error('LICENSE_LIMIT: the plan’s monthly live jobs are used up'),
      ...common,
    },
  },
  getJob: {
    method: 'get',
    path: '/orgs/{orgId}/jobs/{id}',
    summary: 'Read a job with its events',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: idParams,
    query: modeQuery,
    responses: { 200: { description: 'the job with events', schema: jobSchema }, ...common },
  },
  getJobContent: {
    method: 'get',
    path: '/orgs/{orgId}/jobs/{id}/content',
    summary: 'What the job was asked to print, while its content is retained',
    description: `Receipt jobs: the receipt JSON; zpl, epl, text and html: the text (UTF-8); url jobs: the URL; escpos, raw, pdf and images: the bytes. Header Printwire-Job-Type names the type. ${NOTE}`,
    tag: TAG,
    auth: 'any',
    params: idParams,
    query: modeQuery,
    responses: {
      200: { description: 'the content', contentType: 'application/octet-stream' },
      ...common,
      404: error('JOB_NOT_FOUND, or NOT_FOUND: the content is no longer retained'),
    },
  },
  previewJob: {
    method: 'get',
    path: '/orgs/{orgId}/jobs/{id}/preview',
    summary: 'The PNG a sandbox job printed on the virtual printer',
    description: `${PREVIEW_DESCRIPTION} ${NOTE}`,
    tag: TAG,
    auth: 'any',
    params: idParams,
    query: modeQuery.extend(previewQuerySchema.shape),
    responses: {
      200: PREVIEW_OK,
      400: error(
        'VALIDATION_FAILED: `label` past the last label (or given for a receipt); INVALID_JOB: a document that cannot be read; RENDER_FAILED: an HTML page that could not be laid out in time',
      ),
      ...common,
      404: error('JOB_NOT_FOUND, or NOT_FOUND: no preview'),
      503: error(
        'UNAVAILABLE: the sandbox is laying out too many HTML pages, ask again shortly; NO_BROWSER: its browser did not start',
      ),
    },
  },
  cancelJob: {
    method: 'post',
    path: '/orgs/{orgId}/jobs/{id}/cancel',
    summary: 'Cancel a queued job',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: idParams,
    query: modeQuery,
    responses: {
      200: { description: 'the job, now cancelled', schema: jobSchema },
      ...common,
      409: error('JOB_ALREADY_FINISHED (printed, failed or cancelled) or CONFLICT (being sent)'),
    },
  },
  reprintJob: {
    method: 'post',
    path: '/orgs/{orgId}/jobs/{id}/reprint',
    summary: 'Print a job’s content again as a new job',
    description: NOTE,
    tag: TAG,
    auth: 'any',
    params: idParams,
    query: modeQuery,
    headers: [idempotencyHeader],
    responses: {
      200: { description: 'the job this idempotency key already created', schema: jobSchema },
      201: { description: 'the new job; metadata.reprintOf names the original', schema: jobSchema },
      ...common,
      409: error('CONFLICT: the content is no longer retained'),
    },
  },
} satisfies Record<string, Operation>;

export const JOB_PERMISSIONS: Record<keyof typeof jobDashboardOperations, Permission> = {
  listJobs: 'jobs:read',
  createJob: 'jobs:write',
  getJob: 'jobs:read',
  getJobContent: 'jobs:read',
  previewJob: 'jobs:read',
  cancelJob: 'jobs:write',
  reprintJob: 'jobs:write',
};

/** Content types of a job's content by job type; anything else is bytes. */
const TEXT_TYPES = new Set(['zpl', 'epl', 'text', 'html']);

export function jobDashboardRoutes(deps: {
  accounts: AccountService;
  members: MembershipService;
  organizations: OrganizationService;
  jobs: JobService;
  defaultPageSize: number;
}): Router {
  const { accounts, members, organizations, jobs, defaultPageSize } = deps;
  const router = Router();
  const ops = jobDashboardOperations;
  const withSession = requireSession(accounts);
  const guard = (name: keyof typeof ops) => [
    withSession,
    requireOrgPermission(members, JOB_PERMISSIONS[name]),
  ];

  /** The organization and mode a request acts in, as a key of that mode would. */
  const context = async (orgId: string, query: unknown): Promise<JobContext> => {
    const { mode } = parseWith(modeQuery, query);
    return { organization: await organizations.get(orgId), mode };
  };
  const target = async (req: { params: unknown; query: unknown }) => {
    const { orgId, id } = parseWith(idParams, req.params);
    return { ctx: await context(orgId, req.query), id };
  };
  const sendJob = (res: Response, status: number, job: Parameters<typeof presentJob>[0]) =>
    res.status(status).json(presentJob(job));

  route(router, ops.listJobs, ...guard('listJobs'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const query = req.query as Record<string, unknown>;
    const q = parseWith(listQuery, query);
    const page = await jobs.list(
      await context(orgId, { mode: q.mode }),
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

  route(router, ops.createJob, ...guard('createJob'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const ctx = await context(orgId, req.query);
    const { job, created } = await jobs.create(ctx, req.body, req.get('idempotency-key'));
    sendJob(res, created ? 201 : 200, job);
  });

  route(router, ops.getJob, ...guard('getJob'), async (req, res) => {
    const { ctx, id } = await target(req);
    sendJob(res, 200, await jobs.get(ctx, id));
  });

  route(router, ops.getJobContent, ...guard('getJobContent'), async (req, res) => {
    const { ctx, id } = await target(req);
    const { job, content } = await jobs.content(ctx, id);
    const type =
      job.type === 'receipt' && job.encoding === 'json'
        ? 'application/json; charset=utf-8'
        : TEXT_TYPES.has(job.type) || job.encoding === 'url'
          ? 'text/plain; charset=utf-8'
          : 'application/octet-stream';
    res.setHeader('Printwire-Job-Type', job.type);
    res.setHeader('Cache-Control', 'private, no-store');
    res.type(type).send(content);
  });

  route(router, ops.previewJob, ...guard('previewJob'), async (req, res) => {
    const { ctx, id } = await target(req);
    const { mode: _mode, ...query } = req.query;
    await sendJobPreview(res, jobs, ctx, id, query);
  });

  route(router, ops.cancelJob, ...guard('cancelJob'), async (req, res) => {
    const { ctx, id } = await target(req);
    sendJob(res, 200, await jobs.cancel(ctx, id));
  });

  route(router, ops.reprintJob, ...guard('reprintJob'), async (req, res) => {
    const { ctx, id } = await target(req);
    const { job, created } = await jobs.reprint(ctx, id, req.get('idempotency-key'));
    sendJob(res, created ? 201 : 200, job);
  });

  return router;
}
