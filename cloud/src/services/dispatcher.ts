/**
 * JobDispatcher: pushes live jobs to the devices whose WebSocket this instance holds, and turns
 * what agents report into job transitions.
 *
 * - A job created for an online device goes out at once (queued → sending, dispatchedAt set):
 *   every instance hears `job.state_changed` on the bus, and the one holding the device's socket
 *   sends it. A device that connects gets its queued jobs oldest first, after the jobs it was sent
 *   and has not acknowledged (at least once on the wire).
 * - Retries have ONE owner, the agent: it reports a retry as `job.progress retry_scheduled`
 *   (recorded here as sending → queued, `job.queued`) and the retry's start as `printing` (queued
 *   → sending). Such a job stays with the agent: the cloud does not send it again. A `job.result`
 *   is final: printed → printed, failed → failed with the agent's errorCode and errorMessage.
 * - Repeated results are one result: a finished job only gets its `ack`.
 */
import type { Logger } from 'pino';
import { PrintwireError } from '@printwire/shared/errors/index';
import type {
  AgentMessageOf,
  CloudMessage,
  DispatchedJob,
  DispatchedJobOptions,
} from '@printwire/shared/protocol/index';
import type { JobStateChanged } from '../bus/events.js';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../storage/store.js';
import type { JobContent } from '../storage/jobs.js';
import type { Job, JobState } from '../storage/types.js';
import { Batched } from '../lib/batched.js';
import { GroupRouter, type WithdrawChannel } from './group-router.js';
import type { JobService } from './jobs.js';

/** The gateway's handle on one connected device (on this instance). */
export interface DeviceLink {
  organizationId: string;
  deviceId: string;
  /** Sends a message; false when the socket is gone. */
  send(message: CloudMessage): boolean;
  /** What the agent announced in hello (`job.withdraw`: it gives back a job not started). */
  readonly features?: readonly string[];
}

export interface DispatcherOptions {
  /** Most devices whose backlog is sent at the same time (after a restart: no storm). */
  maxConcurrentBacklogs: number;
  /** Jobs read per backlog query. */
  backlogBatch: number;
  /** How far back cancelled jobs are told to the agent again after a reconnect. */
  cancelMemoryMs: number;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  maxConcurrentBacklogs: 4,
  backlogBatch: 100,
  cancelMemoryMs: 24 * 3_600_000,
};

export interface DispatcherDeps {
  store: Store;
  jobs: JobService;
  clock: Clock;
  logger: Logger;
  options?: Partial<DispatcherOptions>;
}

const DISPATCH_OPTIONS = ['copies', 'cut', 'openDrawer', 'codepage', 'footer'] as const;

/**
 * Whether the agent tells dispatches of a job apart by `delivery` (it announced `job.delivery`).
 * An older agent tells them apart by `attempt`, so for it a delivery raises the attempt, as it
 * always did (up to maxAttempts: a group job moved that often may then be refused as stale).
 */
function knowsDelivery(features: readonly string[] | undefined): boolean {
  return features?.includes('job.delivery') ?? false;
}

/** The `attempt` a dispatch of `job` carries to an agent with `features`. */
export function wireAttempt(job: Job, features: readonly string[] | undefined): number {
  const attempt = knowsDelivery(features) ? job.attempt : Math.max(job.attempt, job.deliveries);
  return Math.min(Math.max(attempt, 1), job.maxAttempts);
}

/**
 * What tells this dispatch of the job apart, as the agent's `job.ack` and `job.withdrawn` name
 * it: the delivery, or for an older agent the attempt.
 */
function dispatchKey(job: Job, features: readonly string[] | undefined): string {
  return knowsDelivery(features)
    ? `${job.id}:d${Math.max(job.deliveries, 1)}`
    : `${job.id}:a${wireAttempt(job, features)}`;
}

