/**
 * What the agent gateway stores: activation (a single-use code traded for a device), device
 * tokens (hashed), device presence, the printers an agent reports, and the device's jobs the
 * gateway re-sends after a reconnect. Organization scoping as everywhere: every method that
 * touches an organization's rows takes its id, except the token lookup (the token names its
 * device, as an API key names its organization).
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { newId } from '../lib/ids.js';
import type { WriteFn } from './organizations.js';
import { toDevice, toJob, toPrinter } from './rows.js';
import type { Database, PrintersTable } from './schema.js';
import type { Device, Job, Printer, PrinterReach } from './types.js';
import type { WebhookOutbox } from './webhook-outbox.js';

/** What a hello says about the computer. */
export interface DeviceInfo {
  os: string;
  arch: string;
  agentVersion: string;
}

/** An agent's hello, as stored: its device, its computer and its printers. */
export interface Hello extends DeviceInfo {
  organizationId: string;
  deviceId: string;
  printers: ReportedPrinter[];
  /** Printers the person at the computer hid: deleted. */
  hidden: readonly string[];
}

/** A hello stored: its printers' changes, and the device before and after. */
export interface Connected {
  changes: PrinterChange[];
  before: Device;
  after: Device;
}

export interface ActivationInput {
  codeHash: string;
  tokenHash: string;
  name: string;
  os: string;
  arch: string;
  agentVersion: string;
}

/** A printer as an agent reports it (the protocol's printer object, less what is not stored). */
export interface ReportedPrinter {
  agentPrinterId: string;
  name: string;
  alias: string | null;
  connection: string;
  kind: string;
  paper: string | null;
  codepage: string | null;
  capabilities: string[];
  isDefault: boolean;
  status: string;
  /** How the agent reaches it; absent (older agents): what was stored stays. */
  reach?: PrinterReach | undefined;
}

/** A printer after a write, with its status before it (null: the printer is new). */
export interface PrinterChange {
  printer: Printer;
  previousStatus: string | null;
}

