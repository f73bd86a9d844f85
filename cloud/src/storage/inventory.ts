/**
 * Devices and their printers. `includeSandbox` is true for test keys only: live keys never see
 * the sandbox device or its virtual printers.
 */
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import { newId } from '../lib/ids.js';
import { decodeCursor, toPage } from './cursor.js';
import { PreparedCache, slot } from './prepared.js';
import type { Database, PrintersTable } from './schema.js';
import { toDevice, toPrinter } from './rows.js';
import type { WriteFn } from './organizations.js';
import type { Device, Page, PageQuery, Printer, PrinterSettings } from './types.js';

/**
 * A change the dashboard makes to a printer: `defaults` fields set to null are removed (the
 * agent's own value applies again); absent fields stay as they are.
 */
export interface PrinterSettingsPatch {
  alias?: string | null;
  isDefault?: boolean;
  defaults?: {
    paper?: string | null;
    dpi?: number | null;
    codepage?: string | null;
    cut?: 'full' | 'partial' | 'none' | null;
  };
}

export interface Visibility {
  includeSandbox: boolean;
}

export interface NewDevice {
  name: string;
  os: string;
  arch: string;
  agentVersion: string;
  groupId?: string | null;
  status?: string;
  activated?: boolean;
  tokenHash?: string | null;
}

export interface NewPrinter {
  agentPrinterId: string;
  name: string;
  alias?: string | null;
  connection: string;
  kind: string;
  paper?: string | null;
  codepage?: string | null;
  profile?: string | null;
  capabilities?: string[];
  isDefault?: boolean;
  status?: string;
}

function keyset<DB, TB extends keyof DB & string, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  table: 'devices' | 'printers',
  page: PageQuery,
): SelectQueryBuilder<DB, TB, O> {
  let q = query;
  if (page.cursor) {
    const c = decodeCursor(page.cursor);
    // Typed loosely: the same keyset applies to every table with createdAt and id.
    q = q.where((eb) =>
      eb.or([
        eb(`${table}.createdAt` as never, '<', c.createdAt as never),
        eb.and([
          eb(`${table}.createdAt` as never, '=', c.createdAt as never),
          eb(`${table}.id` as never, '<', c.id as never),
        ]),
      ]),
    );
  }
  return q
    .orderBy(`${table}.createdAt` as never, 'desc')
    .orderBy(`${table}.id` as never, 'desc')
    .limit(page.limit + 1);
}

