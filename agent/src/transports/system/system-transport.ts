import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterTarget } from '../../config/printer-uri.js';
import type { PrinterStatusReport, Transport, TransportOptions } from '../transport.js';
import { CupsSpooler } from './cups-spooler.js';
import { detectSpoolFormat, type Spooler, type SpoolFormat } from './spooler.js';
import { WindowsSpooler } from './windows-spooler.js';

/** Defaults of the system spooler transport. */
export const SYSTEM_DEFAULTS = {
  /**
   * Longest wait for the spooler to report a job completed, in ms. An office printer may need
   * minutes for a long document; a job still waiting after 10 minutes is cancelled and retried.
   */
  writeTimeoutMs: 10 * 60_000,
  /** How often the job's state is asked while waiting, in ms. */
  pollIntervalMs: 200,
} as const;

export interface SystemTransportOptions extends TransportOptions {
  /** Default `SYSTEM_DEFAULTS.pollIntervalMs`. */
  pollIntervalMs?: number;
  /** The job's name in the spooler's queue. Default `Printwire job`. */
  title?: string;
  /** Copies the spooler prints of each job (documents cannot be repeated byte-wise). Default 1. */
  copies?: number;
}

type SystemTarget = Extract<PrinterTarget, { connection: 'system' }>;

/** The platform's spooler: the Windows spooler on Windows, CUPS elsewhere. */
export function platformSpooler(platform = process.platform): Spooler {
  return platform === 'win32' ? new WindowsSpooler() : new CupsSpooler();
}

/**
 * A queue of the OS spooler (`system:QUEUE`). Each `write` is one spooler job: PDF, PostScript
 * and images go as documents for the spooler to convert, anything else raw (`-o raw`); it
 * resolves only when the spooler reports the job completed (the contract's "a system-spooler
 * job is printed when the spooler reports it completed"). A job that does not complete within
 * the write timeout is cancelled, so that a retry never prints it twice.
 */
export class SystemTransport implements Transport {
  readonly #queue: string;
  readonly #spooler: Spooler;
  readonly #writeTimeoutMs: number;
  readonly #pollIntervalMs: number;
  readonly #title: string;
  readonly #copies: number;

  constructor(target: SystemTarget, spooler: Spooler, options: SystemTransportOptions = {}) {
    this.#queue = target.queue;
    this.#spooler = spooler;
    this.#writeTimeoutMs = options.writeTimeoutMs ?? SYSTEM_DEFAULTS.writeTimeoutMs;
    this.#pollIntervalMs = options.pollIntervalMs ?? SYSTEM_DEFAULTS.pollIntervalMs;
    this.#title = options.title ?? 'Printwire job';
    this.#copies = options.copies ?? 1;
  }

  async open(): Promise<void> {
    if ((await this.#spooler.queueStatus(this.#queue)) === null) {
      throw new PrintwireError(
        'PRINTER_NOT_FOUND',
        `the system spooler has no queue '${this.#queue}'`,
      );
    }
  }

  /** One spooler job with the format detected from the bytes (see `detectSpoolFormat`). */
  write(bytes: Uint8Array): Promise<void> {
    return this.print(bytes, detectSpoolFormat(bytes));
  }

  /** One spooler job: `raw` bytes for the printer, or a `document` for the spooler to convert. */
  async print(bytes: Uint8Array, format: SpoolFormat): Promise<void> {
    const jobId = await this.#spooler.submit(this.#queue, bytes, {
      format,
      title: this.#title,
      copies: this.#copies,
    });
    const deadline = performance.now() + this.#writeTimeoutMs;
    for (;;) {
      const state = await this.#spooler.jobState(this.#queue, jobId);
      switch (state) {
        case 'completed':
          return;
        case 'canceled':
          throw new PrintwireError(
            'PRINTER_ERROR',
            `job ${jobId} was cancelled in the system spooler`,
            { retryable: false },
          );
        case 'aborted':
          throw new PrintwireError('PRINTER_ERROR', `the system spooler aborted job ${jobId}`);
        case 'pending':
        case 'held':
        case 'stopped': {
          // A job waiting on a stopped queue would print whenever someone restarts it, maybe
          // after our retry printed it too: take it back and let the retry decide.
          const status = await this.#spooler.queueStatus(this.#queue);
          if (status === null || status.status === 'offline' || status.status === 'error') {
            await this.#spooler.cancel(this.#queue, jobId).catch(() => undefined);
            throw new PrintwireError(
              status === null ? 'PRINTER_NOT_FOUND' : 'PRINTER_OFFLINE',
              `queue '${this.#queue}' ${status === null ? 'was removed' : `is ${status.detail ?? status.status}`}; job ${jobId} was withdrawn`,
            );
          }
          break;
        }
        default:
          break;
      }
      if (performance.now() >= deadline) {
        await this.#spooler.cancel(this.#queue, jobId).catch(() => undefined);
        throw new PrintwireError(
          'TIMEOUT',
          `the system spooler did not complete job ${jobId} within ${this.#writeTimeoutMs} ms; it was cancelled`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, this.#pollIntervalMs));
    }
  }

  async readStatus(): Promise<PrinterStatusReport | null> {
    return (
      (await this.#spooler.queueStatus(this.#queue)) ?? {
        status: 'offline',
        detail: `the system spooler has no queue '${this.#queue}'`,
      }
    );
  }

  async close(): Promise<void> {}
}

/** A factory the registry maps `system` to, for a spooler (default: the platform's). */
export function systemTransportFactory(spooler: Spooler = platformSpooler()) {
  return (target: PrinterTarget, options: SystemTransportOptions = {}): SystemTransport => {
    if (target.connection !== 'system')
      throw new Error(`not a system target: ${target.connection}`);
    return new SystemTransport(target, spooler, options);
  };
}

/** The factory the registry maps `system` to. */
export const createSystemTransport = systemTransportFactory();
