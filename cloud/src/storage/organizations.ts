/**
 * Organizations, users, memberships, API keys, activation codes and usage counters.
 * Every method that reads or writes an organization's rows takes its id.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { newId } from '../lib/ids.js';
import type { WriteOptions } from './group-commit.js';
import { PreparedCache, slot } from './prepared.js';
import type { ApiKeysTable, Database } from './schema.js';
import { toApiKey, toOrganization, toUser } from './rows.js';
import type { ApiKey, Mode, Organization, Plan, Scope, User } from './types.js';

export type WriteFn = <T>(
  fn: (trx: Transaction<Database>) => Promise<T>,
  options?: WriteOptions,
) => Promise<T>;

/** A printer of the sandbox device, created with every organization. */
export interface SandboxPrinterSpec {
  agentPrinterId: string;
  name: string;
  alias: string;
  kind: string;
  paper: string | null;
  profile: string | null;
  capabilities: string[];
  status: string;
  isDefault: boolean;
}

export interface NewOrganization {
  name: string;
  plan?: Plan;
  locale?: string;
  retentionDays?: number;
}

export interface OrganizationPatch {
  name?: string;
  plan?: Plan;
  locale?: string;
  retentionDays?: number;
  requireSignature?: boolean;
  unsignedModeEnabled?: boolean;
  devModeEnabled?: boolean;
  allowedOrigins?: string[];
  localDownloadsToPrivateNetwork?: boolean;
}

