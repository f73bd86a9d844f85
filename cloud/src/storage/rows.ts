/** Row → record conversions, shared by the repositories. */
import type { Selectable } from 'kysely';
import type {
  ApiKeysTable,
  DevicesTable,
  JobEventsTable,
  JobsTable,
  OrganizationsTable,
  PrintersTable,
  TemplatesTable,
  UsersTable,
} from './schema.js';
import type {
  ApiKey,
  Device,
  Job,
  JobEvent,
  JobState,
  Mode,
  Organization,
  Plan,
  Printer,
  PrinterReach,
  PrinterSettings,
  Scope,
  Template,
  User,
} from './types.js';

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A nullable BIGINT column (PostgreSQL answers it as a string) as a number or null. */
export const nullableNumber = (v: number | null): number | null => (v === null ? null : Number(v));

export function toOrganization(row: Selectable<OrganizationsTable>): Organization {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as Plan,
    locale: row.locale,
    retentionDays: Number(row.retentionDays),
    requireSignature: Number(row.requireSignature) === 1,
    unsignedModeEnabled: Number(row.unsignedModeEnabled) === 1,
    devModeEnabled: Number(row.devModeEnabled) === 1,
    localDownloadsToPrivateNetwork: Number(row.localDownloadsToPrivateNetwork) === 1,
    allowedOrigins: parseJson<string[]>(row.allowedOrigins, []),
    settings: parseJson(row.settings, {}),
    createdAt: Number(row.createdAt),
  };
}

export function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    emailVerifiedAt: row.emailVerifiedAt === null ? null : Number(row.emailVerifiedAt),
    createdAt: Number(row.createdAt),
  };
}

export function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    mode: row.mode as Mode,
    prefix: row.prefix,
    scopes: parseJson<Scope[]>(row.scopes, []),
    createdAt: Number(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : Number(row.lastUsedAt),
    revokedAt: row.revokedAt === null ? null : Number(row.revokedAt),
  };
}

export function toDevice(row: Selectable<DevicesTable>): Device {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    groupId: row.groupId,
    os: row.os,
    arch: row.arch,
    agentVersion: row.agentVersion,
    status: row.status,
    activated: Number(row.activated) === 1,
    sandbox: Number(row.sandbox) === 1,
    lastSeenAt: row.lastSeenAt === null ? null : Number(row.lastSeenAt),
    createdAt: Number(row.createdAt),
  };
}

/** A printer row; `settings` may be absent from a row built in code (a new printer: none). */
export type PrinterRow = Omit<Selectable<PrintersTable>, 'settings' | 'reach'> & {
  settings?: string;
  reach?: string | null;
};

export function toPrinter(row: PrinterRow): Printer {
  return {
    id: row.id,
    organizationId: row.organizationId,
    deviceId: row.deviceId,
    agentPrinterId: row.agentPrinterId,
    name: row.name,
    alias: row.alias,
    connection: row.connection,
    kind: row.kind,
    paper: row.paper,
    codepage: row.codepage,
    profile: row.profile,
    capabilities: parseJson<string[]>(row.capabilities, []),
    isDefault: Number(row.isDefault) === 1,
    status: row.status,
    sandbox: Number(row.sandbox) === 1,
    lastStatusAt: row.lastStatusAt === null ? null : Number(row.lastStatusAt),
    createdAt: Number(row.createdAt),
    settings: parseJson<PrinterSettings>(row.settings ?? '{}', {}),
    reach: row.reach ? parseJson<PrinterReach | null>(row.reach, null) : null,
  };
}

const n = (v: number | null): number | null => (v === null ? null : Number(v));

export function toJob(row: Selectable<JobsTable>): Job {
  return {
    id: row.id,
    organizationId: row.organizationId,
    mode: row.mode as Mode,
    idempotencyKey: row.idempotencyKey,
    deviceId: row.deviceId,
    printerId: row.printerId,
    source: row.source as 'cloud' | 'local',
    type: row.type,
    encoding: row.encoding,
    templateId: row.templateId,
    state: row.state as JobState,
    attempt: Number(row.attempt),
    maxAttempts: Number(row.maxAttempts),
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    metadata: parseJson<Record<string, string>>(row.metadata, {}),
    options: parseJson<Record<string, unknown>>(row.options, {}),
    contentRetained: Number(row.contentRetained) === 1,
    hasPreview: Number(row.hasPreview) === 1,
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
    dispatchedAt: n(row.dispatchedAt),
    printedAt: n(row.printedAt),
    expiresAt: n(row.expiresAt),
    finishedAt: n(row.finishedAt),
    printerGroupId: row.printerGroupId ?? null,
    movedFrom: parseJson<string[]>(row.movedFrom, []),
    deliveries: Number(row.deliveries ?? 0),
  };
}

export function toJobEvent(row: Selectable<JobEventsTable>): JobEvent {
  return {
    state: row.state as JobState,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    ...(row.printerId ? { printerId: row.printerId } : {}),
    at: Number(row.at),
  };
}

export function toTemplate(row: Selectable<TemplatesTable>): Template {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    type: row.type as Template['type'],
    content: row.content,
    paper: row.paper,
    version: Number(row.version),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
  };
}

/** The columns job lists read (storage/jobs.ts LIST_COLUMNS). */
export type ListedJobRow = Omit<
  Selectable<JobsTable>,
  | 'organizationId'
  | 'encoding'
  | 'maxAttempts'
  | 'options'
  | 'finishedAt'
  | 'contentExpiresAt'
  | 'deliveries'
>;

/** A listed job: options and the columns lists do not read are left empty. */
export function toListedJob(row: ListedJobRow, organizationId: string): Job {
  return {
    id: row.id,
    organizationId,
    mode: row.mode as Mode,
    idempotencyKey: row.idempotencyKey,
    deviceId: row.deviceId,
    printerId: row.printerId,
    source: row.source as 'cloud' | 'local',
    type: row.type,
    encoding: '',
    templateId: row.templateId,
    state: row.state as JobState,
    attempt: Number(row.attempt),
    maxAttempts: 0,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    metadata: parseJson<Record<string, string>>(row.metadata, {}),
    options: {},
    contentRetained: Number(row.contentRetained) === 1,
    hasPreview: Number(row.hasPreview) === 1,
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
    dispatchedAt: n(row.dispatchedAt),
    printedAt: n(row.printedAt),
    expiresAt: n(row.expiresAt),
    finishedAt: null,
    printerGroupId: row.printerGroupId ?? null,
    movedFrom: parseJson<string[]>(row.movedFrom, []),
    deliveries: 0,
  };
}
