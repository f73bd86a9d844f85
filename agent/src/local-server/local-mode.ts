import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  configPrinterGroupSchema,
  type ConfigPrinterGroup,
  type PrinterInfo,
} from '@printwire/shared/protocol/index';
import type { Clock } from '../core/clock.js';
import type { AgentLogger } from '../logs/logger.js';
import type { JobQueue } from '../queue/job-queue.js';
import { AgentBackend } from './agent-backend.js';
import type { LocalInfo } from './backend.js';
import {
  loadLocalSettings,
  loadTemplates,
  localSettingsSchema,
  saveLocalSettings,
  saveTemplates,
  storedTemplateSchema,
  type LocalSettings,
  type StoredTemplate,
} from './local-store.js';
import { LocalServer } from './server.js';
import { ensureLocalTls } from './tls.js';
import type { OriginPrompt } from './trust.js';
import type { WindowPrompts } from '../window/prompts.js';
import type { LocalServerOptions } from './server.js';

/** Written while the local server listens, so `printwire-agent status` can name it. */
export const LOCAL_SERVER_FILE = 'local-server.json';
const CLOUD_PRINTERS_FILE = 'cloud-printers.json';
/** The organization's printer groups with members on this computer (from the last config). */
const PRINTER_GROUPS_FILE = 'printer-groups.json';

export interface LocalModeOptions {
  /** `--local-port`; default the first free of 21910-21913. */
  port?: number;
  /** The desktop shell's prompt for unsigned origins (none: headless, refused and logged). */
  prompt?: OriginPrompt;
  /**
   * The trust prompt answered in the agent's window (the desktop app): its `ask` becomes
   * `prompt` and the window lists the questions.
   */
  prompts?: WindowPrompts;
}

export interface LocalModeDeps {
  dataDir: string;
  queue: JobQueue;
  clock: Clock;
  logger: AgentLogger;
  production: boolean;
  info(): LocalInfo;
  printers(): PrinterInfo[];
  /** Stores are flushed and the printer woken; the report goes to the cloud. */
  jobStored(jobId: string, agentPrinterId: string): Promise<void>;
  cancel(jobId: string): Promise<void>;
}

const configPartSchema = z.object({
  printers: z
    .array(z.object({ agentPrinterId: z.string(), printerId: z.string().nullable() }))
    .optional(),
  templates: z.array(storedTemplateSchema).optional(),
  local: localSettingsSchema.optional(),
  printerGroups: z.array(configPrinterGroupSchema).optional(),
});

/**
 * Local mode's state in the agent: the organization's local settings and templates (from the
 * cloud's config, kept in the data dir so they hold offline), the cloud printer ids, the
 * backend of the local API, and the server when it runs.
 */
export class LocalMode {
  readonly backend: AgentBackend;
  #settings: LocalSettings;
  #templates: Map<string, StoredTemplate>;
  #cloudPrinterIds: Record<string, string>;
  #printerGroups: ConfigPrinterGroup[];
  #server: LocalServer | null = null;
  readonly #d: LocalModeDeps;

  constructor(deps: LocalModeDeps) {
    this.#d = deps;
    this.#settings = loadLocalSettings(deps.dataDir);
    this.#templates = new Map(loadTemplates(deps.dataDir).map((t) => [t.id, t]));
    this.#cloudPrinterIds = readCloudPrinterIds(deps.dataDir);
    this.#printerGroups = readPrinterGroups(deps.dataDir);
    this.backend = new AgentBackend({
      ...deps,
      cloudPrinterId: (id) => this.#cloudPrinterIds[id] ?? null,
      printerGroup: (id) => this.#printerGroups.find((g) => g.id === id),
      settings: () => this.#settings,
      template: (id) => this.#templates.get(id),
    });
  }

  get settings(): LocalSettings {
    return this.#settings;
  }

  get templates(): StoredTemplate[] {
    return [...this.#templates.values()];
  }

  get server(): LocalServer | null {
    return this.#server;
  }

  /**
   * Takes what local mode needs from a `welcome` or `config` (the whole config each time):
   * printer ids, templates and settings; a part an older cloud leaves out is kept as it was.
   */
  applyConfig(config: unknown): void {
    const parsed = configPartSchema.safeParse(config);
    if (!parsed.success) {
      this.#d.logger.warn(
        { error: parsed.error.message },
        'local settings in the config not understood',
      );
      return;
    }
    const { printers, templates, local, printerGroups } = parsed.data;
    if (printers) {
      const ids: Record<string, string> = {};
      for (const p of printers) if (p.printerId) ids[p.agentPrinterId] = p.printerId;
      this.#cloudPrinterIds = ids;
      writeFileSync(join(this.#d.dataDir, CLOUD_PRINTERS_FILE), JSON.stringify(ids) + '\n');
    }
    if (templates) {
      this.#templates = new Map(templates.map((t) => [t.id, t]));
      saveTemplates(this.#d.dataDir, templates);
    }
    if (local) {
      this.#settings = local;
      saveLocalSettings(this.#d.dataDir, local);
    }
    if (printerGroups) {
      this.#printerGroups = printerGroups;
      writeFileSync(
        join(this.#d.dataDir, PRINTER_GROUPS_FILE),
        JSON.stringify(printerGroups) + '\n',
      );
      this.backend.moveHeldGroupJobs();
    }
  }

  /** Makes the TLS material if needed and listens; returns the port. */
  async start(options: LocalModeOptions, window?: LocalServerOptions['window']): Promise<number> {
    const tls = ensureLocalTls(this.#d.dataDir);
    const server = new LocalServer({
      backend: this.backend,
      tls,
      logger: this.#d.logger,
      nowSeconds: () => Math.floor(this.#d.clock.now() / 1000),
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.prompt ? { prompt: options.prompt } : {}),
      ...(options.prompts && !options.prompt ? { prompt: options.prompts.ask } : {}),
      ...(window ? { window } : {}),
    });
    const port = await server.listen();
    this.#server = server;
    writeFileSync(
      join(this.#d.dataDir, LOCAL_SERVER_FILE),
      JSON.stringify({ port, url: server.url, pid: process.pid }) + '\n',
    );
    this.#d.logger.info({ port, url: server.url }, 'local server listening');
    return port;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    if (!server) return;
    rmSync(join(this.#d.dataDir, LOCAL_SERVER_FILE), { force: true });
    await server.close();
  }
}

function readCloudPrinterIds(dataDir: string): Record<string, string> {
  const path = join(dataDir, CLOUD_PRINTERS_FILE);
  if (!existsSync(path)) return {};
  try {
    return z.record(z.string(), z.string()).parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return {};
  }
}

function readPrinterGroups(dataDir: string): ConfigPrinterGroup[] {
  const path = join(dataDir, PRINTER_GROUPS_FILE);
  if (!existsSync(path)) return [];
  try {
    return z.array(configPrinterGroupSchema).parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return [];
  }
}

/**
 * The running agent's local server as `status --json` reports it: `{ port, url }`, or null when
 * it is off or the agent that wrote the file is gone.
 */
export function readLocalServerState(dataDir: string): { port: number; url: string } | null {
  const path = join(dataDir, LOCAL_SERVER_FILE);
  if (!existsSync(path)) return null;
  try {
    const value = z
      .object({ port: z.number().int(), url: z.string(), pid: z.number().int() })
      .parse(JSON.parse(readFileSync(path, 'utf8')));
    try {
      process.kill(value.pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return null;
    }
    return { port: value.port, url: value.url };
  } catch {
    return null;
  }
}
