import type { PrinterStatus } from '@printwire/shared/protocol/index';
import type { ConfiguredPrinter } from '../config/config-store.js';
import type { RenderTarget } from '../render/render-job.js';
import { PrinterWorker, type RunnerOptions, type WorkerDeps } from './printer-worker.js';

export interface RunnerDeps extends Omit<WorkerDeps, 'target'> {
  /** The render target of a printer, read at each job (defaults can change). */
  targetFor: (printer: ConfiguredPrinter) => RenderTarget;
}

/** Runs one `PrinterWorker` per configured printer. */
export class JobRunner {
  readonly #workers = new Map<string, PrinterWorker>();

  constructor(printers: ConfiguredPrinter[], deps: RunnerDeps, options: RunnerOptions = {}) {
    for (const printer of printers) {
      const target = () => deps.targetFor(printer);
      this.#workers.set(
        printer.agentPrinterId,
        new PrinterWorker(printer, { ...deps, target }, options),
      );
    }
  }

  has(agentPrinterId: string): boolean {
    return this.#workers.has(agentPrinterId);
  }

  start(): void {
    for (const worker of this.#workers.values()) worker.start();
  }

  /** A job for this printer was queued. */
  wake(agentPrinterId: string): void {
    this.#workers.get(agentPrinterId)?.wake();
  }

  status(agentPrinterId: string): { status: PrinterStatus; detail: string | null } {
    return this.#workers.get(agentPrinterId)?.status ?? { status: 'unknown', detail: null };
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#workers.values()].map((w) => w.stop()));
  }
}
