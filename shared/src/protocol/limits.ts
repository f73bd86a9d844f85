/** The version of the agent protocol this code speaks; sent in `hello` and `welcome`. */
export const PROTOCOL_VERSION = 1;

/**
 * Size limits of the agent protocol. Both ends enforce them: the WebSocket's `maxPayload` is
 * `maxMessageBytes`, and every string field has a cap so that no single field can grow without
 * bound inside an allowed message.
 */
export const PROTOCOL_LIMITS = {
  /** Largest message on the wire, in bytes of UTF-8 JSON (8 MB). */
  maxMessageBytes: 8 * 1024 * 1024,
  /** Identifiers (job, device, printer, message ids). */
  maxIdChars: 128,
  /** Short strings: names, aliases, hostnames, versions, printer URIs, codepages. */
  maxFieldChars: 1024,
  /** Longer human-readable strings: errorMessage, close and error messages. */
  maxTextChars: 4096,
  /** Printers in one hello or inventory message. */
  maxPrinters: 256,
  /** Capabilities of one printer. */
  maxCapabilities: 64,
  /** Copies of one job. */
  maxCopies: 10,
  /** Attempts of one job (the contract's options.maxAttempts is 1 to 10). */
  maxAttempts: 10,
  /**
   * A job's delivery number (`job.dispatch`'s `delivery`): one more for each dispatch after the
   * job was given back; not bounded by maxAttempts (a job may move many times).
   */
  maxDelivery: 2_147_483_647,
  /** Templates in one configuration (the spec's 200 per organization). */
  maxTemplates: 200,
  /** Characters of one template's content (the spec's 2 MB per organization). */
  maxTemplateContentChars: 2 * 1024 * 1024,
  /** Entries of allowedOrigins, and characters of one. */
  maxAllowedOrigins: 50,
  maxOriginChars: 255,
  /** Active signing keys of an organization, and characters of one SPKI PEM public key. */
  maxSigningKeys: 100,
  maxPublicKeyChars: 1024,
  /** A local job's metadata and idempotency key (as POST /v1/jobs allows). */
  maxMetadataKeys: 50,
  maxMetadataKeyChars: 40,
  maxMetadataValueChars: 500,
  maxIdempotencyKeyChars: 255,
  /** State changes in one local job's history. */
  maxJobEvents: 100,
  /** Features an agent announces in `hello` (`job.withdraw`), and characters of one. */
  maxFeatures: 32,
  maxFeatureChars: 64,
  /** Printer groups in one configuration, and members of one group (the contract's 1 to 20). */
  maxPrinterGroups: 100,
  maxGroupMembers: 20,
  /** Allowed range of the heartbeat interval the cloud asks for. */
  minHeartbeatIntervalMs: 1000,
  maxHeartbeatIntervalMs: 300_000,
} as const;

/** WebSocket close codes of the agent protocol (4000-4999 is the application range). */
export const AGENT_CLOSE_CODES = {
  /** A message was malformed or oversized too often; the agent reconnects after a backoff. */
  PROTOCOL_ERROR: 4400,
  /** The device token is unknown or revoked; the agent stops retrying. */
  UNAUTHORIZED: 4401,
  /** The device was deleted in the dashboard; the agent stops retrying. */
  DEVICE_DELETED: 4404,
  /** Another connection with the same device token took over; this agent stops retrying. */
  REPLACED: 4409,
  /** The cloud does not speak this protocol version; the agent stops retrying. */
  UNSUPPORTED_VERSION: 4426,
} as const;

const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  AGENT_CLOSE_CODES.UNAUTHORIZED,
  AGENT_CLOSE_CODES.DEVICE_DELETED,
  AGENT_CLOSE_CODES.REPLACED,
  AGENT_CLOSE_CODES.UNSUPPORTED_VERSION,
]);

/** Whether an agent must stop reconnecting after the socket closed with this code. */
export function isFatalCloseCode(code: number): boolean {
  return FATAL_CLOSE_CODES.has(code);
}
