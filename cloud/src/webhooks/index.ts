/** Signed webhooks: endpoints, durable deliveries and their worker, the /v1/webhooks routes. */
export { WEBHOOK_EVENTS, announcesWebhookEvent, type WebhookEventType } from './events.js';
export { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from './options.js';
export { webhookOperations, webhookRoutes } from './routes.js';
export {
  WebhookService,
  deliveriesFor,
  presentWebhook,
  presentDelivery,
  newSecret,
} from './service.js';
export { nonPublicReason, urlProblem } from './url-guard.js';
export { DeliveryWorker } from './worker.js';
export { AlertService, ALERT_KINDS, ALERT_CHANNELS, presentAlert, presentRule } from './alerts.js';
export { webhookDashboardOperations, webhookDashboardRoutes } from './dashboard-routes.js';