export class InventoryRepository {
  private readonly prepared = new PreparedCache();

  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
  ) {}

  async createDevice(organizationId: string, input: NewDevice, now: number): Promise<Device> {
    return this.write(async (trx) => {
      const row = {
        id: newId('dev', now),
        organizationId,
        name: input.name,
        groupId: input.groupId ?? null,
        os: input.os,
        arch: input.arch,
        agentVersion: input.agentVersion,
        status: input.status ?? 'offline',
        activated: input.activated === false ? 0 : 1,
        sandbox: 0,
        tokenHash: input.tokenHash ?? null,
        lastSeenAt: null,
        createdAt: now,
      };
      await trx.insertInto('devices').values(row).execute();
      return toDevice(row);
    });
  }

  async createPrinter(
    organizationId: string,
    deviceId: string,
    input: NewPrinter,
    now: number,
  ): Promise<Printer> {
    return this.write(async (trx) => {
      const device = await trx
        .selectFrom('devices')
        .select('id')
        .where('organizationId', '=', organizationId)
        .where('id', '=', deviceId)
        .executeTakeFirst();
      if (!device) throw new Error(`device ${deviceId} is not in organization ${organizationId}`);
      const row = {
        id: newId('prn', now),
        organizationId,
        deviceId,
        agentPrinterId: input.agentPrinterId,
        name: input.name,
        alias: input.alias ?? null,
        connection: input.connection,
        kind: input.kind,
        paper: input.paper ?? null,
        codepage: input.codepage ?? null,
        profile: input.profile ?? null,
        capabilities: JSON.stringify(input.capabilities ?? []),
        isDefault: input.isDefault ? 1 : 0,
        status: input.status ?? 'offline',
        sandbox: 0,
        lastStatusAt: null,
        createdAt: now,
      };
      await trx.insertInto('printers').values(row).execute();
      return toPrinter(row);
    });
  }

  async getDevice(organizationId: string, id: string, v: Visibility): Promise<Device | undefined> {
    let q = this.read
      .selectFrom('devices')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('id', '=', id);
    if (!v.includeSandbox) q = q.where('sandbox', '=', 0);
    const row = await q.executeTakeFirst();
    return row ? toDevice(row) : undefined;
  }

  /** Activated devices, newest first. */
  async listDevices(
    organizationId: string,
    v: Visibility,
    filter: { status?: string | undefined },
    page: PageQuery,
  ): Promise<Page<Device>> {
    let q = this.read
      .selectFrom('devices')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('activated', '=', 1);
    if (!v.includeSandbox) q = q.where('sandbox', '=', 0);
    if (filter.status) q = q.where('status', '=', filter.status);
    const rows = await keyset(q, 'devices', page).execute();
    return toPage(
      rows.map((r) => ({ ...r, createdAt: Number(r.createdAt) })),
      page.limit,
      toDevice,
    );
  }

  async getPrinter(
    organizationId: string,
    id: string,
    v: Visibility,
  ): Promise<Printer | undefined> {
    let q = this.read
      .selectFrom('printers')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('id', '=', id);
    if (!v.includeSandbox) q = q.where('sandbox', '=', 0);
    const row = await q.executeTakeFirst();
    return row ? toPrinter(row) : undefined;
  }

  async listPrinters(
    organizationId: string,
    v: Visibility,
    filter: { status?: string | undefined; deviceId?: string | undefined },
    page: PageQuery,
  ): Promise<Page<Printer>> {
    let q = this.read
      .selectFrom('printers')
      .selectAll()
      .where('organizationId', '=', organizationId);
    if (!v.includeSandbox) q = q.where('sandbox', '=', 0);
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.deviceId) q = q.where('deviceId', '=', filter.deviceId);
    const rows = await keyset(q, 'printers', page).execute();
    return toPage(
      rows.map((r) => ({ ...r, createdAt: Number(r.createdAt) })),
      page.limit,
      toPrinter,
    );
  }

  /**
   * Printers matching every given field, for resolving a job's target. Sandbox printers come
   * first for test keys so that `alias: 'receipt-80'` finds the virtual one.
   */
  async findPrinters(
    organizationId: string,
    v: Visibility,
    match: {
      id?: string;
      deviceId?: string;
      alias?: string;
      name?: string;
      isDefault?: boolean;
      sandbox?: boolean;
    },
  ): Promise<Printer[]> {
    const fields = (['id', 'deviceId', 'alias', 'name', 'isDefault', 'sandbox'] as const).filter(
      (f) => match[f] !== undefined,
    );
    const query = this.prepared.get(`printers.find.${v.includeSandbox}.${fields.join(',')}`, () => {
      let q = this.read
        .selectFrom('printers')
        .selectAll()
        .where('organizationId', '=', slot('org'));
      if (!v.includeSandbox) q = q.where('sandbox', '=', 0);
      for (const f of fields) q = q.where(f, '=', slot(f));
      return q.orderBy('sandbox', 'desc').orderBy('createdAt').limit(20);
    });
    const values: Record<string, unknown> = { org: organizationId };
    for (const f of fields) {
      const value = match[f];
      values[f] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    }
    const rows = await query.execute<Selectable<PrintersTable>>(this.read, values);
    return rows.map(toPrinter);
  }

  async setPrinterStatus(
    organizationId: string,
    printerId: string,
    status: string,
    now: number,
  ): Promise<void> {
    await this.write((trx) =>
      trx
        .updateTable('printers')
        .set({ status, lastStatusAt: now })
        .where('organizationId', '=', organizationId)
        .where('id', '=', printerId)
        .execute(),
    );
  }

  async setDeviceStatus(
    organizationId: string,
    deviceId: string,
    status: string,
    now: number,
  ): Promise<void> {
    await this.write((trx) =>
      trx
        .updateTable('devices')
        .set({ status, lastSeenAt: now })
        .where('organizationId', '=', organizationId)
        .where('id', '=', deviceId)
        .execute(),
    );
  }

  /** How many of the organization's printers are in each status (the dashboard's Overview). */
  async countPrintersByStatus(
    organizationId: string,
    v: Visibility,
  ): Promise<Record<string, number>> {
    let q = this.read
      .selectFrom('printers')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('organizationId', '=', organizationId);
    if (!v.includeSandbox) q = q.where('sandbox', '=', 0);
    const rows = await q.groupBy('status').execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
  }

  /**
   * Applies the dashboard's change to a printer, in one transaction: a printer made the default
   * is the organization's only one (the others are set not to be). Undefined for no such printer;
   * sandbox printers are not changed (undefined as well).
   */
  async updatePrinterSettings(
    organizationId: string,
    printerId: string,
    patch: PrinterSettingsPatch,
  ): Promise<Printer | undefined> {
    return this.write(async (trx) => {
      const row = await trx
        .selectFrom('printers')
        .selectAll()
        .where('organizationId', '=', organizationId)
        .where('id', '=', printerId)
        .where('sandbox', '=', 0)
        .executeTakeFirst();
      if (!row) return undefined;
      const settings: PrinterSettings = { ...toPrinter(row).settings };
      const set: { alias?: string | null; isDefault?: number } = {};
      if (patch.alias !== undefined) {
        settings.alias = patch.alias;
        set.alias = patch.alias;
      }
      if (patch.isDefault !== undefined) {
        settings.isDefault = patch.isDefault;
        set.isDefault = patch.isDefault ? 1 : 0;
      }
      for (const key of ['paper', 'dpi', 'codepage', 'cut'] as const) {
        const value = patch.defaults?.[key];
        if (value === null) delete settings[key];
        else if (value !== undefined) (settings as Record<string, string | number>)[key] = value;
      }
      if (patch.isDefault === true) {
        const others = await trx
          .selectFrom('printers')
          .select(['id', 'settings'])
          .where('organizationId', '=', organizationId)
          .where('sandbox', '=', 0)
          .where('id', '!=', printerId)
          .where('isDefault', '=', 1)
          .execute();
        for (const other of others) {
          const s = toPrinterSettings(other.settings);
          await trx
            .updateTable('printers')
            .set({ isDefault: 0, settings: JSON.stringify({ ...s, isDefault: false }) })
            .where('id', '=', other.id)
            .execute();
        }
      }
      const settingsJson = JSON.stringify(settings);
      await trx
        .updateTable('printers')
        .set({ ...set, settings: settingsJson })
        .where('id', '=', printerId)
        .execute();
      return toPrinter({ ...row, ...set, settings: settingsJson });
    });
  }
}

function toPrinterSettings(json: string): PrinterSettings {
  try {
    return JSON.parse(json) as PrinterSettings;
  } catch {
    return {};
  }
}
