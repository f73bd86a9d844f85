/**
 * The webhook event names (the spec's), grouped by what they are about, and which printer status
 * raises which printer event. The cloud's intake and subscriptions and the dashboard's endpoint
 * form take them from here. `webhook.test` is sent on request only and cannot be subscribed to.
 */
import type { PrinterStatus } from './printer-status.js';

export const JOB_EVENTS = ['job.queued', 'job.printed', 'job.failed', 'job.cancelled'] as const;
export const PRINTER_EVENTS = [
  'printer.online',
  'printer.offline',
  'printer.paper_out',
  'printer.error',
] as const;
export const DEVICE_EVENTS = ['device.online', 'device.offline', 'device.activated'] as const;
export const ALERT_EVENTS = ['alert.opened', 'alert.resolved'] as const;

/** Every event an endpoint can subscribe to, in the order the API documents them. */
export const WEBHOOK_EVENTS = [
  ...JOB_EVENTS,
  ...PRINTER_EVENTS,
  ...DEVICE_EVENTS,
  ...ALERT_EVENTS,
] as const;

export type JobEventType = (typeof JOB_EVENTS)[number];
export type PrinterEventType = (typeof PRINTER_EVENTS)[number];
export type DeviceEventType = (typeof DEVICE_EVENTS)[number];
export type AlertEventType = (typeof ALERT_EVENTS)[number];
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The webhook (and bus) event a printer status raises; `unknown` raises none. */
export function printerEventType(status: PrinterStatus | string): PrinterEventType | undefined {
  switch (status) {
    case 'online':
      return 'printer.online';
    case 'offline':
      return 'printer.offline';
    case 'paper_out':
      return 'printer.paper_out';
    case 'cover_open':
    case 'error':
      return 'printer.error';
    default:
      return undefined;
  }
}
