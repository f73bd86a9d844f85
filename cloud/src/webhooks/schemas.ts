/** zod schemas of the webhook endpoints (they feed /openapi.json and docs/api.md). */
import { z } from 'zod';
import { WEBHOOK_EVENTS } from './events.js';

const eventList = z
  .array(
    z.enum(WEBHOOK_EVENTS, {
      error: `must be one of ${WEBHOOK_EVENTS.join(', ')} (webhook.test cannot be subscribed to)`,
    }),
  )
  .min(1)
  .max(WEBHOOK_EVENTS.length * 2);

export const webhookCreateSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  events: eventList,
  description: z.string().max(500).nullable().optional(),
});

export const webhookUpdateSchema = z.strictObject({
  url: z.string().min(1).max(2048).optional(),
  events: eventList.optional(),
  description: z.string().max(500).nullable().optional(),
  enabled: z.boolean().optional(),
});

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });

export const webhookCreatedSchema = z.object({
  webhook: webhookSchema,
  secret: z.string().meta({ description: 'whsec_…, shown only in this response' }),
});

export const deliverySchema = z
  .object({
    id: z.string(),
    eventId: z.string(),
    type: z.string(),
    state: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number(),
    responseStatus: z.number().nullable(),
    durationMs: z.number().nullable(),
    error: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
    body: z.string().meta({ description: 'the JSON body sent, exactly as signed' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const pageQuerySchema = z.object({
  cursor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'nextCursor of the previous page' }),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, { error: 'must be a whole number 1-100' })
    .transform(Number)
    .pipe(z.int().min(1, { error: 'must be 1-100' }).max(100, { error: 'must be 1-100' }))
    .optional()
    .meta({ description: 'page size, 1-100, default 25' }),
});