/** Calendar month in UTC of a timestamp: the period of the monthly quota. */
export function usagePeriod(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

export class OrganizationsRepository {
  private readonly prepared = new PreparedCache();

  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
  ) {}

  /** Creates an organization with its sandbox device and virtual printers. */
  async create(
    input: NewOrganization,
    now: number,
    sandboxPrinters: readonly SandboxPrinterSpec[],
  ): Promise<Organization> {
    return this.write(async (trx) => {
      const id = newId('org', now);
      const row = {
        id,
        name: input.name,
        plan: input.plan ?? 'free',
        locale: input.locale ?? 'en',
        retentionDays: input.retentionDays ?? 7,
        requireSignature: 0,
        unsignedModeEnabled: 0,
        devModeEnabled: 0,
        localDownloadsToPrivateNetwork: 0,
        settings: '{}',
        allowedOrigins: '[]',
        createdAt: now,
        updatedAt: now,
      };
      await trx.insertInto('organizations').values(row).execute();
      const deviceId = newId('dev', now);
      await trx
        .insertInto('devices')
        .values({
          id: deviceId,
          organizationId: id,
          name: 'Sandbox',
          groupId: null,
          os: 'sandbox',
          arch: 'virtual',
          agentVersion: 'sandbox',
          status: 'online',
          activated: 1,
          sandbox: 1,
          tokenHash: null,
          lastSeenAt: now,
          createdAt: now,
        })
        .execute();
      for (const spec of sandboxPrinters) {
        await trx
          .insertInto('printers')
          .values({
            id: newId('prn', now),
            organizationId: id,
            deviceId,
            agentPrinterId: spec.agentPrinterId,
            name: spec.name,
            alias: spec.alias,
            connection: 'virtual',
            kind: spec.kind,
            paper: spec.paper,
            codepage: null,
            profile: spec.profile,
            capabilities: JSON.stringify(spec.capabilities),
            isDefault: spec.isDefault ? 1 : 0,
            status: spec.status,
            sandbox: 1,
            lastStatusAt: now,
            createdAt: now,
          })
          .execute();
      }
      return toOrganization(row);
    });
  }

  async get(organizationId: string): Promise<Organization | undefined> {
    const row = await this.read
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', organizationId)
      .executeTakeFirst();
    return row ? toOrganization(row) : undefined;
  }

  /** Returns the updated organization, or undefined when there is none with that id. */
  async update(
    organizationId: string,
    patch: OrganizationPatch,
    now: number,
  ): Promise<Organization | undefined> {
    return this.write(async (trx) => {
      const values: Record<string, unknown> = { updatedAt: now };
      if (patch.name !== undefined) values.name = patch.name;
      if (patch.plan !== undefined) values.plan = patch.plan;
      if (patch.locale !== undefined) values.locale = patch.locale;
      if (patch.retentionDays !== undefined) values.retentionDays = patch.retentionDays;
      if (patch.requireSignature !== undefined)
        values.requireSignature = patch.requireSignature ? 1 : 0;
      if (patch.unsignedModeEnabled !== undefined)
        values.unsignedModeEnabled = patch.unsignedModeEnabled ? 1 : 0;
      if (patch.devModeEnabled !== undefined) values.devModeEnabled = patch.devModeEnabled ? 1 : 0;
      if (patch.localDownloadsToPrivateNetwork !== undefined) {
        values.localDownloadsToPrivateNetwork = patch.localDownloadsToPrivateNetwork ? 1 : 0;
      }
      if (patch.allowedOrigins !== undefined) {
        values.allowedOrigins = JSON.stringify(patch.allowedOrigins);
      }
      const row = await trx
        .updateTable('organizations')
        .set(values)
        .where('id', '=', organizationId)
        .returningAll()
        .executeTakeFirst();
      return row ? toOrganization(row) : undefined;
    });
  }

  async createUser(
    input: { email: string; name: string; passwordHash: string; verified: boolean },
    now: number,
  ): Promise<User> {
    return this.write(async (trx) => {
      const row = {
        id: newId('usr', now),
        email: input.email.toLowerCase(),
        name: input.name,
        passwordHash: input.passwordHash,
        emailVerifiedAt: input.verified ? now : null,
        createdAt: now,
      };
      await trx.insertInto('users').values(row).execute();
      return toUser(row);
    });
  }

  async addMember(
    organizationId: string,
    userId: string,
    role: string,
    now: number,
  ): Promise<void> {
    await this.write((trx) =>
      trx
        .insertInto('memberships')
        .values({ organizationId, userId, role, createdAt: now })
        .execute(),
    );
  }

  async createApiKey(
    organizationId: string,
    input: { name: string; mode: Mode; scopes: readonly Scope[]; keyHash: string; prefix: string },
    now: number,
  ): Promise<ApiKey> {
    return this.write(async (trx) => {
      const row = {
        id: newId('key', now),
        organizationId,
        name: input.name,
        mode: input.mode,
        prefix: input.prefix,
        keyHash: input.keyHash,
        scopes: JSON.stringify(input.scopes),
        createdAt: now,
        lastUsedAt: null,
        revokedAt: null,
      };
      await trx.insertInto('apiKeys').values(row).execute();
      return toApiKey(row);
    });
  }

  /**
   * Looks a key up by the hash of the secret the client sent. This is the one read not scoped by
   * organization: the key itself names the organization.
   */
  async findApiKeyByHash(
    keyHash: string,
  ): Promise<{ apiKey: ApiKey; organization: Organization } | undefined> {
    const query = this.prepared.get('key.byHash', () =>
      this.read
        .selectFrom('apiKeys')
        .innerJoin('organizations', 'organizations.id', 'apiKeys.organizationId')
        .selectAll('apiKeys')
        .select([
          'organizations.name as orgName',
          'organizations.plan as orgPlan',
          'organizations.locale as orgLocale',
          'organizations.retentionDays as orgRetentionDays',
          'organizations.requireSignature as orgRequireSignature',
          'organizations.unsignedModeEnabled as orgUnsignedModeEnabled',
          'organizations.devModeEnabled as orgDevModeEnabled',
          'organizations.localDownloadsToPrivateNetwork as orgLocalDownloadsToPrivateNetwork',
          'organizations.settings as orgSettings',
          'organizations.allowedOrigins as orgAllowedOrigins',
          'organizations.createdAt as orgCreatedAt',
          'organizations.updatedAt as orgUpdatedAt',
        ])
        .where('apiKeys.keyHash', '=', slot('hash')),
    );
    type Row = Selectable<ApiKeysTable> & {
      orgName: string;
      orgPlan: string;
      orgLocale: string;
      orgRetentionDays: number;
      orgRequireSignature: number;
      orgUnsignedModeEnabled: number;
      orgDevModeEnabled: number;
      orgLocalDownloadsToPrivateNetwork: number;
      orgSettings: string;
      orgAllowedOrigins: string;
      orgCreatedAt: number;
      orgUpdatedAt: number;
    };
    const [row] = await query.execute<Row>(this.read, { hash: keyHash });
    if (!row) return undefined;
    return {
      apiKey: toApiKey(row),
      organization: toOrganization({
        id: row.organizationId,
        name: row.orgName,
        plan: row.orgPlan,
        locale: row.orgLocale,
        retentionDays: row.orgRetentionDays,
        requireSignature: row.orgRequireSignature,
        unsignedModeEnabled: row.orgUnsignedModeEnabled,
        devModeEnabled: row.orgDevModeEnabled,
        localDownloadsToPrivateNetwork: row.orgLocalDownloadsToPrivateNetwork,
        settings: row.orgSettings,
        allowedOrigins: row.orgAllowedOrigins,
        createdAt: row.orgCreatedAt,
        updatedAt: row.orgUpdatedAt,
      }),
    };
  }

  /** Records that the key was used at `now` (kept as the latest time). */
  async touchApiKey(organizationId: string, keyId: string, now: number): Promise<void> {
    await this.write((trx) =>
      trx
        .updateTable('apiKeys')
        .set({ lastUsedAt: now })
        .where('organizationId', '=', organizationId)
        .where('id', '=', keyId)
        .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', now)]))
        .execute(),
    );
  }

  async revokeApiKey(organizationId: string, keyId: string, now: number): Promise<boolean> {
    return this.write(async (trx) => {
      const result = await trx
        .updateTable('apiKeys')
        .set({ revokedAt: now })
        .where('organizationId', '=', organizationId)
        .where('id', '=', keyId)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  async createActivationCode(
    organizationId: string,
    input: { codeHash: string; name: string | null; expiresAt: number },
    now: number,
  ): Promise<{ id: string; expiresAt: number }> {
    return this.write(async (trx) => {
      const id = newId('act', now);
      await trx
        .insertInto('activationCodes')
        .values({
          id,
          organizationId,
          codeHash: input.codeHash,
          name: input.name,
          expiresAt: input.expiresAt,
          usedAt: null,
          deviceId: null,
          createdAt: now,
        })
        .execute();
      return { id, expiresAt: input.expiresAt };
    });
  }

  /** Live jobs created in the organization during the month of `now`. */
  async liveJobsThisMonth(organizationId: string, now: number): Promise<number> {
    const [row] = await this.prepared
      .get('usage.get', () =>
        this.read
          .selectFrom('usageCounters')
          .select('liveJobs')
          .where('organizationId', '=', slot('org'))
          .where('period', '=', slot('period')),
      )
      .execute<{ liveJobs: number }>(this.read, { org: organizationId, period: usagePeriod(now) });
    return row ? Number(row.liveJobs) : 0;
  }

  /** The organization's API keys (secrets hashed), oldest first. */
  async listApiKeys(organizationId: string): Promise<ApiKey[]> {
    const rows = await this.read
      .selectFrom('apiKeys')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    return rows.map(toApiKey);
  }
}
