/** The records storage returns: plain values, timestamps in epoch milliseconds. */
import type { PrinterReach } from '@printwire/shared/protocol/index';

export type { PrinterReach };

export type Mode = 'live' | 'test';
export const JOB_STATES = ['queued', 'sending', 'printed', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINISHED_STATES: readonly JobState[] = ['printed', 'failed', 'cancelled'];

export const PLANS = ['free', 'starter', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const SCOPES = [
  'jobs:write',
  'jobs:read',
  'printers:read',
  'devices:read',
  'devices:write',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  locale: string;
  retentionDays: number;
  requireSignature: boolean;
  unsignedModeEnabled: boolean;
  devModeEnabled: boolean;
  /** Local jobs may make the agent download from the shop's network (private addresses). */
  localDownloadsToPrivateNetwork: boolean;
  /** Exact origins whose unsigned local requests print (local mode). */
  allowedOrigins: string[];
  settings: Record<string, unknown>;
  createdAt: number;
}

export interface User {
  id: string;
  email: string;
  name: string;
  emailVerifiedAt: number | null;
  createdAt: number;
}

export interface ApiKey {
  id: string;
  organizationId: string;
  name: string;
  mode: Mode;
  prefix: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** An Ed25519 key pair's public half; the private key is shown once and never stored. */
export interface SigningKey {
  id: string;
  organizationId: string;
  name: string;
  algorithm: 'Ed25519';
  /** SPKI PEM. */
  publicKey: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface Device {
  id: string;
  organizationId: string;
  name: string;
  groupId: string | null;
  os: string;
  arch: string;
  agentVersion: string;
  status: string;
  activated: boolean;
  sandbox: boolean;
  lastSeenAt: number | null;
  createdAt: number;
}

export interface Printer {
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
  profile: string | null;
  capabilities: string[];
  isDefault: boolean;
  status: string;
  sandbox: boolean;
  lastStatusAt: number | null;
  createdAt: number;
  /** What the dashboard set on the printer (its alias and default win over the agent's). */
  settings: PrinterSettings;
  /** How its agent reaches it (address and port, USB ids, serial port, queue); null: not reported. */
  reach: PrinterReach | null;
}

/**
 * A printer's settings made in the dashboard. `alias` and `isDefault`, when present, replace
 * what the agent reports; paper, codepage and cut are the defaults pushed to the agent.
 */
export interface PrinterSettings {
  alias?: string | null;
  isDefault?: boolean;
  /** A receipt printer's 58mm or 80mm, a label printer's label size (4x6in, 100x150mm). */
  paper?: string;
  /** A label printer's dots per inch: 203, 300 or 600. */
  dpi?: number;
  codepage?: string;
  cut?: 'full' | 'partial' | 'none';
}

export interface JobEvent {
  state: JobState;
  errorCode: string | null;
  errorMessage: string | null;
  /** The member a printer-group job moved to (its move's `queued` event). */
  printerId?: string | null;
  at: number;
}

export interface Job {
  id: string;
  organizationId: string;
  mode: Mode;
  idempotencyKey: string | null;
  deviceId: string | null;
  printerId: string | null;
  source: 'cloud' | 'local';
  type: string;
  encoding: string;
  templateId: string | null;
  state: JobState;
  attempt: number;
  maxAttempts: number;
  errorCode: string | null;
  errorMessage: string | null;
  metadata: Record<string, string>;
  options: Record<string, unknown>;
  contentRetained: boolean;
  hasPreview: boolean;
  createdAt: number;
  updatedAt: number;
  dispatchedAt: number | null;
  printedAt: number | null;
  expiresAt: number | null;
  finishedAt: number | null;
  /** The printer group the job named, or null. */
  printerGroupId: string | null;
  /** The printers (members of its group) the job was moved from, oldest first. */
  movedFrom: string[];
  /**
   * How many times the cloud dispatched the job to an agent (queued, never sent → sending): the
   * protocol's `delivery`. `attempt` counts print attempts; a move raises this, not that.
   */
  deliveries: number;
  events?: JobEvent[];
}

export const GROUP_STRATEGIES = ['failover', 'round-robin'] as const;
export type GroupStrategy = (typeof GROUP_STRATEGIES)[number];

export interface PrinterGroup {
  id: string;
  organizationId: string;
  name: string;
  strategy: GroupStrategy;
  /** Member printer ids, in order. */
  printerIds: string[];
  /** Round-robin's cursor: the member that took the group's last job. */
  lastPrinterId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface Template {
  id: string;
  organizationId: string;
  name: string;
  type: 'zpl' | 'epl' | 'receipt' | 'html';
  content: string;
  paper: string | null;
  version: number;
  createdAt: number;
  updatedAt: number;
}

/** A page of a keyset-paginated list, newest first. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface PageQuery {
  cursor?: string | undefined;
  limit: number;
}
