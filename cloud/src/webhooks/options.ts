/** Every webhook limit and delay, with its default. */
export interface WebhookOptions {
  /** Outside production: http and non-public addresses allowed (an explicit flag, config.production). */
  allowPrivate: boolean;
  maxUrlLength: number;
  /** Endpoints per organization. Default 20. */
  maxEndpointsPerOrganization: number;
  /** A 2xx must arrive within this many ms. Default 10,000 (spec). */
  timeoutMs: number;
  /** Waits before the retries (spec: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h). */
  retryDelaysMs: number[];
  /** An endpoint with no success for this long is disabled. Default 3 days (spec). */
  disableAfterMs: number;
  /** Attempts in flight at once, over all endpoints. Default 64. */
  maxConcurrent: number;
  /** Attempts in flight at once to one endpoint. Default 4. */
  maxConcurrentPerEndpoint: number;
  /** How often the worker looks for due deliveries when not nudged. Default 1 s. */
  pollIntervalMs: number;
  /** Due deliveries read per look, and outbox events turned into deliveries per transaction. Default 200. */
  batchSize: number;
  /**
   * How often the intake looks at the outbox when no bus event announced a change (a lost bus
   * message, another instance's crash). Default 1 s.
   */
  outboxIntervalMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  allowPrivate: false,
  maxUrlLength: 2048,
  maxEndpointsPerOrganization: 20,
  timeoutMs: 10_000,
  retryDelaysMs: [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR],
  disableAfterMs: 3 * 24 * HOUR,
  maxConcurrent: 64,
  maxConcurrentPerEndpoint: 4,
  pollIntervalMs: 1000,
  batchSize: 200,
  outboxIntervalMs: 1000,
};
