import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterStatus } from '@printwire/shared/protocol/index';
import type { ConfiguredPrinter } from '../config/config-store.js';
import type { RenderTarget } from '../render/render-job.js';
import { PrinterWorker, type RunnerOptions, type WorkerDeps } from './printer-worker.js';

export interface RunnerDeps extends Omit<WorkerDeps, 'target'> {
  /** The render target of a printer, read at each job (defaults can change). */
  targetFor: (printer: ConfiguredPrinter) => RenderTarget;
}

/** Runs one `PrinterWorker` per printer in use; printers come and go as they are found. */
export class JobRunner {
  readonly #workers = new Map<string, PrinterWorker>();
  readonly #deps: RunnerDeps;
  readonly #options: RunnerOptions;
  #started = false;
  /** Workers removed while a job of theirs was still running. */
  readonly #stopping = new Set<Promise<void>>();

  constructor(
    printers: readonly ConfiguredPrinter[],
    deps: RunnerDeps,
    options: RunnerOptions = {},
  ) {
    this.#deps = deps;
    this.#options = options;
    for (const printer of printers) this.add(printer);
  }

  has(agentPrinterId: string): boolean {
    return this.#workers.has(agentPrinterId);
  }

  start(): void {
    this.#started = true;
    for (const worker of this.#workers.values()) worker.start();
  }

  /** A printer to print on from now on (started at once when the runner runs). */
  add(printer: ConfiguredPrinter): void {
    if (this.#workers.has(printer.agentPrinterId)) return;
    const target = () => this.#deps.targetFor(printer);
    const worker = new PrinterWorker(printer, { ...this.#deps, target }, this.#options);
    this.#workers.set(printer.agentPrinterId, worker);
    if (this.#started) worker.start();
  }

  /**
   * Forgets the printer's worker at once (no new job starts on it) and resolves when the job in
   * progress, if any, is over; `stop` waits for that too.
   */
  async remove(agentPrinterId: string): Promise<void> {
    const worker = this.#workers.get(agentPrinterId);
    if (!worker) return;
    this.#workers.delete(agentPrinterId);
    const stopping = worker.stop().finally(() => this.#stopping.delete(stopping));
    this.#stopping.add(stopping);
    await stopping;
  }

  /** Looks at every printer's queue now (printing resumed). */
  wakeAll(): void {
    for (const worker of this.#workers.values()) worker.wake();
  }

  /** Sends bytes that are not a job to a printer in use, between its jobs. */
  async printBytes(agentPrinterId: string, bytes: Uint8Array): Promise<void> {
    const worker = this.#workers.get(agentPrinterId);
    if (!worker) {
      throw new PrintwireError('PRINTER_NOT_FOUND', `no printer ${agentPrinterId} in use`);
    }
    await worker.printBytes(bytes);
  }

  /** A job for this printer was queued. */
  wake(agentPrinterId: string): void {
    this.#workers.get(agentPrinterId)?.wake();
  }

  status(agentPrinterId: string): { status: PrinterStatus; detail: string | null } {
    return this.#workers.get(agentPrinterId)?.status ?? { status: 'unknown', detail: null };
  }

  async stop(): Promise<void> {
    this.#started = false;
    await Promise.all([...this.#workers.values()].map((w) => w.stop()));
    await Promise.all(this.#stopping);
  }
}
