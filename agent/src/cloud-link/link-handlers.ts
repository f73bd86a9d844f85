import { arch, hostname, platform } from 'node:os';
import type { DispatchedJob } from '@printwire/shared/protocol/index';
import { AGENT_VERSION } from '../agent-options.js';
import { deleteDeviceToken } from '../config/config-store.js';
import type { LiveConfig } from '../config/live-config.js';
import type { JobRunner } from '../core/runner.js';
import type { PrinterInventory } from '../discovery/printer-inventory.js';
import type { LocalMode } from '../local-server/local-mode.js';
import type { AgentLogger } from '../logs/logger.js';
import type { JobQueue, ResultMessage } from '../queue/job-queue.js';
import type { CloudLink, CloudLinkHandlers } from './cloud-link.js';

/** What the cloud's messages act on. */
export interface LinkHandlerDeps {
  dataDir: string;
  queue: JobQueue;
  runner: JobRunner;
  inventory: PrinterInventory;
  config: LiveConfig;
  local: LocalMode;
  logger: AgentLogger;
  /** The link the answers go out on (null while the device is not activated). */
  link(): CloudLink | null;
  /** Tells the pages the jobs changed. */
  jobsChanged(): void;
}

/**
 * How the agent answers the cloud: its hello (the inventory and the queue), the configuration it
 * is sent, the jobs dispatched and cancelled, and the outbox the cloud confirms.
 */
export function linkHandlers(deps: LinkHandlerDeps): CloudLinkHandlers {
  const { queue, logger, config, local } = deps;
  const queueCounts = () => {
    const { queued, printing } = queue.summary();
    return { queued, printing };
  };
  return {
    hello: () => ({
      agentVersion: AGENT_VERSION,
      os: platform(),
      arch: arch(),
      hostname: hostname(),
      ...deps.inventory.helloInventory(),
      queue: queueCounts(),
    }),
    queueSummary: queueCounts,
    onWelcome: (welcome) => {
      config.applyPrinterDefaults(welcome.config);
      local.applyConfig(welcome.config);
    },
    onConfig: (cloudConfig) => {
      config.applyPrinterDefaults(cloudConfig);
      local.applyConfig(cloudConfig);
    },
    onDispatch: (job) => dispatch(deps, job),
    onCancel: (jobId) => {
      const answer = queue.cancel(jobId);
      logger.info({ jobId, reason: answer.reason }, 'cancel asked');
      // "not_started" promises the job never prints: true once the cancel is durable.
      whenFlushed(queue, logger, jobId, () => deps.link()?.send(answer));
    },
    onWithdraw: (jobId) => {
      const answer = queue.withdraw(jobId);
      logger.info({ jobId, withdrawn: answer.withdrawn, reason: answer.reason }, 'withdraw asked');
      // withdrawn: true promises that no byte goes out: sent once the drop is durable. The
      // answer stays in the outbox until the cloud acknowledges it.
      whenFlushed(queue, logger, jobId, () => deps.link()?.send(answer));
      if (answer.withdrawn) deps.jobsChanged();
    },
    outbox: () => queue.outbox(),
    onAck: (id) => queue.confirm(id),
    onFatal: (reason) => {
      logger.error({ reason }, 'device refused by the cloud; activate it again');
      deleteDeviceToken(deps.dataDir);
    },
  };
}

/**
 * Stores the job, then acknowledges it once the store is durable; a job known already is never
 * printed again. The flush's sync starts after this turn of the event loop: a worker that takes
 * the job at once commits its printing mark before that, so one sync serves both.
 */
function dispatch(deps: LinkHandlerDeps, job: DispatchedJob): void {
  const { queue, runner, logger } = deps;
  const outcome = queue.accept(job);
  if (outcome === 'withdrawn') {
    // A re-send of a dispatch this agent gave back: the cloud has the job elsewhere now, or
    // dispatches it again with a higher delivery. Not acknowledged, never printed.
    logger.warn(
      { jobId: job.id, attempt: job.attempt, delivery: job.delivery },
      'ignored a dispatch of a withdrawn job',
    );
    return;
  }
  let result: ResultMessage | null = null;
  if (outcome === 'finished') {
    result = queue.resultFor(job.id);
  } else if (!runner.has(job.agentPrinterId)) {
    result = queue.markFailed(job.id, {
      code: 'PRINTER_NOT_FOUND',
      message: `this agent has no printer ${job.agentPrinterId}`,
      retryable: false,
    });
  }
  // Asked before the worker's flushes, so the ack goes out before the job's progress.
  whenFlushed(queue, logger, job.id, () => {
    deps.link()?.send({
      type: 'job.ack',
      jobId: job.id,
      attempt: job.attempt,
      ...(job.delivery !== undefined ? { delivery: job.delivery } : {}),
    });
    logger.info({ jobId: job.id, outcome }, 'job received');
    if (result) deps.link()?.send(result);
  });
  if (outcome !== 'finished' && !result) runner.wake(job.agentPrinterId);
  deps.jobsChanged();
}

/** Runs `then` once the queue's commits so far are durable (never, if the sync fails). */
export function whenFlushed(
  queue: JobQueue,
  logger: AgentLogger,
  jobId: string,
  then: () => void,
): void {
  queue
    .flush()
    .then(then, (error: unknown) =>
      logger.error({ err: error, jobId }, 'the queue could not be synced to disk'),
    );
}
