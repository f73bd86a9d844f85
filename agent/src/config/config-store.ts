import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { PrintwireError } from '@printwire/shared/errors/index';
import { parsePrinterUri, type PrinterSpec } from './printer-uri.js';

export const CONFIG_FILE = 'config.json';
export const TOKEN_FILE = 'device-token';

const printerDefaultsSchema = z.object({
  paper: z.enum(['58mm', '80mm']).optional(),
  labelSize: z.string().optional(),
  dpi: z.union([z.literal(203), z.literal(300), z.literal(600)]).optional(),
  codepage: z.string().optional(),
  cut: z.enum(['full', 'partial', 'none']).optional(),
});

const configFileSchema = z.object({
  version: z.literal(1),
  cloudUrl: z.string().nullable(),
  deviceId: z.string().nullable(),
  organizationId: z.string().nullable(),
  deviceName: z.string().nullable(),
  /** The printers in use, by URI, with their stable ids. */
  printers: z.array(z.object({ agentPrinterId: z.string(), uri: z.string() })),
  /** Every id ever given, by connection key, so a printer removed and added back keeps it. */
  printerIds: z.record(z.string(), z.string()),
  /** Defaults pushed by the cloud, by agentPrinterId. */
  printerDefaults: z.record(z.string(), printerDefaultsSchema),
  localPort: z.number().int().min(0).max(65535).nullable(),
  /** Printers found on this computer that the person hid (`printers hide ID`): not reported. */
  hiddenPrinters: z.array(z.string()),
});
export type AgentConfigFile = z.infer<typeof configFileSchema>;

export function emptyConfig(): AgentConfigFile {
  return {
    version: 1,
    cloudUrl: null,
    deviceId: null,
    organizationId: null,
    deviceName: null,
    printers: [],
    printerIds: {},
    printerDefaults: {},
    localPort: null,
    hiddenPrinters: [],
  };
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
function writeAtomic(path: string, text: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

export function ensureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Reads `config.json` of the data dir; a missing file is an empty configuration. */
export function loadConfig(dir: string): AgentConfigFile {
  const path = join(dir, CONFIG_FILE);
  if (!existsSync(path)) return emptyConfig();
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new PrintwireError(
      'VALIDATION_FAILED',
      `${path} is not JSON: ${(error as Error).message}`,
    );
  }
  const result = configFileSchema.safeParse({ ...emptyConfig(), ...(value as object) });
  if (!result.success) {
    const first = result.error.issues[0];
    throw new PrintwireError(
      'VALIDATION_FAILED',
      `${path}: ${first?.path.join('.') ?? ''}: ${first?.message ?? 'invalid'}`,
    );
  }
  return result.data;
}

export function saveConfig(dir: string, config: AgentConfigFile): void {
  ensureDataDir(dir);
  writeAtomic(join(dir, CONFIG_FILE), JSON.stringify(config, null, 2) + '\n', 0o600);
}

/** The device token, or null before activation. */
export function readDeviceToken(dir: string): string | null {
  const path = join(dir, TOKEN_FILE);
  if (!existsSync(path)) return null;
  const token = readFileSync(path, 'utf8').trim();
  return token === '' ? null : token;
}

/** Stores the device token readable by its owner only (0600). */
export function writeDeviceToken(dir: string, token: string): void {
  ensureDataDir(dir);
  writeAtomic(join(dir, TOKEN_FILE), token + '\n', 0o600);
}

export function deleteDeviceToken(dir: string): void {
  rmSync(join(dir, TOKEN_FILE), { force: true });
}

export function newPrinterId(): string {
  return `prn_${randomBytes(8).toString('hex')}`;
}

/**
 * Makes the configured printers exactly `uris`, keeping each physical printer's agentPrinterId
 * (matched by connection key, so changing its name or paper keeps the id). Throws on a bad URI.
 */
export function setPrinters(
  config: AgentConfigFile,
  uris: string[],
  makeId: () => string = newPrinterId,
): AgentConfigFile {
  const printerIds = { ...config.printerIds };
  const seen = new Set<string>();
  const printers = uris.map((uri) => {
    const spec = parsePrinterUri(uri);
    if (seen.has(spec.connectionKey)) {
      throw new PrintwireError('VALIDATION_FAILED', `printer ${spec.connectionKey} is given twice`);
    }
    seen.add(spec.connectionKey);
    const id = printerIds[spec.connectionKey] ?? makeId();
    printerIds[spec.connectionKey] = id;
    return { agentPrinterId: id, uri: spec.uri };
  });
  return { ...config, printers, printerIds };
}

/** A configured printer: its id and what its URI says. */
export interface ConfiguredPrinter {
  agentPrinterId: string;
  spec: PrinterSpec;
}

export function configuredPrinters(config: AgentConfigFile): ConfiguredPrinter[] {
  return config.printers.map((p) => ({
    agentPrinterId: p.agentPrinterId,
    spec: parsePrinterUri(p.uri),
  }));
}

/**
 * Hides a printer found on this computer (`printwire-agent printers hide ID`) or shows it again:
 * a hidden printer is neither used nor reported. `id` is an agentPrinterId this data dir gave;
 * a printer configured with --printer is not hidden but removed from --printer.
 */
export function setPrinterHidden(
  config: AgentConfigFile,
  id: string,
  hidden: boolean,
): AgentConfigFile {
  if (!Object.values(config.printerIds).includes(id)) {
    throw new PrintwireError(
      'PRINTER_NOT_FOUND',
      `no printer ${id} on this agent (printwire-agent printers lists the ids)`,
    );
  }
  if (hidden && config.printers.some((p) => p.agentPrinterId === id)) {
    throw new PrintwireError(
      'VALIDATION_FAILED',
      `printer ${id} is configured with --printer: start the agent without it instead of hiding it`,
    );
  }
  const others = config.hiddenPrinters.filter((p) => p !== id);
  return { ...config, hiddenPrinters: hidden ? [...others, id] : others };
}
