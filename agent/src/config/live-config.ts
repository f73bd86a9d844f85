import { loadConfig, saveConfig, type AgentConfigFile } from './config-store.js';
import type { AgentLogger } from '../logs/logger.js';

/**
 * The running agent's configuration (config.json), shared with other processes: the CLI hides
 * and shows printers (`printwire-agent printers hide|show`) and names the printers it lists
 * while the agent runs, so what is written keeps what they changed meanwhile.
 */
export class LiveConfig {
  #config: AgentConfigFile;
  readonly #dataDir: string;
  readonly #logger: AgentLogger;

  constructor(dataDir: string, config: AgentConfigFile, logger: AgentLogger) {
    this.#dataDir = dataDir;
    this.#config = config;
    this.#logger = logger;
  }

  get current(): AgentConfigFile {
    return this.#config;
  }

  /** Replaces the configuration in memory (`save` writes it). */
  set(config: AgentConfigFile): void {
    this.#config = config;
  }

  /**
   * `config` with what other processes changed in the data dir meanwhile: the printers hidden or
   * shown and ids the CLI gave to printers it listed.
   */
  withDiskChanges(config: AgentConfigFile = this.#config): AgentConfigFile {
    let disk: AgentConfigFile;
    try {
      disk = loadConfig(this.#dataDir);
    } catch (error) {
      this.#logger.warn({ err: error }, 'the configuration file could not be read again');
      return config;
    }
    return {
      ...config,
      hiddenPrinters: disk.hiddenPrinters,
      printerIds: { ...disk.printerIds, ...config.printerIds },
    };
  }

  /** Writes the configuration, keeping what other processes changed in it meanwhile. */
  save(): void {
    this.#config = this.withDiskChanges(this.#config);
    saveConfig(this.#dataDir, this.#config);
  }

  /** The printers' defaults the cloud sent (`welcome`, `config`), kept and written. */
  applyPrinterDefaults(config: {
    printers: Array<{
      agentPrinterId: string;
      defaults: AgentConfigFile['printerDefaults'][string];
    }>;
  }): void {
    const printerDefaults: AgentConfigFile['printerDefaults'] = {};
    for (const p of config.printers) printerDefaults[p.agentPrinterId] = p.defaults;
    this.#config = { ...this.#config, printerDefaults };
    this.save();
  }
}