/** The job as the protocol's `job.dispatch` carries it to an agent with `features` (pure). */
export function toDispatchedJob(
  job: Job,
  content: Buffer,
  agentPrinterId: string,
  features?: readonly string[],
): DispatchedJob {
  const options: Record<string, unknown> = {};
  for (const key of DISPATCH_OPTIONS) {
    if (job.options[key] !== undefined) options[key] = job.options[key];
  }
  let body: DispatchedJob['content'];
  if (job.encoding === 'json')
    body = JSON.parse(content.toString('utf8')) as Record<string, unknown>;
  else if (job.encoding === 'base64') body = content.toString('base64');
  else body = content.toString('utf8');
  return {
    id: job.id,
    attempt: wireAttempt(job, features),
    maxAttempts: job.maxAttempts,
    delivery: Math.max(job.deliveries, 1),
    agentPrinterId,
    type: job.type as DispatchedJob['type'],
    encoding: job.encoding as DispatchedJob['encoding'],
    content: body,
    options: options as DispatchedJobOptions,
    expiresAt: job.expiresAt === null ? null : new Date(job.expiresAt).toISOString(),
    createdAt: new Date(job.createdAt).toISOString(),
  };
}

/** Most printers whose agent id is remembered (see `JobDispatcher.printerOf`). */
const MAX_KNOWN_PRINTERS = 100_000;

export class JobDispatcher implements WithdrawChannel {
  /** Printer-group jobs: handed to members as their status changes, moved while not started. */
  readonly groups: GroupRouter;
  private readonly links = new Map<string, DeviceLink>();
  /**
   * Printer id → its device and agent printer id. Both never change for a printer (printers are
   * never deleted or moved), so what was read once saves the read for every later job.
   */
  private readonly printers = new Map<string, { deviceId: string; agentPrinterId: string }>();
  /** Group jobs asked back (`job.withdraw`) from an agent connected here: job id → delivery. */
  private readonly withdrawing = new Map<string, number>();
  /**
   * Dispatches acknowledged by an agent connected here (`dispatchKey`; lost on restart: then
   * re-sent).
   */
  private readonly acked = new Set<string>();
  private readonly options: DispatcherOptions;
  private backlogsRunning = 0;
  private readonly backlogWaiters: Array<() => void> = [];
  /** Whether devices that just connected are owed anything: one read for those arriving together. */
  private readonly owed: Batched<DeviceLink, boolean>;

  constructor(private readonly deps: DispatcherDeps) {
    this.options = { ...DEFAULT_DISPATCHER_OPTIONS, ...deps.options };
    this.groups = new GroupRouter(deps, this);
    this.owed = new Batched(async (links) => {
      const owed = await deps.store.devices.devicesOwed(
        links,
        deps.clock.now() - this.options.cancelMemoryMs,
      );
      return links.map((l) => owed.has(l.deviceId));
    });
  }

  /** The device is connected here from now on (replacing an older link of the same device). */
  attach(link: DeviceLink): void {
    this.links.set(link.deviceId, link);
  }

  detach(link: DeviceLink): void {
    if (this.links.get(link.deviceId) === link) this.links.delete(link.deviceId);
  }

  isConnectedHere(deviceId: string): boolean {
    return this.links.has(deviceId);
  }

  /** Bus handler: sends a new job to its device, or a cancel to the agent holding the job. */
  onJobEvent(event: JobStateChanged): void {
    // A local job is the agent's own report: the cloud never sends it (nor cancels it).
    if (event.mode !== 'live' || event.job.source === 'local') return;
    const deviceId = typeof event.job.deviceId === 'string' ? event.job.deviceId : null;
    if (!deviceId) return;
    const link = this.links.get(deviceId);
    if (!link || link.organizationId !== event.organizationId) return;
    if (event.state === 'queued' && event.job.dispatchedAt === null) {
      void this.dispatchOne(link, event.jobId).catch((err: unknown) =>
        this.deps.logger.error({ err, jobId: event.jobId }, 'dispatching a job failed'),
      );
    } else if (event.state === 'cancelled' && event.job.dispatchedAt !== null) {
      link.send({ type: 'job.cancel', jobId: event.jobId });
    }
  }

  /**
   * After `welcome`: re-sends the jobs sent and not acknowledged, then the queued ones oldest
   * first, then cancels of dispatched jobs cancelled meanwhile. One read for the devices
   * connecting together first tells which are owed anything: after a reconnect storm most are
   * not, and they neither wait for a backlog slot nor cost a read of their own. Backlogs with
   * something to send run a few devices at a time, so that a restarted cloud does not read and
   * send every backlog at once.
   */
  async sendBacklog(link: DeviceLink): Promise<void> {
    if (!(await this.owed.call(link))) return;
    await this.acquireBacklogSlot();
    try {
      if (this.links.get(link.deviceId) !== link) return;
      const { store, clock } = this.deps;
      const limit = this.options.backlogBatch;
      const cancelledAfter = clock.now() - this.options.cancelMemoryMs;
      const owed = await store.devices.backlog(link.organizationId, link.deviceId, {
        limit,
        cancelledAfter,
      });
      // Fewer than a batch: that read was all of it. Otherwise state by state, batch by batch.
      if (owed.length < limit) await this.sendOwed(link, owed);
      else await this.sendBacklogInBatches(link, cancelledAfter);
    } finally {
      this.releaseBacklogSlot();
    }
  }

