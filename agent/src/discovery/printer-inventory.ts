import {
  PROTOCOL_LIMITS,
  type AgentMessageOf,
  type PrinterInfo,
} from '@printwire/shared/protocol/index';
import { configuredPrinters, type ConfiguredPrinter } from '../config/config-store.js';
import { reachOf } from '../config/printer-uri.js';
import type { LiveConfig } from '../config/live-config.js';
import type { AgentLogger } from '../logs/logger.js';
import type { RenderTarget } from '../render/render-job.js';
import { DEFAULT_LABEL_DPI, DEFAULT_LABEL_SIZE } from '@printwire/shared/label-graphics/label-size';
import type { DiscoveredPrinter, DiscoveryResult } from './discover.js';
import { autoPrinters, printerKind } from './printer-kind.js';

/** What the inventory needs of the agent: its workers, and a way to tell the cloud and pages. */
export interface InventoryDeps {
  config: LiveConfig;
  logger: AgentLogger;
  /** A printer's current status, as its worker knows it. */
  status(agentPrinterId: string): PrinterInfo['status'];
  /** Starts a worker for a printer found. */
  add(printer: ConfiguredPrinter): void;
  /** Stops the worker of a printer gone or hidden (not awaited by the pass). */
  remove(agentPrinterId: string): Promise<void>;
  /** Sends the `printers` message (kept while the link is down). */
  report(message: AgentMessageOf<'printers'>): void;
  /** Tells the pages the printers changed. */
  changed(): void;
}

/**
 * The printers this agent uses and reports: the configured ones, then those discovery found and
 * the person did not hide; a printer no longer found stays in the cloud's list, offline. Each
 * discovery pass is applied here, and the `printers` message goes out when the inventory changed.
 */
export class PrinterInventory {
  readonly #deps: InventoryDeps;
  #printers: ConfiguredPrinter[];
  #discovered: DiscoveredPrinter[];
  /** Found printers that are no longer found, reported offline (kept in the cloud's list). */
  readonly #gone = new Map<string, PrinterInfo>();
  /** The inventory as last reported (without statuses), to report only its changes. */
  #reported = '';

  constructor(deps: InventoryDeps, printers: ConfiguredPrinter[], discovered: DiscoveredPrinter[]) {
    this.#deps = deps;
    this.#printers = printers;
    this.#discovered = discovered;
  }

  /** The printers in use: the configured ones, then those found and not hidden. */
  get printers(): readonly ConfiguredPrinter[] {
    return this.#printers;
  }

  /** What the last discovery pass found. */
  get discovered(): readonly DiscoveredPrinter[] {
    return this.#discovered;
  }

  find(agentPrinterId: string): ConfiguredPrinter | undefined {
    return this.#printers.find((p) => p.agentPrinterId === agentPrinterId);
  }

  /** The printers as the protocol reports them: those in use, then those no longer found. */
  info(): PrinterInfo[] {
    return [
      ...this.#printers.map((printer, index) => this.#infoOf(printer, index === 0)),
      ...this.#gone.values(),
    ];
  }

  /** The inventory for `hello`, remembered as reported. */
  helloInventory(): { printers: PrinterInfo[]; hidden: string[] } {
    const printers = this.info();
    const hiddenPrinters = this.#deps.config.current.hiddenPrinters;
    this.#reported = inventoryKey(printers, this.#gone.keys(), hiddenPrinters);
    return { printers, hidden: hiddenPrinters.slice(-PROTOCOL_LIMITS.maxPrinters) };
  }

