/**
 * What an organization has: its devices and printers as the API lists them (live keys see the
 * real ones, test keys the sandbox's too), the dashboard's changes to them (a printer's
 * settings reach the agents; a deactivated device loses its token and its socket first), and
 * the Overview's counts.
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import { labelSizeProblem, parseLabelSize } from '@printwire/shared/label-graphics/label-size';
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
    checkPaperFits(existing, settings.defaults ?? {});
    // A label size is kept as written canonically (`4x6in`, `100x150mm`).
    const paper = settings.defaults?.paper;
    const defaults =
      paper && existing.kind === 'label'
        ? { ...settings.defaults, paper: parseLabelSize(paper).text }
        : settings.defaults;
    const printer = await store.inventory.updatePrinterSettings(organizationId, id, {
      ...settings,
      ...(defaults ? { defaults } : {}),
    });
    if (!printer) throw new PrintwireError('NOT_FOUND', `no printer ${id}`);
    // The defaults (and a default printer) reach the organization's agents now.
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

/** A label printer takes a label size and a dpi, a receipt printer 58mm or 80mm and no dpi. */
function checkPaperFits(
  printer: Printer,
  defaults: { paper?: string | null; dpi?: number | null },
) {
  const label = printer.kind === 'label';
  const refuse = (path: string, message: string) =>
    new PrintwireError('VALIDATION_FAILED', message, { details: [{ path, message }] });
  if (defaults.paper) {
    const isLabelSize = labelSizeProblem(defaults.paper) === null;
    if (label && !isLabelSize) {
      throw refuse(
        'defaults.paper',
        `a label printer's paper is its label size (4x6in, 100x150mm)`,
      );
    }
    if (!label && isLabelSize) {
      throw refuse('defaults.paper', `a ${printer.kind} printer's paper is 58mm or 80mm`);
    }
  }
  if (!label && defaults.dpi) {
    throw refuse('defaults.dpi', 'dpi applies to label printers only');
  }
}
