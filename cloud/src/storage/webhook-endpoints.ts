/**
 * A webhook endpoint as the store returns it, shared by the endpoints' repository (webhooks.ts)
 * and the outbox's fan-out (webhook-outbox.ts).
 */
import type { WebhookEndpointsTable } from './schema.js';
import type { Mode } from './types.js';

export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  mode: Mode;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

export function toEndpoint(row: WebhookEndpointsTable): WebhookEndpoint {
  return {
    ...row,
    mode: row.mode as Mode,
    events: JSON.parse(row.events) as string[],
    enabled: row.enabled === 1,
  };
}
