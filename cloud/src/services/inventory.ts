/**
 * What an organization has: its devices and printers as the API lists them (live keys see the
 * real ones, test keys the sandbox's too), the dashboard's changes to them (a printer's
 * settings reach the agents; a deactivated device loses its token and its socket first), and
 * the Overview's counts.
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Store } from '../storage/store.js';
import type { Device, JobState, Mode, Printer } from '../storage/types.js';
import type { ConfigNotifier } from './agent-config.js';

/** The gateway side of deactivation (DeviceService): revokes the token, closes the socket. */
export interface DeviceRevoker {
  revoke(organizationId: string, deviceId: string): Promise<boolean>;
}

type Inventory = Store['inventory'];
type Devices = Store['devices'];

export class InventoryService {
  constructor(
    private readonly deps: {
      store: Store;
      /** A printer's settings reach the organization's agents. */
      agents: ConfigNotifier;
      revoker?: DeviceRevoker | undefined;
    },
  ) {}

  listPrinters: Inventory['listPrinters'] = (...args) =>
    this.deps.store.inventory.listPrinters(...args);
  getPrinter: Inventory['getPrinter'] = (...args) => this.deps.store.inventory.getPrinter(...args);
  listDevices: Inventory['listDevices'] = (...args) =>
    this.deps.store.inventory.listDevices(...args);
  getDevice: Inventory['getDevice'] = (...args) => this.deps.store.inventory.getDevice(...args);

  /** The printers by status and the jobs of `mode` created since `since` by state. */
  async overview(
    organizationId: string,
    mode: Mode,
    since: number,
  ): Promise<{
    statuses: Record<string, number>;
    byState: Partial<Record<JobState, number>>;
  }> {
    const { store } = this.deps;
    const [statuses, byState] = await Promise.all([
      store.inventory.countPrintersByStatus(organizationId, { includeSandbox: mode === 'test' }),
      store.jobs.countByState(organizationId, mode, since),
    ]);
    return { statuses, byState };
  }

  /**
   * Changes a printer's settings; NOT_FOUND for an unknown printer, CONFLICT for a sandbox
   * printer. The defaults (and a default printer) reach the organization's agents now.
   */
  async updatePrinterSettings(
    organizationId: string,
    id: string,
    settings: Parameters<Inventory['updatePrinterSettings']>[2],
  ): Promise<Printer> {
    const { store, agents } = this.deps;
    const existing = await store.inventory.getPrinter(organizationId, id, { includeSandbox: true });
    if (!existing) throw new PrintwireError('NOT_FOUND', `no printer ${id}`);
    if (existing.sandbox) {
      throw new PrintwireError('CONFLICT', `printer ${id} is a sandbox printer: it cannot change`);
    }
    const printer = await store.inventory.updatePrinterSettings(organizationId, id, settings);
    if (!printer) throw new PrintwireError('NOT_FOUND', `no printer ${id}`);
    await agents.changed(organizationId);
    return printer;
  }

  /** Every device of the organization, activated or not (the dashboard's list). */
  allDevices(organizationId: string): Promise<Device[]> {
    return this.deps.store.devices.listDevices(organizationId);
  }

  /** Renames or regroups a device; NOT_FOUND when there is none. */
  async updateDevice(
    organizationId: string,
    id: string,
    patch: Parameters<Devices['updateDevice']>[2],
  ): Promise<Device> {
    const device = await this.deps.store.devices.updateDevice(organizationId, id, patch);
    if (!device) throw new PrintwireError('NOT_FOUND', `no device ${id}`);
    return device;
  }

  /** Deactivates a device: its token is revoked and its socket closed first. */
  async deactivateDevice(organizationId: string, id: string): Promise<void> {
    const { store, revoker } = this.deps;
    const existing = (await store.devices.listDevices(organizationId)).some((d) => d.id === id);
    if (!existing) throw new PrintwireError('NOT_FOUND', `no device ${id}`);
    // Revoke first: the gateway is told to close the socket while the token is still known.
    if (revoker) await revoker.revoke(organizationId, id);
    await store.devices.deactivateDevice(organizationId, id);
  }
}
