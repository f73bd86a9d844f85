/**
 * The cache store and the event bus: in-process for one instance, Redis for several. Rate-limit
 * buckets and failed-login throttles live in the cache; every job state change is published on
 * the bus (the webhooks issue subscribes to it).
 */
import type { Job, Mode } from '../storage/types.js';
import type { DeviceEventType, PrinterEventType } from '@printwire/shared/contracts/webhook-events';
import { backoffMs } from '@printwire/shared/time/backoff';

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

/** A failed-login throttle (Throttle in accounts/throttle.ts uses it). */
export interface ThrottleOptions {
  /** Failures allowed before any delay. */
  freeAttempts: number;
  /** Delay after the first counted failure; doubles per further failure. */
  baseDelayMs: number;
  /** Longest delay. */
  maxDelayMs: number;
  /** Keys remembered at most, oldest dropped (the in-process store; Redis expires keys instead). */
  maxKeys: number;
  /** A key quiet this long starts counting again from zero. */
  forgetAfterMs: number;
}

/** One throttle key: failures in a row and until when the next attempt must wait. */
export interface ThrottleState {
  failures: number;
  /** Epoch milliseconds; 0 when not blocked. */
  blockedUntil: number;
  lastFailureAt: number;
}

export interface CacheStore {
  /** Takes one token from the bucket named `key` (created full). */
  takeToken(key: string, options: TokenBucketOptions): Promise<TokenBucketResult>;
  /** Milliseconds until the throttle `key` may try again at `now`; 0 when it may now. */
  throttleWait(key: string, now: number): Promise<number>;
  /** Counts one failure of the throttle `key` at `now` (see `throttleFailure`). */
  throttleFail(key: string, options: ThrottleOptions, now: number): Promise<void>;
  /** Forgets the throttle `key` (a success). */
  throttleReset(key: string): Promise<void>;
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

/**
 * The delay a throttle imposes after its `failures`-th failure in a row: none for the first
 * `freeAttempts - 1`, then `baseDelayMs` doubled per failure, capped at `maxDelayMs`. The one
 * place this arithmetic lives: the in-process store calls it, the Redis store sends its values
 * to the script (`throttleDelays`).
 */
export function throttleDelayMs(failures: number, options: ThrottleOptions): number {
  const over = failures - options.freeAttempts + 1;
  if (over <= 0) return 0;
  return backoffMs(over - 1, { baseMs: options.baseDelayMs, maxMs: options.maxDelayMs });
}

/**
 * `throttleDelayMs` for 1, 2, … failures, up to the count from which the delay no longer changes
 * (the cap, or the exponent's limit): entry `i` is the delay after `i + 1` failures, and the last
 * entry holds for every count beyond.
 */
export function throttleDelays(options: ThrottleOptions): number[] {
  const delays: number[] = [];
  const last = Math.max(1, options.freeAttempts + 30);
  for (let failures = 1; failures <= last; failures++) {
    const delay = throttleDelayMs(failures, options);
    delays.push(delay);
    if (delay >= options.maxDelayMs) break;
  }
  return delays;
}

/** A throttle key after one more failure at `now`: pure, like `refill`. */
export function throttleFailure(
  state: ThrottleState | undefined,
  options: ThrottleOptions,
  now: number,
): ThrottleState {
  const fresh = !state || now - state.lastFailureAt >= options.forgetAfterMs;
  const failures = (fresh ? 0 : state.failures) + 1;
  const delay = throttleDelayMs(failures, options);
  const blockedUntil = delay > 0 ? now + delay : fresh ? 0 : state.blockedUntil;
  return { failures, blockedUntil, lastFailureAt: now };
}