export class DevicesRepository {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    /** device.* and printer.* webhook events are written with their change. */
    private readonly outbox?: WebhookOutbox,
  ) {}

  /**
   * Uses an activation code once: creates the activated device holding `tokenHash` and marks the
   * code used, in one transaction. Undefined when the code is unknown, used or expired.
   */
  async activate(input: ActivationInput, now: number): Promise<Device | undefined> {
    return this.write(async (trx) => {
      const code = await trx
        .selectFrom('activationCodes')
        .select(['id', 'organizationId'])
        .where('codeHash', '=', input.codeHash)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      if (!code) return undefined;
      const row = {
        id: newId('dev', now),
        organizationId: code.organizationId,
        name: input.name,
        groupId: null,
        os: input.os,
        arch: input.arch,
        agentVersion: input.agentVersion,
        status: 'offline',
        activated: 1,
        sandbox: 0,
        tokenHash: input.tokenHash,
        lastSeenAt: null,
        createdAt: now,
      };
      const used = await trx
        .updateTable('activationCodes')
        .set({ usedAt: now, deviceId: row.id })
        .where('id', '=', code.id)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) === 0) return undefined;
      await trx.insertInto('devices').values(row).execute();
      const device = toDevice(row);
      await this.outbox?.recordDevice(trx, 'device.activated', device, now);
      return device;
    });
  }

  /** The activated, non-sandbox device holding this token hash. */
  async findByTokenHash(tokenHash: string): Promise<Device | undefined> {
    return (await this.findByTokenHashes([tokenHash])).get(tokenHash);
  }

  /** Activated devices by token hash (the handshakes of a reconnect storm, in one query). */
  async findByTokenHashes(tokenHashes: string[]): Promise<Map<string, Device>> {
    const found = new Map<string, Device>();
    if (tokenHashes.length === 0) return found;
    const rows = await this.read
      .selectFrom('devices')
      .selectAll()
      .where('tokenHash', 'in', tokenHashes)
      .where('activated', '=', 1)
      .where('sandbox', '=', 0)
      .execute();
    for (const row of rows) if (row.tokenHash !== null) found.set(row.tokenHash, toDevice(row));
    return found;
  }

  async get(organizationId: string, deviceId: string): Promise<Device | undefined> {
    const row = await this.read
      .selectFrom('devices')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('id', '=', deviceId)
      .executeTakeFirst();
    return row ? toDevice(row) : undefined;
  }

  /** Forgets the device's token: its agent is refused from now on. True when it had one. */
  async revokeToken(organizationId: string, deviceId: string): Promise<boolean> {
    return this.write(async (trx) => {
      const r = await trx
        .updateTable('devices')
        .set({ tokenHash: null })
        .where('organizationId', '=', organizationId)
        .where('id', '=', deviceId)
        .where('tokenHash', 'is not', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    });
  }

  /**
   * Sets the device's presence (and what its hello says about it); returns the device before the
   * change, undefined when there is no such device.
   */
  async setPresence(
    organizationId: string,
    deviceId: string,
    status: 'online' | 'offline',
    now: number,
    info?: DeviceInfo,
  ): Promise<{ before: Device; after: Device } | undefined> {
    return this.write((trx) => this.presenceIn(trx, organizationId, deviceId, status, now, info));
  }

  /**
   * Hellos: each agent's printers upserted (see `upsertPrinters`) and its device marked online, all
   * in one transaction, so that a device that shows online has its printers listed. The rows of
   * every device are read together and only what changed is written: a reconnect storm's hellos
   * cost a few statements per batch, not per agent. Undefined for a hello whose device is gone.
   */
  async connected(hellos: Hello[], now: number): Promise<Array<Connected | undefined>> {
    if (hellos.length === 0) return [];
    return this.write(async (trx) => {
      const ids = [...new Set(hellos.map((h) => h.deviceId))];
      const organizations = [...new Set(hellos.map((h) => h.organizationId))];
      const removedBy = new Map<string, string[]>();
      for (const h of hellos) {
        const reported = new Set(h.printers.map((p) => p.agentPrinterId));
        const removed = h.hidden.filter((id) => !reported.has(id));
        if (removed.length === 0) continue;
        removedBy.set(h.deviceId, removed);
        await trx
          .deleteFrom('printers')
          .where('organizationId', '=', h.organizationId)
          .where('deviceId', '=', h.deviceId)
          .where('agentPrinterId', 'in', removed)
          .execute();
      }
      const [printerRows, deviceRows] = await Promise.all([
        trx
          .selectFrom('printers')
          .selectAll()
          .where('organizationId', 'in', organizations)
          .where('deviceId', 'in', ids)
          .execute(),
        trx
          .selectFrom('devices')
          .selectAll()
          .where('organizationId', 'in', organizations)
          .where('id', 'in', ids)
          .execute(),
      ]);
      const results: Array<Connected | undefined> = [];
      // Devices whose row changes only by presence: one update for all of them.
      const online: string[] = [];
      for (const h of hellos) {
        const row = deviceRows.find(
          (r) => r.id === h.deviceId && r.organizationId === h.organizationId,
        );
        if (!row) {
          results.push(undefined);
          continue;
        }
        const existing = printerRows.filter(
          (r) =>
            r.deviceId === h.deviceId &&
            r.organizationId === h.organizationId &&
            !removedBy.get(h.deviceId)?.includes(r.agentPrinterId),
        );
        const changes = await this.applyPrinters(trx, h, existing, now);
        const info = { os: h.os, arch: h.arch, agentVersion: h.agentVersion };
        const next = { ...row, status: 'online', lastSeenAt: now, ...info };
        if (row.os === h.os && row.arch === h.arch && row.agentVersion === h.agentVersion) {
          online.push(row.id);
        } else {
          await trx
            .updateTable('devices')
            .set({ status: 'online', lastSeenAt: now, ...info })
            .where('id', '=', row.id)
            .execute();
        }
        const after = toDevice(next);
        if (row.status !== 'online')
          await this.outbox?.recordDevice(trx, 'device.online', after, now);
        results.push({ changes, before: toDevice(row), after });
      }
      if (online.length > 0) {
        await trx
          .updateTable('devices')
          .set({ status: 'online', lastSeenAt: now })
          .where('id', 'in', online)
          .execute();
      }
      return results;
    });
  }

  private async presenceIn(
    trx: Transaction<Database>,
    organizationId: string,
    deviceId: string,
    status: 'online' | 'offline',
    now: number,
    info?: DeviceInfo,
  ): Promise<{ before: Device; after: Device } | undefined> {
    const row = await trx
      .selectFrom('devices')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('id', '=', deviceId)
      .executeTakeFirst();
    if (!row) return undefined;
    const next = { ...row, status, lastSeenAt: now, ...(info ?? {}) };
    await trx
      .updateTable('devices')
      .set({ status, lastSeenAt: now, ...(info ?? {}) })
      .where('id', '=', deviceId)
      .execute();
    const after = toDevice(next);
    if (row.status !== status) {
      const type = status === 'online' ? 'device.online' : 'device.offline';
      await this.outbox?.recordDevice(trx, type, after, now);
    }
    return { before: toDevice(row), after };
  }

  /** Records that the devices were heard from (heartbeats; written at most as often as asked). */
  async touch(
    devices: ReadonlyArray<{ organizationId: string; deviceId: string }>,
    now: number,
  ): Promise<void> {
    if (devices.length === 0) return;
    await this.write(async (trx) => {
      await trx
        .updateTable('devices')
        .set({ lastSeenAt: now })
        .where('organizationId', 'in', [...new Set(devices.map((d) => d.organizationId))])
        .where('id', 'in', [...new Set(devices.map((d) => d.deviceId))])
        .execute();
    });
  }

  /**
   * Upserts the agent's printers by (device, agentPrinterId): a known printer keeps its cloud id.
   * Printers the agent no longer reports are left as they are, marked offline; those it names as
   * `hidden` (hidden by the person at the computer) are deleted.
   */
  async upsertPrinters(
    organizationId: string,
    deviceId: string,
    printers: ReportedPrinter[],
    now: number,
    hidden: readonly string[] = [],
  ): Promise<PrinterChange[]> {
    return this.write((trx) =>
      this.upsertPrintersIn(trx, organizationId, deviceId, printers, now, hidden),
    );
  }

  private async upsertPrintersIn(
    trx: Transaction<Database>,
    organizationId: string,
    deviceId: string,
    printers: ReportedPrinter[],
    now: number,
    hidden: readonly string[],
  ): Promise<PrinterChange[]> {
    const reported = new Set(printers.map((p) => p.agentPrinterId));
    const removed = hidden.filter((id) => !reported.has(id));
    if (removed.length > 0) {
      await trx
        .deleteFrom('printers')
        .where('organizationId', '=', organizationId)
        .where('deviceId', '=', deviceId)
        .where('agentPrinterId', 'in', removed)
        .execute();
    }
    const existing = await trx
      .selectFrom('printers')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('deviceId', '=', deviceId)
      .execute();
    return this.applyPrinters(trx, { organizationId, deviceId, printers }, existing, now);
  }

  /** Writes what changed between the device's printer rows and what its agent reports. */
  private async applyPrinters(
    trx: Transaction<Database>,
    { organizationId, deviceId, printers }: Pick<Hello, 'organizationId' | 'deviceId' | 'printers'>,
    existing: Selectable<PrintersTable>[],
    now: number,
  ): Promise<PrinterChange[]> {
    const byAgentId = new Map(existing.map((r) => [r.agentPrinterId, r]));
    const changes: PrinterChange[] = [];
    const seen = new Set<string>();
    for (const p of printers) {
      seen.add(p.agentPrinterId);
      const old = byAgentId.get(p.agentPrinterId);
      // The alias and default set in the dashboard win over the agent's.
      const set = old ? toPrinter(old).settings : {};
      const fields = {
        name: p.name,
        alias: set.alias !== undefined ? set.alias : p.alias,
        connection: p.connection,
        kind: p.kind,
        paper: p.paper,
        codepage: p.codepage,
        capabilities: JSON.stringify(p.capabilities),
        isDefault: (set.isDefault ?? p.isDefault) ? 1 : 0,
        status: p.status,
        ...(p.reach ? { reach: JSON.stringify(p.reach) } : {}),
      };
      if (old) {
        const lastStatusAt = old.status === p.status ? old.lastStatusAt : now;
        // A reconnect usually reports the printer as it was: nothing to write.
        const same = (Object.keys(fields) as Array<keyof typeof fields>).every(
          (key) => old[key] === fields[key],
        );
        if (!same) {
          await trx
            .updateTable('printers')
            .set({ ...fields, lastStatusAt })
            .where('id', '=', old.id)
            .execute();
        }
        changes.push({
          printer: toPrinter({ ...old, ...fields, lastStatusAt }),
          previousStatus: old.status,
        });
      } else {
        const row = {
          id: newId('prn', now),
          organizationId,
          deviceId,
          agentPrinterId: p.agentPrinterId,
          profile: null,
          sandbox: 0,
          lastStatusAt: now,
          createdAt: now,
          ...fields,
        };
        await trx.insertInto('printers').values(row).execute();
        changes.push({ printer: toPrinter(row), previousStatus: null });
      }
    }
    for (const old of existing) {
      if (seen.has(old.agentPrinterId) || old.status === 'offline') continue;
      await trx
        .updateTable('printers')
        .set({ status: 'offline', lastStatusAt: now })
        .where('id', '=', old.id)
        .execute();
      changes.push({
        printer: toPrinter({ ...old, status: 'offline', lastStatusAt: now }),
        previousStatus: old.status,
      });
    }
    await this.outbox?.recordPrinterChanges(trx, changes, now);
    return changes;
  }

  /** Sets one printer's status; undefined when the device has no such printer. */
  async setPrinterStatus(
    organizationId: string,
    deviceId: string,
    agentPrinterId: string,
    status: string,
    now: number,
  ): Promise<PrinterChange | undefined> {
    return this.write(async (trx) => {
      const old = await trx
        .selectFrom('printers')
        .selectAll()
        .where('organizationId', '=', organizationId)
        .where('deviceId', '=', deviceId)
        .where('agentPrinterId', '=', agentPrinterId)
        .executeTakeFirst();
      if (!old) return undefined;
      if (old.status === status) return { printer: toPrinter(old), previousStatus: status };
      await trx
        .updateTable('printers')
        .set({ status, lastStatusAt: now })
        .where('id', '=', old.id)
        .execute();
      const change = {
        printer: toPrinter({ ...old, status, lastStatusAt: now }),
        previousStatus: old.status,
      };
      await this.outbox?.recordPrinterChanges(trx, [change], now);
      return change;
    });
  }

  /** Marks every printer of the device offline; returns those that were not. */
  async markPrintersOffline(
    organizationId: string,
    deviceId: string,
    now: number,
  ): Promise<PrinterChange[]> {
    return this.write(async (trx) => {
      const rows = await trx
        .selectFrom('printers')
        .selectAll()
        .where('organizationId', '=', organizationId)
        .where('deviceId', '=', deviceId)
        .where('status', '!=', 'offline')
        .execute();
      if (rows.length === 0) return [];
      await trx
        .updateTable('printers')
        .set({ status: 'offline', lastStatusAt: now })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      const changes = rows.map((r) => ({
        printer: toPrinter({ ...r, status: 'offline', lastStatusAt: now }),
        previousStatus: r.status,
      }));
      await this.outbox?.recordPrinterChanges(trx, changes, now);
      return changes;
    });
  }

  async listPrinters(organizationId: string, deviceId: string): Promise<Printer[]> {
    const rows = await this.read
      .selectFrom('printers')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('deviceId', '=', deviceId)
      .orderBy('createdAt')
      .execute();
    return rows.map(toPrinter);
  }

  /**
   * The device's live jobs in `state`, oldest first: `queued` ones go out on connect; `sending`
   * ones are re-sent (at least once on the wire); `cancelled` ones that had been dispatched
   * get a `job.cancel`.
   */
  async listJobs(
    organizationId: string,
    deviceId: string,
    state: 'queued' | 'sending' | 'cancelled',
    options: { limit: number; dispatchedOnly?: boolean; finishedAfter?: number },
  ): Promise<Job[]> {
    // Local jobs are the agent's own: never sent to it, so never part of its backlog.
    let q = this.read
      .selectFrom('jobs')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('deviceId', '=', deviceId)
      .where('mode', '=', 'live')
      .where('state', '=', sql.lit(state))
      .where('source', '=', sql.lit('cloud'));
    if (options.dispatchedOnly) q = q.where('dispatchedAt', 'is not', null);
    if (options.finishedAfter !== undefined) q = q.where('finishedAt', '>', options.finishedAfter);
    const rows = await q.orderBy('createdAt').orderBy('id').limit(options.limit).execute();
    return rows.map(toJob);
  }

  /**
   * What a device that just connected may be owed, in one read: its jobs sent and not finished,
   * queued, and cancelled after being sent (finished after `cancelledAfter`), oldest first, at
   * most `limit`. After a reconnect storm most devices have none, and learn it from this one read.
   */
  async backlog(
    organizationId: string,
    deviceId: string,
    options: { limit: number; cancelledAfter: number },
  ): Promise<Job[]> {
    const rows = await this.owedJobs([organizationId], [deviceId], options.cancelledAfter)
      .selectAll()
      .orderBy('createdAt')
      .orderBy('id')
      .limit(options.limit)
      .execute();
    return rows.map(toJob);
  }

  /**
   * Which of `devices` are owed anything (see `backlog`), in one read for all of them: after a
   * reconnect storm most devices are not.
   */
  async devicesOwed(
    devices: ReadonlyArray<{ organizationId: string; deviceId: string }>,
    cancelledAfter: number,
  ): Promise<Set<string>> {
    if (devices.length === 0) return new Set();
    const rows = await this.owedJobs(
      [...new Set(devices.map((d) => d.organizationId))],
      [...new Set(devices.map((d) => d.deviceId))],
      cancelledAfter,
    )
      .select('deviceId')
      .distinct()
      .execute();
    return new Set(rows.flatMap((r) => (r.deviceId === null ? [] : [r.deviceId])));
  }

  /** The jobs `backlog` and `devicesOwed` look for: sent, queued, or cancelled after sending. */
  private owedJobs(organizationIds: string[], deviceIds: string[], cancelledAfter: number) {
    return this.read
      .selectFrom('jobs')
      .where('organizationId', 'in', organizationIds)
      .where('deviceId', 'in', deviceIds)
      .where('mode', '=', 'live')
      .where('source', '=', sql.lit('cloud'))
      .where('state', 'in', [sql.lit('sending'), sql.lit('queued'), sql.lit('cancelled')])
      .where((eb) =>
        eb.or([
          eb('state', '!=', sql.lit('cancelled')),
          eb.and([eb('dispatchedAt', 'is not', null), eb('finishedAt', '>', cancelledAfter)]),
        ]),
      );
  }

  // Devices as the dashboard edits them (the gateway owns activation, presence and tokens)

  /** The organization's activated agents (not the sandbox), oldest first. */
  async listDevices(organizationId: string): Promise<Device[]> {
    const rows = await this.read
      .selectFrom('devices')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('sandbox', '=', 0)
      .where('activated', '=', 1)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    return rows.map(toDevice);
  }

  /** Renames or regroups an activated agent; undefined when there is none with that id. */
  async updateDevice(
    organizationId: string,
    deviceId: string,
    patch: { name?: string; groupId?: string | null },
  ): Promise<Device | undefined> {
    return this.write(async (trx) => {
      const values: { name?: string; groupId?: string | null } = {};
      if (patch.name !== undefined) values.name = patch.name;
      if (patch.groupId !== undefined) values.groupId = patch.groupId;
      let q = trx
        .updateTable('devices')
        .where('organizationId', '=', organizationId)
        .where('id', '=', deviceId)
        .where('sandbox', '=', 0)
        .where('activated', '=', 1);
      // An empty patch still answers the device.
      q = Object.keys(values).length > 0 ? q.set(values) : q.set({ id: deviceId });
      const row = await q.returningAll().executeTakeFirst();
      return row ? toDevice(row) : undefined;
    });
  }

  /** Marks an agent deactivated and offline and forgets its token. False when there is none. */
  async deactivateDevice(organizationId: string, deviceId: string): Promise<boolean> {
    return this.write(async (trx) => {
      const r = await trx
        .updateTable('devices')
        .set({ activated: 0, status: 'offline', tokenHash: null })
        .where('organizationId', '=', organizationId)
        .where('id', '=', deviceId)
        .where('sandbox', '=', 0)
        .where('activated', '=', 1)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    });
  }
}