  private async sendOwed(link: DeviceLink, owed: Job[]): Promise<void> {
    for (const job of owed.filter((j) => j.state === 'sending')) {
      if (!(await this.resend(link, job))) return;
    }
    // Queued after a dispatch: the agent holds it for a retry of its own.
    for (const job of owed.filter((j) => j.state === 'queued' && j.dispatchedAt === null)) {
      if (this.links.get(link.deviceId) !== link) return;
      await this.dispatchOne(link, job.id);
    }
    for (const job of owed.filter((j) => j.state === 'cancelled')) {
      link.send({ type: 'job.cancel', jobId: job.id });
    }
  }

  private async sendBacklogInBatches(link: DeviceLink, cancelledAfter: number): Promise<void> {
    const { store } = this.deps;
    const { organizationId: org, deviceId } = link;
    const limit = this.options.backlogBatch;
    const sending = await store.devices.listJobs(org, deviceId, 'sending', { limit });
    for (const job of sending) {
      if (!(await this.resend(link, job))) return;
    }
    for (;;) {
      const queued = await store.devices.listJobs(org, deviceId, 'queued', { limit });
      // Queued after a dispatch: the agent holds it for a retry of its own.
      const fresh = queued.filter((j) => j.dispatchedAt === null);
      let sent = 0;
      for (const job of fresh) {
        if (this.links.get(deviceId) !== link) return;
        if (await this.dispatchOne(link, job.id)) sent++;
      }
      if (queued.length < limit || sent === 0) break;
    }
    const cancelled = await store.devices.listJobs(org, deviceId, 'cancelled', {
      limit,
      dispatchedOnly: true,
      finishedAfter: cancelledAfter,
    });
    for (const job of cancelled) link.send({ type: 'job.cancel', jobId: job.id });
  }

  /** A job sent and not acknowledged goes again (unless acknowledged here); false: link gone. */
  private async resend(link: DeviceLink, job: Job): Promise<boolean> {
    if (this.acked.has(dispatchKey(job, link.features))) return true;
    const content = await this.deps.store.jobs.getContent(link.organizationId, 'live', job.id);
    return this.sendJob(link, job, content);
  }

  /**
   * Sends a queued job, then records queued → sending. The message goes out before the write, and
   * the write does not wait for a sync of its own: a crash or power cut that loses it leaves the
   * job queued, so it is sent again after the reconnect, and the agent acknowledges a job it
   * already has without printing it twice. Not syncing keeps the cloud's disk free for the
   * agent's sync of the same job when both run on one machine. False when the job was not (or is
   * no longer) queued for this device.
   */
  async dispatchOne(link: DeviceLink, jobId: string): Promise<boolean> {
    const { store } = this.deps;
    // One read: the content is needed whenever the job is still queued, the usual case.
    const found = await store.jobs.getForDispatch(link.organizationId, 'live', jobId);
    const job = found?.job;
    if (!job || job.state !== 'queued' || job.deviceId !== link.deviceId) return false;
    const content = found.content ? { content: found.content, preview: null } : undefined;
    if (job.printerGroupId !== null) return this.dispatchGroupJob(link, job, content);
    const next = { ...job, attempt: job.attempt + 1, deliveries: job.deliveries + 1 };
    if (!(await this.sendJob(link, next, content))) return false;
    try {
      await this.deps.jobs.transition(link.organizationId, jobId, 'sending', {}, null, {
        durable: false,
      });
      return true;
    } catch (error) {
      if (!(error instanceof PrintwireError)) throw error;
      // Cancelled meanwhile: tell the agent. Otherwise its report moved the job on already.
      const now = await this.deps.store.jobs.get(link.organizationId, 'live', jobId);
      if (now?.state === 'cancelled') link.send({ type: 'job.cancel', jobId });
      return false;
    }
  }

