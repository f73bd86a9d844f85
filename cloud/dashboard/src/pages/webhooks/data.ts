/**
 * Webhook endpoints, their deliveries, alert rules and alerts: query keys and queries. Below the
 * Business plan every one answers 403 PLAN_REQUIRED (the page says so once).
 */
import { useQuery } from '@tanstack/react-query';
import { WEBHOOK_EVENTS } from '@printwire/shared/contracts/webhook-events';
import { ApiError, api, data } from '../../api/client';
import type { paths } from '../../api/schema';

export type WebhookEvent =
  paths['/orgs/{orgId}/webhooks']['post']['requestBody']['content']['application/json']['events'][number];
export type AlertRuleInput =
  paths['/orgs/{orgId}/alert-rules']['post']['requestBody']['content']['application/json'];

/** The events an endpoint can subscribe to (webhook.test goes to any endpoint when asked). */
export const EVENTS: WebhookEvent[] = [...WEBHOOK_EVENTS];

export const webhookKeys = {
  webhooks: (orgId: string) => ['orgs', orgId, 'webhooks'] as const,
  deliveries: (orgId: string, id: string) => ['orgs', orgId, 'webhooks', id, 'deliveries'] as const,
  rules: (orgId: string) => ['orgs', orgId, 'alerts', 'rules'] as const,
  alerts: (orgId: string) => ['orgs', orgId, 'alerts', 'list'] as const,
};

export const planRequired = (error: unknown): boolean =>
  error instanceof ApiError && error.code === 'PLAN_REQUIRED';

const org = (orgId: string) => ({ params: { path: { orgId } } });

export const useWebhooks = (orgId: string) =>
  useQuery({
    queryKey: webhookKeys.webhooks(orgId),
    queryFn: () =>
      data(
        api.GET('/orgs/{orgId}/webhooks', { params: { path: { orgId }, query: { limit: '100' } } }),
      ),
  });

/** Deliveries, asked again every second while one is waiting for its attempt or retry. */
export const useDeliveries = (orgId: string, id: string) =>
  useQuery({
    queryKey: webhookKeys.deliveries(orgId, id),
    queryFn: () =>
      data(
        api.GET('/orgs/{orgId}/webhooks/{id}/deliveries', {
          params: { path: { orgId, id }, query: { limit: '25' } },
        }),
      ),
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.state === 'pending') ? 1000 : false),
  });

export const useAlertRules = (orgId: string, enabled: boolean) =>
  useQuery({
    queryKey: webhookKeys.rules(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/alert-rules', org(orgId))),
    enabled,
  });

export const useAlerts = (orgId: string, enabled: boolean) =>
  useQuery({
    queryKey: webhookKeys.alerts(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/alerts', org(orgId))),
    enabled,
    refetchInterval: 30_000,
  });
