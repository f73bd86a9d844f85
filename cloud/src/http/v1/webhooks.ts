/** /v1/webhooks: list, create, delete (scope webhooks:write, Business plan and above). */
import { Router } from 'express';
import { auth } from '../context.js';
import { mount, parseWith, type Guards, type Operation } from '../operation.js';
import { errorBodySchema, idParamsSchema, listSchema } from '../../resources/schemas.js';
import {
  pageQuerySchema,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookSchema,
} from '../../webhooks/schemas.js';
import type { WebhookService } from '../../webhooks/service.js';

const error = (description: string) => ({ description, schema: errorBodySchema });

export const webhookOperations = {
  list: {
    method: 'get',
    path: '/v1/webhooks',
    summary: 'List the webhook endpoints of the key’s mode, newest first',
    tag: 'Webhooks',
    auth: 'webhooks:write',
    query: pageQuerySchema,
    responses: {
      200: { description: 'a page of endpoints', schema: listSchema(webhookSchema) },
      403: error('PLAN_REQUIRED: webhooks need the Business plan or above'),
    },
  },
  create: {
    method: 'post',
    path: '/v1/webhooks',
    summary: 'Create a webhook endpoint',
    description:
      'The endpoint receives the events of the creating key’s mode. In production the url must be https to a public address. The secret is shown only in this response.',
    tag: 'Webhooks',
    auth: 'webhooks:write',
    body: webhookCreateSchema,
    responses: {
      201: { description: 'the endpoint and its signing secret', schema: webhookCreatedSchema },
      400: error('VALIDATION_FAILED: url, events or description invalid, or too many endpoints'),
      403: error('PLAN_REQUIRED: webhooks need the Business plan or above'),
    },
  },
  delete: {
    method: 'delete',
    path: '/v1/webhooks/{id}',
    summary: 'Delete a webhook endpoint and its pending deliveries',
    tag: 'Webhooks',
    auth: 'webhooks:write',
    params: idParamsSchema,
    responses: {
      200: { description: 'the deleted endpoint', schema: webhookSchema },
      403: error('PLAN_REQUIRED'),
      404: error('NOT_FOUND'),
    },
  },
} satisfies Record<string, Operation>;

export function webhookRoutes(
  webhooks: WebhookService,
  guards: Guards,
  defaultPageSize: number,
): Router {
  const router = Router();
  const ops = webhookOperations;

  mount(router, guards, ops.list, async (req, res) => {
    const a = auth(res);
    const q = parseWith(pageQuerySchema, req.query);
    res.json(
      await webhooks.list(a.organization, a.mode, {
        cursor: q.cursor,
        limit: q.limit ?? defaultPageSize,
      }),
    );
  });

  mount(router, guards, ops.create, async (req, res) => {
    const a = auth(res);
    webhooks.requirePlan(a.organization);
    const body = parseWith(webhookCreateSchema, req.body);
    res.status(201).json(await webhooks.create(a.organization, a.mode, body));
  });

  mount(router, guards, ops.delete, async (req, res) => {
    const a = auth(res);
    const { id } = parseWith(idParamsSchema, req.params);
    res.json(await webhooks.delete(a.organization, id, a.mode));
  });

  return router;
}
