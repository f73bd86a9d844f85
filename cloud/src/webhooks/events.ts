/**
 * The spec's event names, how an outbox event becomes its envelope, and which bus events tell the
 * intake that new outbox events were committed. Job state changes: queued → job.queued, printed →
 * job.printed, failed → job.failed, cancelled → job.cancelled (other states send nothing); they
 * go to the endpoints of the job's mode. Device and printer events keep their names and go to the
 * endpoints of their mode: a real agent's device and printers are live, the sandbox device and its
 * virtual printers are test. Alerts go to the endpoints of both modes.
 */
import type { BusEvent } from '../bus/events.js';
import { presentDevice, presentJob, presentPrinter } from '../resources/present.js';
import { JOB_STATE_EVENTS, type OutboxEvent } from '../storage/webhook-outbox.js';
import { presentAlert } from '../alerts/service.js';

export { WEBHOOK_EVENTS, type WebhookEventType } from '@printwire/shared/contracts/webhook-events';

/**
 * True when the bus event announces a change that may have written outbox events (the intake
 * then looks at once instead of at its next timer).
 */
export function announcesWebhookEvent(event: BusEvent): boolean {
  switch (event.type) {
    case 'job.state_changed':
      return JOB_STATE_EVENTS[event.state] !== undefined;
    case 'gateway.signal':
    case 'alerts.rules_changed':
    case 'agents.config_changed':
      return false;
    default:
      return true;
  }
}

/** The envelope's `data`: the stored record as the /v1 GET endpoint shows it. */
export function presentData(data: OutboxEvent['data']): Record<string, unknown> {
  if ('job' in data) {
    const { events: _events, ...job } = presentJob(data.job);
    return { job };
  }
  if ('device' in data) return { device: presentDevice(data.device) };
  if ('printer' in data) return { printer: presentPrinter(data.printer) };
  return { alert: presentAlert(data.alert) };
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