  /**
   * A printer-group job is claimed before it is sent: queued → sending only while its member is
   * still this one (another instance may have moved it), so that it never reaches two members.
   * Sent and not acknowledged, it is sent again with the device's backlog (it never moves without
   * the agent giving it back: the agent may have stored it before its acknowledgement was lost).
   */
  private async dispatchGroupJob(
    link: DeviceLink,
    job: Job,
    content: JobContent | undefined,
  ): Promise<boolean> {
    const { store, clock, jobs } = this.deps;
    let claimed;
    try {
      claimed = await store.jobs.transition(
        link.organizationId,
        null,
        job.id,
        'sending',
        { onlyIfPrinter: job.printerId },
        clock.now(),
        { durable: false },
      );
    } catch (error) {
      if (!(error instanceof PrintwireError)) throw error;
      return false;
    }
    // The job as claimed (not read again: a later change must not redirect this send), sent
    // before its change is announced, as a single printer's job is.
    const sent = await this.sendJob(link, claimed.job, content);
    await jobs.publish(claimed.job, [claimed.event]);
    return sent;
  }

  /**
   * `job.withdraw` to the agent holding the job, if it is connected here and knows the message;
   * once per delivery (the answer is about the delivery asked, see `withdrawn`).
   */
  askWithdraw(job: Job): boolean {
    const link = job.deviceId ? this.links.get(job.deviceId) : undefined;
    if (!link || link.organizationId !== job.organizationId) return false;
    if (!link.features?.includes('job.withdraw')) return false;
    if (this.withdrawing.get(job.id) === job.deliveries) return true;
    if (this.withdrawing.size >= MAX_KNOWN_PRINTERS) this.withdrawing.clear();
    this.withdrawing.set(job.id, job.deliveries);
    return link.send({ type: 'job.withdraw', jobId: job.id });
  }

  /** `job.withdrawn`: given back (withdrawn:true), the job moves on; otherwise nothing changes. */
  async withdrawn(link: DeviceLink, message: AgentMessageOf<'job.withdrawn'>): Promise<void> {
    const job = await this.ownJob(link, message.jobId);
    if (!job) return;
    // Only the answer to the delivery asked, once: a repeated answer, or one that comes after
    // the job moved on (maybe to another printer of the same agent, or back to this one), changes
    // nothing. An agent that names the delivery it gave back must name this one.
    const asked = this.withdrawing.get(job.id);
    this.withdrawing.delete(job.id);
    const other = message.delivery !== undefined && message.delivery !== job.deliveries;
    if (!message.withdrawn || asked !== job.deliveries || other) {
      this.deps.logger.info(
        { jobId: job.id, reason: message.reason, withdrawn: message.withdrawn },
        message.withdrawn ? 'a stale job.withdrawn was ignored' : 'the agent kept the job',
      );
      return;
    }
    this.acked.delete(dispatchKey(job, link.features));
    await this.groups.withdrawn(job);
  }

  private async sendJob(
    link: DeviceLink,
    job: Job,
    content: JobContent | undefined,
  ): Promise<boolean> {
    const printer = this.printerOf(job);
    const agentPrinterId = printer instanceof Promise ? await printer : printer;
    if (!agentPrinterId) {
      await this.fail(job, 'PRINTER_NOT_FOUND', 'the job’s printer is not on its device');
      return false;
    }
    if (!content) {
      await this.fail(job, 'INVALID_JOB', 'the job’s content is no longer stored');
      return false;
    }
    return link.send({
      type: 'job.dispatch',
      job: toDispatchedJob(job, content.content, agentPrinterId, link.features),
    });
  }

  /**
   * The agent printer id the job goes to: its printer's (remembered after the first read, no
   * await then), or for a job without one the device's default printer (read every time:
   * the default can change).
   */
  private printerOf(job: Job): string | undefined | Promise<string | undefined> {
    if (!job.printerId) return this.defaultPrinterOf(job);
    const known = this.printers.get(job.printerId);
    if (known) return known.deviceId === job.deviceId ? known.agentPrinterId : undefined;
    return this.readPrinter(job, job.printerId);
  }

  private async readPrinter(job: Job, printerId: string): Promise<string | undefined> {
    const printer = await this.deps.store.inventory.getPrinter(job.organizationId, printerId, {
      includeSandbox: false,
    });
    if (!printer) return undefined;
    if (this.printers.size >= MAX_KNOWN_PRINTERS) this.printers.clear();
    this.printers.set(printerId, {
      deviceId: printer.deviceId,
      agentPrinterId: printer.agentPrinterId,
    });
    return printer.deviceId === job.deviceId ? printer.agentPrinterId : undefined;
  }

