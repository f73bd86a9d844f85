/**
 * The spec's event names and how bus events map to them. Job state changes: queued → job.queued,
 * printed → job.printed, failed → job.failed, cancelled → job.cancelled (other states send
 * nothing). Device and printer events keep their names; they carry no mode and go to the
 * endpoints of both modes (test keys see real printers too, ../shared/CONTRACT.md).
 */
import type { BusEvent } from '../cache/types.js';
import type { Mode } from '../storage/types.js';

export const WEBHOOK_EVENTS = [
  'job.queued',
  'job.printed',
  'job.failed',
  'job.cancelled',
  'printer.online',
  'printer.offline',
  'printer.paper_out',
  'printer.error',
  'device.online',
  'device.offline',
  'device.activated',
  'alert.opened',
  'alert.resolved',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export interface MappedEvent {
  type: WebhookEventType;
  organizationId: string;
  /** Undefined: both modes' endpoints receive it. */
  mode: Mode | undefined;
  data: Record<string, unknown>;
}

const JOB_STATES: Record<string, WebhookEventType> = {
  queued: 'job.queued',
  printed: 'job.printed',
  failed: 'job.failed',
  cancelled: 'job.cancelled',
};

/** The webhook event a bus event is, or null (not every bus event is one). */
export function toWebhookEvent(event: BusEvent): MappedEvent | null {
  switch (event.type) {
    case 'job.state_changed': {
      const type = JOB_STATES[event.state];
      if (!type) return null;
      return {
        type,
        organizationId: event.organizationId,
        mode: event.mode,
        data: { job: event.job },
      };
    }
    case 'device.activated':
    case 'device.online':
    case 'device.offline':
      return {
        type: event.type,
        organizationId: event.organizationId,
        mode: undefined,
        data: { device: event.resource },
      };
    case 'printer.online':
    case 'printer.offline':
    case 'printer.paper_out':
    case 'printer.error':
      return {
        type: event.type,
        organizationId: event.organizationId,
        mode: undefined,
        data: { printer: event.resource },
      };
    default:
      return null;
  }
}

/** The envelope, serialised once: the stored body is sent as is on every attempt. */
export function envelope(
  id: string,
  type: string,
  createdAtMs: number,
  organizationId: string,
  data: Record<string, unknown>,
): string {
  return JSON.stringify({
    id,
    type,
    createdAt: new Date(createdAtMs).toISOString(),
    organizationId,
    data,
  });
}