  /** Found printers the person hid, to show them again. */
  hidden(): Array<{ agentPrinterId: string; uri: string; name: string }> {
    return autoPrinters(this.#deps.config.current, this.#discovered).hidden.map((p) => ({
      agentPrinterId: p.agentPrinterId,
      uri: p.spec.uri,
      name: p.spec.name,
    }));
  }

  /** How a job is rendered for `printer`: its URI's settings, else the dashboard's defaults. */
  targetFor(printer: ConfiguredPrinter): RenderTarget {
    const defaults = this.#deps.config.current.printerDefaults[printer.agentPrinterId] ?? {};
    return {
      language: printer.spec.language,
      paper: printer.spec.paper ?? defaults.paper ?? '80mm',
      codepage: printer.spec.codepage ?? defaults.codepage ?? null,
      cut: defaults.cut ?? null,
      profileId: null,
      connection: printer.spec.target.connection,
      kind: printerKind(printer.spec, this.#discovered).kind,
      ...(printer.spec.language === 'escpos'
        ? {}
        : {
            label: {
              size: printer.spec.labelSize ?? defaults.labelSize ?? DEFAULT_LABEL_SIZE,
              dpi: printer.spec.dpi ?? defaults.dpi ?? DEFAULT_LABEL_DPI,
            },
          }),
    };
  }

  #infoOf(printer: ConfiguredPrinter, isDefault: boolean): PrinterInfo {
    const { spec } = printer;
    const target = this.targetFor(printer);
    const { kind, capabilities } = printerKind(spec, this.#discovered);
    return {
      agentPrinterId: printer.agentPrinterId,
      name: spec.name,
      alias: spec.alias,
      uri: spec.uri,
      connection: spec.target.connection,
      kind,
      language: spec.language,
      paper: spec.language === 'escpos' ? target.paper : spec.paper,
      ...(spec.language === 'escpos' ? {} : { labelSize: spec.labelSize, dpi: spec.dpi }),
      codepage: target.codepage,
      capabilities,
      status: this.#deps.status(printer.agentPrinterId),
      isDefault,
      reach: reachOf(spec.target),
    };
  }

  /**
   * Applies a discovery pass: printers found are used and reported, printers no longer found are
   * reported offline, hidden ones (`printers hide`, read from the data dir at each pass) are
   * neither. The `printers` message carries the inventory when it changed.
   */
  async apply(result: DiscoveryResult): Promise<void> {
    const { config, logger } = this.#deps;
    this.#discovered = result.printers;
    config.set(config.withDiskChanges());
    const auto = autoPrinters(config.current, result.printers);
    const changedIds =
      JSON.stringify(auto.config.printerIds) !== JSON.stringify(config.current.printerIds);
    config.set(auto.config);
    const next = [...configuredPrinters(config.current), ...auto.printers];
    // A USB printer busy with a job may be listed without its serial (it could not be opened,
    // as on Windows): while a device of its VID:PID is attached it is not gone.
    const usbAttached = new Set(
      result.printers.filter((p) => p.connection === 'usb').map((p) => usbModel(p.uri)),
    );
    for (const printer of this.#printers) {
      const { target } = printer.spec;
      if (target.connection !== 'usb' || target.serial === null) continue;
      if (next.some((p) => p.agentPrinterId === printer.agentPrinterId)) continue;
      if (config.current.hiddenPrinters.includes(printer.agentPrinterId)) continue;
      if (!usbAttached.has(usbModel(printer.spec.uri))) continue;
      const sameModel = next.findIndex(
        (p) =>
          p.spec.target.connection === 'usb' &&
          p.spec.target.serial === null &&
          usbModel(p.spec.uri) === usbModel(printer.spec.uri),
      );
      // The serial-less entry stands for this printer: not a new one.
      if (sameModel >= 0) next[sameModel] = printer;
      else next.push(printer);
    }
    const nextIds = new Set(next.map((p) => p.agentPrinterId));
    const hidden = new Set(config.current.hiddenPrinters);
    for (const printer of this.#printers) {
      if (nextIds.has(printer.agentPrinterId)) continue;
      const info = this.#infoOf(printer, false);
      // Not awaited: a long job on it (a spooler job waits up to 10 min) must not hold the pass.
      void this.#deps.remove(printer.agentPrinterId);
      if (!hidden.has(printer.agentPrinterId)) {
        this.#gone.set(printer.agentPrinterId, { ...info, status: 'offline' });
        logger.info(
          { printer: printer.agentPrinterId, uri: printer.spec.uri },
          'printer no longer found',
        );
      } else logger.info({ printer: printer.agentPrinterId }, 'printer hidden');
    }
    const current = new Set(this.#printers.map((p) => p.agentPrinterId));
    for (const printer of next) {
      this.#gone.delete(printer.agentPrinterId);
      if (current.has(printer.agentPrinterId)) continue;
      this.#deps.add(printer);
      logger.info({ printer: printer.agentPrinterId, uri: printer.spec.uri }, 'printer found');
    }
    for (const id of hidden) this.#gone.delete(id);
    this.#printers = next;
    if (changedIds) config.save();
    this.#reportIfChanged();
    this.#deps.changed();
  }

  /** Sends the `printers` message when the inventory changed since it was last reported. */
  #reportIfChanged(): void {
    const printers = this.info();
    const hidden = this.#deps.config.current.hiddenPrinters.slice(-PROTOCOL_LIMITS.maxPrinters);
    const key = inventoryKey(printers, this.#gone.keys(), hidden);
    if (key === this.#reported) return;
    this.#reported = key;
    this.#deps.report({ type: 'printers', printers, hidden });
  }
}

/** `usb://VID:PID` of a USB printer URI (its model, whatever its serial). */
function usbModel(uri: string): string {
  return uri.slice(0, 'usb://0000:0000'.length);
}

/**
 * An inventory as a string that changes when anything reported but a status does (statuses
 * travel as `printer.status`), or a printer stops being found.
 */
function inventoryKey(
  printers: PrinterInfo[],
  gone: Iterable<string>,
  hidden: readonly string[],
): string {
  return JSON.stringify([printers.map((p) => ({ ...p, status: null })), [...gone], hidden]);
}