  private async defaultPrinterOf(job: Job): Promise<string | undefined> {
    if (!job.deviceId) return undefined;
    const printers = await this.deps.store.devices.listPrinters(job.organizationId, job.deviceId);
    const printer =
      printers.find((p) => p.isDefault) ?? (printers.length === 1 ? printers[0] : undefined);
    return printer?.agentPrinterId;
  }

  private async fail(job: Job, errorCode: string, errorMessage: string): Promise<void> {
    await this.move(job.organizationId, job.id, 'failed', { errorCode, errorMessage });
  }

  /** `job.ack`: the agent stored the job durably. */
  acknowledged(link: DeviceLink, message: AgentMessageOf<'job.ack'>): void {
    const n = message.delivery !== undefined ? `d${message.delivery}` : `a${message.attempt}`;
    this.acked.add(`${message.jobId}:${n}`);
    this.deps.logger.debug({ deviceId: link.deviceId, jobId: message.jobId }, 'job acknowledged');
  }

  /** `job.progress`: a retry scheduled by the agent (→ queued) or starting (→ sending). */
  async progress(link: DeviceLink, message: AgentMessageOf<'job.progress'>): Promise<void> {
    const job = await this.ownJob(link, message.jobId);
    if (!job) return;
    if (message.stage === 'retry_scheduled' && job.state === 'sending') {
      await this.move(job.organizationId, job.id, 'queued', {});
    } else if (message.stage === 'printing' && job.state === 'queued' && job.dispatchedAt) {
      await this.move(job.organizationId, job.id, 'sending', {});
    }
    // No byte of it went out: a group job may go to another member (asked back first).
    if (message.started === false && message.stage !== 'printing') {
      await this.groups.notStarted(job);
    }
  }

  /** `job.result`: final. Repeated results of a finished job change nothing. */
  async result(link: DeviceLink, message: AgentMessageOf<'job.result'>): Promise<void> {
    const job = await this.ownJob(link, message.jobId);
    if (!job || job.finishedAt !== null) return;
    this.acked.delete(dispatchKey(job, link.features));
    if (job.state === 'queued') {
      // A result for a job the agent held for a retry: it started again before it ended.
      await this.move(job.organizationId, job.id, 'sending', {});
    }
    if (message.outcome === 'printed') {
      await this.move(job.organizationId, job.id, 'printed', {});
    } else {
      await this.move(job.organizationId, job.id, 'failed', {
        errorCode: message.errorCode ?? 'PRINTER_ERROR',
        errorMessage: message.errorMessage ?? null,
      });
    }
  }

  /** `job.cancelled`: the agent's answer to `job.cancel`; the cloud job is already cancelled. */
  cancelled(link: DeviceLink, message: AgentMessageOf<'job.cancelled'>): void {
    this.deps.logger.info(
      { deviceId: link.deviceId, jobId: message.jobId, reason: message.reason },
      message.cancelled ? 'the agent cancelled the job' : 'the agent could not cancel the job',
    );
  }

  private async ownJob(link: DeviceLink, jobId: string): Promise<Job | undefined> {
    const job = await this.deps.store.jobs.get(link.organizationId, 'live', jobId);
    if (!job || job.deviceId !== link.deviceId) {
      this.deps.logger.warn({ deviceId: link.deviceId, jobId }, 'agent reported an unknown job');
      return undefined;
    }
    return job;
  }

  /** A transition that tolerates a concurrent one: a finished job is left as it is. */
  private async move(
    organizationId: string,
    jobId: string,
    to: JobState,
    info: { errorCode?: string | null; errorMessage?: string | null },
  ): Promise<void> {
    try {
      await this.deps.jobs.transition(organizationId, jobId, to, info);
    } catch (error) {
      if (!(error instanceof PrintwireError)) throw error;
      this.deps.logger.info({ jobId, to, code: error.code }, 'job transition skipped');
    }
  }

  private acquireBacklogSlot(): Promise<void> {
    if (this.backlogsRunning < this.options.maxConcurrentBacklogs) {
      this.backlogsRunning++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.backlogWaiters.push(resolve));
  }

  private releaseBacklogSlot(): void {
    const next = this.backlogWaiters.shift();
    if (next) next();
    else this.backlogsRunning--;
  }
}
