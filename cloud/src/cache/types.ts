/**
 * The cache store and the event bus: in-process for one instance, Redis for several. Rate-limit
 * buckets live in the cache; every job state change is published on the bus (the webhooks issue
 * subscribes to it).
 */
import type { Job, Mode } from '../storage/types.js';

export interface TokenBucketOptions {
  /** Most tokens the bucket holds (the burst). */
  capacity: number;
  /** Tokens added per second. */
  refillPerSecond: number;
  /** Epoch milliseconds from the injected clock. */
  now: number;
}

export interface TokenBucketResult {
  allowed: boolean;
  /** Tokens left after this request. */
  remaining: number;
  /** When refused: milliseconds until one token is back. */
  retryAfterMs: number;
}

export interface CacheStore {
  /** Takes one token from the bucket named `key` (created full). */
  takeToken(key: string, options: TokenBucketOptions): Promise<TokenBucketResult>;
  /** Throws when the cache does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

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
  type:
    | 'device.activated'
    | 'device.online'
    | 'device.offline'
    | 'printer.online'
    | 'printer.offline'
    | 'printer.paper_out'
    | 'printer.error';
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

export type BusEvent = JobStateChanged | InventoryChanged | GatewaySignal;

export interface EventBus {
  publish(event: BusEvent): Promise<void>;
  /** Calls `handler` for every event published by any instance; returns the unsubscribe. */
  subscribe(handler: (event: BusEvent) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Pure token-bucket arithmetic, shared by the in-process store and the Redis script's tests. */
export function refill(
  state: { tokens: number; updatedAt: number } | undefined,
  options: TokenBucketOptions,
): { tokens: number; updatedAt: number } {
  if (!state) return { tokens: options.capacity, updatedAt: options.now };
  const elapsed = Math.max(0, options.now - state.updatedAt) / 1000;
  return {
    tokens: Math.min(options.capacity, state.tokens + elapsed * options.refillPerSecond),
    updatedAt: Math.max(state.updatedAt, options.now),
  };
}
