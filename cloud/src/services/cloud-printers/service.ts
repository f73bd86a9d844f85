/**
 * CloudPrinterService: printers without a computer (Star CloudPRNT, Epson Server Direct Print).
 *
 * - The dashboard adds one (a device of its own with one printer, and an address carrying a
 *   secret shown once, stored hashed) and removes one (its secret goes with it).
 * - Every poll is found by its secret; the device is online from its first poll and offline after
 *   60 s of silence (`sweep`), the printer's status follows what the polls report; both through
 *   DeviceService, so the events, webhooks and alerts are those of agent printers.
 * - Jobs are handed over at most once (storage's `claim`), confirmed once (`confirm`), and a job
 *   handed over and never confirmed fails UNCONFIRMED after 120 s (`sweep`), never handed over
 *   again.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { EventBus } from '../../bus/events.js';
import type { Clock } from '../../lib/clock.js';
import { invalid } from '../../resources/field-issues.js';
import {
  CLOUD_AGENT_PRINTER_ID,
  type Handover,
  type Outcome,
  type PolledPrinter,
} from '../../storage/cloud-printers.js';
import { isUniqueViolation } from '../../storage/job-writes.js';
import type { TransitionResult } from '../../storage/job-states.js';
import type { Store } from '../../storage/store.js';
import type { Device, Job, Printer } from '../../storage/types.js';
import { hashSecret } from '../api-keys.js';
import type { DeviceService } from '../devices.js';
import type { JobService } from '../jobs.js';
import type { PolledStatus } from './status.js';

export const CLOUD_PROTOCOLS = ['cloudprnt', 'sdp'] as const;
export type CloudProtocol = (typeof CLOUD_PROTOCOLS)[number];

/** Where the printers' addresses live under the cloud's public URL. */
export const PULL_PATHS: Record<CloudProtocol, string> = {
  cloudprnt: '/printer-pull/cloudprnt',
  sdp: '/printer-pull/sdp',
};

export const cloudPrinterBody = z.object({
  name: z.string().trim().min(1).max(100),
  protocol: z.enum(CLOUD_PROTOCOLS),
  paper: z.enum(['58mm', '80mm']).default('80mm'),
});

export interface CloudPrinterTimings {
  /** A device not heard from for this long is offline (60 s). */
  offlineAfterMs: number;
  /** A job handed over and not confirmed for this long fails UNCONFIRMED (120 s). */
  unconfirmedAfterMs: number;
  /** How often a printer's last poll is written while it keeps polling. */
  pollWriteMs: number;
}

export const DEFAULT_TIMINGS: CloudPrinterTimings = {
  offlineAfterMs: 60_000,
  unconfirmedAfterMs: 120_000,
  pollWriteMs: 30_000,
};

export interface CloudPrinterDeps {
  store: Store;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  devices: DeviceService;
  jobs: JobService;
  publicUrl: string;
  timings?: Partial<CloudPrinterTimings>;
}

/** Printer secrets: `pwp_` and 24 random bytes, base64url (path-safe). */
function generateSecret(): string {
  return `pwp_${randomBytes(24).toString('base64url')}`;
}

/** CloudPRNT jobToken and SDP printjobid: 1-30 of [A-Za-z0-9_.-]. */
function generateToken(): string {
  return randomBytes(15).toString('base64url');
}

export class CloudPrinterService {
  readonly timings: CloudPrinterTimings;
  /** printerId → when this instance last wrote its poll time. */
  private readonly pollWritten = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<{ unconfirmed: number; offline: number }> | undefined;

  constructor(private readonly deps: CloudPrinterDeps) {
    this.timings = { ...DEFAULT_TIMINGS, ...deps.timings };
  }

  // The dashboard

