/**
 * The event bus: what one instance tells every instance (in-process for one instance, Redis for
 * several). Every job state change, device and printer change, gateway signal and configuration
 * change is published here; the dispatcher, the gateway, the webhooks, the alerts and the
 * dashboard's live channel subscribe.
 */
import type { Job, Mode } from '../storage/types.js';
import type { DeviceEventType, PrinterEventType } from '@printwire/shared/contracts/webhook-events';

/** A job's state changed (created jobs included: state `queued`). */
export interface JobStateChanged {
  type: 'job.state_changed';
  organizationId: string;
  mode: Mode;
  jobId: string;
  state: Job['state'];
  errorCode: string | null;
  /** ISO 8601. */
  at: string;
  /** The job after the change, as GET /v1/jobs/{id} shows it (without events). */
  job: Record<string, unknown>;
}

/** A device or one of its printers changed (the spec's device.* and printer.* events). */
export interface InventoryChanged {
  type: DeviceEventType | PrinterEventType;
  organizationId: string;
  deviceId: string;
  printerId: string | null;
  /** ISO 8601. */
  at: string;
  /** The device or printer after the change, as GET /v1/devices|printers/{id} shows it. */
  resource: Record<string, unknown>;
  /** Absent: lets code written for job events read these on any event. */
  jobId?: undefined;
  state?: undefined;
  mode?: undefined;
  errorCode?: undefined;
}

/**
 * Between gateway instances: the instance holding a device's WebSocket acts on it (a device
 * connected elsewhere: close this older socket; a token revoked: close with 4401).
 */
export interface GatewaySignal {
  type: 'gateway.signal';
  action: 'connected' | 'revoked';
  organizationId: string;
  deviceId: string;
  /** The instance-unique id of the connection that sent `connected`. */
  connectionId?: string;
  jobId?: undefined;
  state?: undefined;
  mode?: undefined;
  errorCode?: undefined;
}

/**
 * An organization's failure-rate rules changed on some instance: every instance checks them
 * again, so each one times them (not only the instance that served the change).
 */
export interface AlertRulesChanged {
  type: 'alerts.rules_changed';
  organizationId: string;
  jobId?: undefined;
  state?: undefined;
  mode?: undefined;
  errorCode?: undefined;
}

/**
 * What an organization's agents are configured with changed (templates, signing keys, allowed
 * origins, local-mode settings): every instance sends `config` to the organization's agents
 * whose sockets it holds.
 */
export interface AgentConfigChanged {
  type: 'agents.config_changed';
  organizationId: string;
  jobId?: undefined;
  state?: undefined;
  mode?: undefined;
  errorCode?: undefined;
}

export type BusEvent =
  JobStateChanged | InventoryChanged | GatewaySignal | AlertRulesChanged | AgentConfigChanged;

export interface EventBus {
  publish(event: BusEvent): Promise<void>;
  /** Calls `handler` for every event published by any instance; returns the unsubscribe. */
  subscribe(handler: (event: BusEvent) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
