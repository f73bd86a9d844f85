import { arch, hostname, platform } from 'node:os';
import { PrintwireError } from '@printwire/shared/errors/index';
import { AGENT_VERSION, DISCOVERY_TIMEOUT_MS, type AgentOptions } from './agent-options.js';
import { activate, type Activation } from './cloud-link/activation.js';
import {
  ensureDataDir,
  loadConfig,
  readDeviceToken,
  saveConfig,
  setPrinters,
  writeDeviceToken,
  type AgentConfigFile,
  type ConfiguredPrinter,
} from './config/config-store.js';
import { systemClock } from './core/clock.js';
import type { DiscoveredPrinter } from './discovery/discover.js';
import { discoverWithin } from './discovery/discovery-loop.js';
import { autoPrinters } from './discovery/printer-kind.js';
import { createLogger, type AgentLogger } from './logs/logger.js';
import type { JobQueue } from './queue/job-queue.js';

/** What discovery found at start-up: the printers, those the agent uses, what it could not search. */
export interface FoundAtStart {
  discovered: DiscoveredPrinter[];
  auto: ConfiguredPrinter[];
  problems: string[];
}

/** The data dir made ready for an agent: its configuration, token, log and printers. */
export interface PreparedDataDir {
  config: AgentConfigFile;
  token: string | null;
  logger: AgentLogger;
  found: FoundAtStart;
}

/**
 * Loads the data dir, applies `--cloud` and `--printer`, activates the device when it has an
 * activation code and no token, looks for printers once (when discovery is on) and writes the
 * configuration.
 */
export async function prepareDataDir(options: AgentOptions): Promise<PreparedDataDir> {
  ensureDataDir(options.dataDir);
  const logger = options.logger ?? createLogger({ dataDir: options.dataDir });
  let config = loadConfig(options.dataDir);
  if (options.cloudUrl) config = { ...config, cloudUrl: options.cloudUrl };
  if (options.printers && options.printers.length > 0)
    config = setPrinters(config, options.printers);
  let token = readDeviceToken(options.dataDir);
  if (token && options.activationCode) {
    logger.info(
      'already activated: --activation-code is not used (delete device-token to re-activate)',
    );
  }
  if (!token && options.activationCode) {
    if (!config.cloudUrl)
      throw new PrintwireError('VALIDATION_FAILED', '--cloud is needed to activate');
    const name = options.deviceName ?? hostname();
    const activation = await activateDevice(config.cloudUrl, options.activationCode, name);
    writeDeviceToken(options.dataDir, activation.deviceToken);
    token = activation.deviceToken;
    config = {
      ...config,
      deviceId: activation.deviceId,
      organizationId: activation.organizationId,
      deviceName: name,
    };
    logger.info({ deviceId: activation.deviceId }, 'device activated');
  }
  let found: FoundAtStart = { discovered: [], auto: [], problems: [] };
  if (options.discovery) {
    const clock = options.clock ?? systemClock;
    const result = await discoverWithin(options.discovery, clock, DISCOVERY_TIMEOUT_MS);
    for (const problem of result.problems) logger.warn({ problem }, 'printers not searched');
    const auto = autoPrinters(config, result.printers);
    config = auto.config;
    found = { discovered: result.printers, auto: auto.printers, problems: result.problems };
    if (auto.printers.length > 0) {
      logger.info({ printers: auto.printers.map((p) => p.spec.uri) }, 'printers found');
    }
  }
  saveConfig(options.dataDir, config);
  return { config, token, logger, found };
}

/** Activates this computer with a dashboard's activation code (`POST /agent/v1/activate`). */
export function activateDevice(cloudUrl: string, code: string, name: string): Promise<Activation> {
  return activate({
    cloudUrl,
    code,
    name,
    os: platform(),
    arch: arch(),
    agentVersion: AGENT_VERSION,
  });
}

/**
 * Settles what a previous run left in the queue: a job interrupted by a crash fails (it may be
 * on paper already), a job for a printer no longer configured fails, old finished jobs go.
 */
export function settleQueue(
  queue: JobQueue,
  printers: readonly ConfiguredPrinter[],
  logger: AgentLogger,
): void {
  for (const result of queue.recoverInterrupted()) {
    logger.warn(
      { jobId: result.jobId },
      'job interrupted by a crash; reported failed, not printed again',
    );
  }
  // Jobs left for a printer that was removed from the configuration can never print.
  const known = new Set(printers.map((p) => p.agentPrinterId));
  for (const printerId of queue.printersWithQueuedJobs().filter((p) => !known.has(p))) {
    for (const jobId of queue.queuedJobIds(printerId)) {
      queue.markFailed(jobId, {
        code: 'PRINTER_NOT_FOUND',
        message: `printer ${printerId} is no longer configured on this agent`,
        retryable: false,
      });
    }
  }
  queue.prune();
}