  /** POST /orgs/{orgId}/cloud-printers: the device, its printer and the address (shown once). */
  async create(
    organizationId: string,
    body: unknown,
  ): Promise<{ device: Device; printer: Printer; url: string }> {
    const parsed = cloudPrinterBody.safeParse(body);
    if (!parsed.success) {
      throw invalid(
        'VALIDATION_FAILED',
        parsed.error.issues.map((i) => ({
          path: i.path.join('.'),
          message: `${i.path.join('.')}: ${i.message}`,
        })),
      );
    }
    const { name, protocol, paper } = parsed.data;
    const secret = generateSecret();
    const created = await this.deps.store.cloudPrinters.create(
      { organizationId, name, protocol, paper, secretHash: hashSecret(secret) },
      this.deps.clock.now(),
    );
    await this.deps.devices.added(created.device);
    return { device: created.device, printer: created.printer, url: this.urlOf(protocol, secret) };
  }

  /** The address to type into the printer's settings. */
  urlOf(protocol: CloudProtocol, secret: string): string {
    const base = this.deps.publicUrl.replace(/\/+$/, '');
    return `${base}${PULL_PATHS[protocol]}/${secret}`;
  }

  /** DELETE /orgs/{orgId}/cloud-printers/{printerId}: the printer and its secret go. */
  async remove(organizationId: string, printerId: string): Promise<void> {
    const removed = await this.deps.store.cloudPrinters.remove(organizationId, printerId);
    if (!removed)
      throw new PrintwireError('NOT_FOUND', `no printer ${printerId} that connects by itself`);
    this.pollWritten.delete(printerId);
  }

  // The polls

  /** The printer a secret names; undefined for a wrong one (nothing changes). */
  async authenticate(protocol: CloudProtocol, secret: string): Promise<PolledPrinter | undefined> {
    if (!/^pwp_[A-Za-z0-9_-]{16,64}$/.test(secret)) return undefined;
    const found = await this.deps.store.cloudPrinters.findBySecretHash(hashSecret(secret));
    if (!found || found.cloud.protocol !== protocol) return undefined;
    return found;
  }

  /** A poll arrived: the device is online, its last poll recorded now and then. */
  async heard(polled: PolledPrinter): Promise<void> {
    const { store, clock, devices } = this.deps;
    const now = clock.now();
    const { printerId, organizationId, deviceId } = polled.cloud;
    if (polled.deviceStatus !== 'online') {
      await devices.polled(organizationId, deviceId);
      await store.cloudPrinters.recordPoll(polled.cloud, now);
      this.pollWritten.set(printerId, now);
      return;
    }
    const written = this.pollWritten.get(printerId) ?? polled.cloud.lastPollAt ?? 0;
    if (now - written >= this.timings.pollWriteMs) {
      this.pollWritten.set(printerId, now);
      await store.cloudPrinters.recordPoll(polled.cloud, now);
    }
  }

  /** The status a poll reported; the printer.* event when it changed. */
  async reported(polled: PolledPrinter, status: PolledStatus): Promise<void> {
    if (polled.printer.status === status) return;
    polled.printer.status = status;
    await this.deps.devices.printerStatus(
      polled.cloud.organizationId,
      polled.cloud.deviceId,
      CLOUD_AGENT_PRINTER_ID,
      status,
    );
  }

  /**
   * The job this poll may print. `again`: the printer's unconfirmed hand-over is offered again
   * (CloudPRNT: the printer fetches it when it can print and confirms it after; SDP carries the
   * job in the poll's answer, so never again). `claim`: else the oldest queued job is handed to
   * this poll only (not while the printer reports it cannot print). Undefined when none.
   */
  async offer(
    polled: PolledPrinter,
    options: { again: boolean; claim: boolean },
  ): Promise<Handover | undefined> {
    const { store } = this.deps;
    const { printerId, organizationId, deviceId } = polled.cloud;
    // The poll's own read says whether there is a hand-over or a job; most polls stop here.
    if (polled.open) return options.again ? polled.open : undefined;
    if (!options.claim || !polled.hasQueued) return undefined;
    try {
      const claimed = await store.cloudPrinters.claim(
        { organizationId, deviceId, printerId },
        { pollId: randomBytes(8).toString('hex'), token: generateToken() },
        this.deps.clock.now(),
      );
      if (!claimed) return options.again ? store.cloudPrinters.openHandover(printerId) : undefined;
      await this.publish(claimed.transition);
      return claimed.handover;
    } catch (error) {
      // Another poll of this printer (here or on another instance) claimed first: that poll has
      // the job.
      if (!isUniqueViolation(error)) throw error;
      return options.again ? store.cloudPrinters.openHandover(printerId) : undefined;
    }
  }

