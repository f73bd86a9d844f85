/**
 * The database tables as Kysely sees them (camelCase here, snake_case in SQL through the
 * CamelCasePlugin). Timestamps are epoch milliseconds (bigint), booleans are 0/1 integers and
 * JSON is text, so that SQLite and PostgreSQL return the same values to the same code.
 */
import type { ColumnType, Generated } from 'kysely';

export interface OrganizationsTable {
  id: string;
  name: string;
  plan: string;
  locale: string;
  retentionDays: number;
  requireSignature: number;
  unsignedModeEnabled: number;
  devModeEnabled: number;
  /** 1: local jobs may download from the shop's network (private addresses). */
  localDownloadsToPrivateNetwork: number;
  /** Free-form JSON settings the dashboard issue adds to. */
  settings: string;
  /** JSON array of exact origins (local mode). */
  allowedOrigins: string;
  createdAt: number;
  updatedAt: number;
}

export interface SigningKeysTable {
  id: string;
  organizationId: string;
  name: string;
  algorithm: string;
  /** SPKI PEM. */
  publicKey: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  emailVerifiedAt: number | null;
  createdAt: number;
}

export interface MembershipsTable {
  organizationId: string;
  userId: string;
  role: string;
  createdAt: number;
}

export interface ApiKeysTable {
  id: string;
  organizationId: string;
  name: string;
  mode: string;
  /** The first characters of the key, shown in the dashboard (`pw_live_AbCd…`). */
  prefix: string;
  /** SHA-256 of the whole key, hex. */
  keyHash: string;
  /** JSON array of scopes. */
  scopes: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface DevicesTable {
  id: string;
  organizationId: string;
  name: string;
  groupId: string | null;
  os: string;
  arch: string;
  agentVersion: string;
  status: string;
  activated: number;
  /** 1 for the organization's sandbox device, seen by test keys only. */
  sandbox: number;
  /** SHA-256 of the device token (the agent issue issues them). */
  tokenHash: string | null;
  lastSeenAt: number | null;
  createdAt: number;
}

export interface PrintersTable {
  id: string;
  organizationId: string;
  deviceId: string;
  agentPrinterId: string;
  name: string;
  alias: string | null;
  connection: string;
  kind: string;
  paper: string | null;
  codepage: string | null;
  /** Printer profile id (`generic-80mm`) used to encode receipts for it. */
  profile: string | null;
  /** JSON array of strings. */
  capabilities: string;
  isDefault: number;
  status: string;
  sandbox: number;
  lastStatusAt: number | null;
  createdAt: number;
  /** JSON: what the dashboard set (PrinterSettings); '{}' by default. */
  settings: Generated<string>;
  /** JSON: how its agent reaches it (the protocol's PrinterReach); null when not reported. */
  reach: string | null;
}

export interface JobsTable {
  id: string;
  organizationId: string;
  mode: string;
  idempotencyKey: string | null;
  deviceId: string | null;
  printerId: string | null;
  source: string;
  type: string;
  encoding: string;
  templateId: string | null;
  state: string;
  attempt: number;
  maxAttempts: number;
  errorCode: string | null;
  errorMessage: string | null;
  /** JSON object of string pairs (also in job_metadata for filtering). */
  metadata: string;
  /** JSON object: copies, cut, openDrawer, codepage, paper, footer. */
  options: string;
  contentRetained: number;
  hasPreview: number;
  createdAt: number;
  updatedAt: number;
  dispatchedAt: number | null;
  printedAt: number | null;
  expiresAt: number | null;
  finishedAt: number | null;
  /** When the sweeper deletes the content (set when the job finishes). */
  contentExpiresAt: number | null;
  /** The printer group the job named (its printerId is the member that has it now). */
  printerGroupId: string | null;
  /** JSON array of the printer ids the job was moved from, oldest first. */
  movedFrom: Generated<string>;
  /** How many times the cloud dispatched the job to an agent (the protocol's `delivery`). */
  deliveries: Generated<number>;
}

export interface JobContentsTable {
  jobId: string;
  organizationId: string;
  /** The job's content as stored: receipt JSON, text, or decoded bytes; a URL for `url`. */
  content: Buffer;
  /** The preview PNG, drawn on first request. */
  preview: Buffer | null;
}

export interface JobEventsTable {
  id: Generated<number>;
  jobId: string;
  organizationId: string;
  state: string;
  errorCode: string | null;
  errorMessage: string | null;
  /** The member a printer-group job moved to (its move's `queued` event); null otherwise. */
  printerId: ColumnType<string | null, string | null | undefined, never>;
  at: number;
}

export interface JobMetadataTable {
  jobId: string;
  organizationId: string;
  key: string;
  value: string;
}

export interface IdempotencyKeysTable {
  organizationId: string;
  mode: string;
  key: string;
  jobId: string;
  createdAt: number;
}

export interface PrinterGroupsTable {
  id: string;
  organizationId: string;
  name: string;
  strategy: string;
  /** Round-robin's cursor: the member that took the group's last job. */
  lastPrinterId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface PrinterGroupMembersTable {
  groupId: string;
  organizationId: string;
  /** 0-based order in the group. */
  position: number;
  printerId: string;
}

export interface TemplatesTable {
  id: string;
  organizationId: string;
  name: string;
  type: string;
  content: string;
  paper: string | null;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface ActivationCodesTable {
  id: string;
  organizationId: string;
  codeHash: string;
  name: string | null;
  expiresAt: number;
  usedAt: number | null;
  deviceId: string | null;
  createdAt: number;
}

export interface UsageCountersTable {
  organizationId: string;
  /** Calendar month in UTC, `2026-11`. */
  period: string;
  liveJobs: number;
}

/** A user's dashboard settings and two-factor state (migration 0002; absent row: defaults). */
export interface UserProfilesTable {
  userId: string;
  locale: string;
  totpSecret: string | null;
  totpEnabledAt: number | null;
  /** The last TOTP time step accepted: a code is accepted once. */
  totpLastStep: number | null;
}

export interface UserTokensTable {
  tokenHash: string;
  userId: string;
  /** verify-email, reset-password, 2fa-setup, login-challenge. */
  kind: string;
  data: string | null;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface SessionsTable {
  id: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export interface SessionTokensTable {
  tokenHash: string;
  sessionId: string;
  /** access or refresh. */
  kind: string;
  expiresAt: number;
  usedAt: number | null;
}

export interface RecoveryCodesTable {
  userId: string;
  codeHash: string;
  usedAt: number | null;
}

export interface InvitationsTable {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  invitedBy: string;
  tokenHash: string;
  expiresAt: number;
  acceptedAt: number | null;
  revokedAt: number | null;
  createdAt: number;
}

/** A webhook endpoint (migration 0004). `secret` is stored as is: it must sign. */
export interface WebhookEndpointsTable {
  id: string;
  organizationId: string;
  mode: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  description: string | null;
  secret: string;
  enabled: number;
  disabledReason: string | null;
  /** First failed attempt since the last success; null while healthy. */
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

/** One event for one endpoint; the rows are the delivery queue (migration 0004). */
export interface WebhookDeliveriesTable {
  id: string;
  endpointId: string;
  organizationId: string;
  eventId: string;
  eventType: string;
  body: string;
  state: string;
  attempts: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  createdAt: number;
}

/**
 * A webhook event written in the transaction of the change it announces; the intake turns it into
 * deliveries and deletes it (migration 0005).
 */
export interface WebhookOutboxTable {
  /** The event id (`evt_…`): the envelope's id and Printwire-Event-Id. */
  id: string;
  organizationId: string;
  /** live or test; null: the endpoints of both modes. */
  mode: string | null;
  eventType: string;
  /** JSON `{ job }`, `{ device }`, `{ printer }` or `{ alert }`: the stored record after the change. */
  data: string;
  createdAt: number;
}

/**
 * An e-mail written in the transaction of the change it follows; the mail sender sends it and
 * deletes it, or retries it with backoff (migration 0006).
 */
export interface MailOutboxTable {
  /** `mail_…` */
  id: string;
  /** Null for an account e-mail (verification, password reset) (migration 0007). */
  organizationId: string | null;
  recipient: string;
  subject: string;
  text: string;
  /** The HTML part, when the message has one (migration 0007). */
  html: string | null;
  /** Attempts started: a sender's claim counts one. */
  attempts: number;
  /** Due at; a claim moves it to the end of the sender's lease. */
  nextAttemptAt: number;
  /**
   * When sending it stops making sense (the link it carries expires then): an unsent message is
   * dropped instead (migration 0007). Null: never.
   */
  expiresAt: number | null;
  createdAt: number;
  /** The last failure's message. */
  lastError: string | null;
}

/** An alert rule of an organization (migration 0004). */
export interface AlertRulesTable {
  id: string;
  organizationId: string;
  /** device_offline, printer_offline, paper_out or failure_rate. */
  kind: string;
  /** JSON array: webhook, email. */
  channels: string;
  thresholdPercent: number | null;
  windowMinutes: number | null;
  minJobs: number | null;
  createdAt: number;
}

/** An alert: open while its condition holds (migration 0004). */
export interface AlertsTable {
  id: string;
  organizationId: string;
  ruleId: string;
  kind: string;
  /** The device or printer id; the organization id for failure_rate. */
  subjectId: string;
  state: string;
  /** JSON: what the condition saw. */
  details: string;
  openedAt: number;
  resolvedAt: number | null;
}

/** A printer that polls the cloud itself (Star CloudPRNT, Epson SDP). */
export interface CloudPrintersTable {
  printerId: string;
  organizationId: string;
  deviceId: string;
  /** cloudprnt | sdp */
  protocol: string;
  /** SHA-256 of the secret in the printer's address. */
  secretHash: string;
  lastPollAt: number | null;
  /** What a CloudPRNT printer answered to ClientType and Encodings. */
  clientType: string | null;
  encodings: string | null;
  createdAt: number;
}

/** A job handed to one poll of a cloud printer. */
export interface CloudHandoversTable {
  jobId: string;
  organizationId: string;
  printerId: string;
  /** CloudPRNT jobToken, SDP printjobid. */
  token: string;
  pollId: string;
  handedAt: number;
  /** 1 while unconfirmed, null after (one open hand-over per printer). */
  open: number | null;
  confirmedAt: number | null;
  /** printed | failed | unconfirmed */
  outcome: string | null;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  apiKeys: ApiKeysTable;
  signingKeys: SigningKeysTable;
  devices: DevicesTable;
  printers: PrintersTable;
  printerGroups: PrinterGroupsTable;
  printerGroupMembers: PrinterGroupMembersTable;
  jobs: JobsTable;
  jobContents: JobContentsTable;
  jobEvents: JobEventsTable;
  jobMetadata: JobMetadataTable;
  idempotencyKeys: IdempotencyKeysTable;
  templates: TemplatesTable;
  activationCodes: ActivationCodesTable;
  usageCounters: UsageCountersTable;
  webhookEndpoints: WebhookEndpointsTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookOutbox: WebhookOutboxTable;
  mailOutbox: MailOutboxTable;
  alertRules: AlertRulesTable;
  alerts: AlertsTable;
  userProfiles: UserProfilesTable;
  userTokens: UserTokensTable;
  sessions: SessionsTable;
  sessionTokens: SessionTokensTable;
  recoveryCodes: RecoveryCodesTable;
  invitations: InvitationsTable;
  cloudPrinters: CloudPrintersTable;
  cloudHandovers: CloudHandoversTable;
}
