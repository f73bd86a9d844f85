/**
 * What the agent reports about each printer's kind and capabilities, and which discovered
 * printers it uses by itself. Pure.
 */
import {
  newPrinterId,
  type AgentConfigFile,
  type ConfiguredPrinter,
} from '../config/config-store.js';
import { parsePrinterUri, type PrinterSpec } from '../config/printer-uri.js';
import { capabilitiesOf, classifyQueue, type PrinterKind } from './classify.js';
import type { DiscoveredPrinter } from './discover.js';

/** What receipt printers can do beyond the job types they take. */
const RECEIPT_EXTRAS = ['cut', 'drawer'];

/**
 * A printer's kind and capabilities: those discovery found for the same physical printer when
 * it did, else guessed from its URI (a system queue by its name, a raw printer by its language).
 */
export function printerKind(
  spec: PrinterSpec,
  discovered: readonly DiscoveredPrinter[] = [],
): { kind: PrinterKind; capabilities: string[] } {
  const found = discovered.find((d) => connectionKeyOf(d.uri) === spec.connectionKey);
  let kind: PrinterKind;
  if (spec.language !== 'escpos') kind = 'label';
  else if (found) kind = found.kind;
  else if (spec.target.connection === 'system') {
    kind = classifyQueue({
      name: spec.target.queue,
      description: spec.name,
      device: null,
      isDefault: false,
    }).kind;
  } else kind = 'receipt';
  const capabilities =
    found && found.kind === kind && found.language === spec.language
      ? found.capabilities
      : capabilitiesOf(kind, spec.language, spec.language === 'escpos');
  return {
    kind,
    capabilities: kind === 'receipt' ? [...capabilities, ...RECEIPT_EXTRAS] : capabilities,
  };
}

function connectionKeyOf(uri: string): string | null {
  try {
    return parsePrinterUri(uri).connectionKey;
  } catch {
    return null;
  }
}

/**
 * The discovered printers the agent uses beside its configured ones: USB printers and system
 * queues (serial ports are not necessarily printers and need their baud rate) that are not
 * configured already, each with the id remembered for its connection in `config.printerIds`, so
 * it keeps its id (and its cloud printer, alias and defaults) across restarts. Those the person
 * hid (`config.hiddenPrinters`) are returned apart. They are not written into `config.printers`:
 * a printer unplugged is simply not found at the next start. Returns the config with the new ids.
 */
export function autoPrinters(
  config: AgentConfigFile,
  discovered: readonly DiscoveredPrinter[],
  makeId: () => string = newPrinterId,
): { config: AgentConfigFile; printers: ConfiguredPrinter[]; hidden: ConfiguredPrinter[] } {
  const printerIds = { ...config.printerIds };
  const printers: ConfiguredPrinter[] = [];
  const hidden: ConfiguredPrinter[] = [];
  const seen = new Set<string>(config.printers.map((p) => connectionKeyOf(p.uri) ?? p.uri));
  for (const found of discovered) {
    if (found.connection === 'serial') continue;
    let spec: PrinterSpec;
    try {
      const named = `${found.uri}${found.uri.includes('?') ? '&' : '?'}name=${encodeURIComponent(found.name)}`;
      spec = parsePrinterUri(named);
    } catch {
      continue;
    }
    if (seen.has(spec.connectionKey)) continue;
    seen.add(spec.connectionKey);
    const agentPrinterId = printerIds[spec.connectionKey] ?? makeId();
    printerIds[spec.connectionKey] = agentPrinterId;
    (config.hiddenPrinters.includes(agentPrinterId) ? hidden : printers).push({
      agentPrinterId,
      spec,
    });
  }
  return { config: { ...config, printerIds }, printers, hidden };
}