  /** The printer's unconfirmed hand-over, if `token` (when given) is its token. */
  currentHandover(polled: PolledPrinter, token: string | null): Handover | undefined {
    const open = polled.open;
    if (!open || (token !== null && open.token !== token)) return undefined;
    return open;
  }

  /** A handed-over job whose output could not be made: failed RENDER_FAILED, not retried. */
  async renderFailed(polled: PolledPrinter, handover: Handover, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    await this.confirm(polled, handover.token, {
      printed: false,
      errorCode: 'RENDER_FAILED',
      errorMessage: `the job could not be turned into what the printer reads: ${reason}`,
    });
  }

  /** The job and stored content of a hand-over (undefined once it is gone). */
  async handedJob(handover: Handover): Promise<{ job: Job; content: Buffer } | undefined> {
    const { store } = this.deps;
    const [job, stored] = await Promise.all([
      store.jobs.get(handover.organizationId, 'live', handover.jobId),
      store.jobs.getContent(handover.organizationId, 'live', handover.jobId),
    ]);
    if (!job || !stored) return undefined;
    return { job, content: Buffer.from(stored.content) };
  }

  /**
   * The printer's word on a hand-over (its token, or null: the open one). True when it changed
   * the job; a late, repeated or foreign confirmation changes nothing.
   */
  async confirm(polled: PolledPrinter, token: string | null, outcome: Outcome): Promise<boolean> {
    const result = await this.deps.store.cloudPrinters.confirm(
      polled.cloud.printerId,
      token,
      outcome,
      this.deps.clock.now(),
    );
    if (!result) return false;
    await this.publish(result);
    return true;
  }

  /** The printer's own settings of what it is (CloudPRNT ClientType, Encodings). */
  async clientInfo(
    polled: PolledPrinter,
    info: { clientType?: string | null; encodings?: string | null },
  ): Promise<void> {
    await this.deps.store.cloudPrinters.setClientInfo(polled.cloud.printerId, info);
  }

  // The sweep

  /**
   * Fails hand-overs unconfirmed for 120 s (UNCONFIRMED) and marks devices silent for 60 s
   * offline. Concurrent calls share the pass in progress.
   */
  sweep(): Promise<{ unconfirmed: number; offline: number }> {
    this.sweeping ??= this.pass().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async pass(): Promise<{ unconfirmed: number; offline: number }> {
    const { store, clock, devices } = this.deps;
    const now = clock.now();
    const failed = await store.cloudPrinters.failUnconfirmed(
      now - this.timings.unconfirmedAfterMs,
      now,
    );
    for (const result of failed) await this.publish(result);
    const silent = await store.cloudPrinters.silent(now - this.timings.offlineAfterMs);
    for (const { organizationId, deviceId } of silent) {
      await devices.disconnected(organizationId, deviceId);
    }
    return { unconfirmed: failed.length, offline: silent.length };
  }

  /** Runs `sweep` every `intervalMs` until `stop`. */
  start(intervalMs: number): void {
    this.stop();
    this.timer = setInterval(() => {
      this.sweep().catch((err: unknown) =>
        this.deps.logger.error({ err }, 'the cloud printers’ sweep failed'),
      );
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private publish(result: TransitionResult): Promise<void> {
    return this.deps.jobs.publish(result.job, [result.event]);
  }
}
