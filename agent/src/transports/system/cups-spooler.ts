import { PrintwireError } from '@printwire/shared/errors/index';
import {
  cupsQueueStatus,
  parseAccepting,
  parseCupsQueues,
  parseLpRequestId,
  parseLpstatPrinters,
} from './cups-output.js';
import { ippJobState } from './ipp-job-state.js';
import { runCommand, type CommandRunner } from './run-command.js';
import type { Spooler, SpoolerQueue, SpoolJobState, SubmitOptions } from './spooler.js';
import type { PrinterStatusReport } from '../transport.js';

function missingTool(error: unknown): PrintwireError {
  return new PrintwireError(
    'PRINTER_OFFLINE',
    `the CUPS command-line tools are not installed (Debian/Ubuntu: cups-client cups-bsd): ${(error as Error).message}`,
    { cause: error },
  );
}

/** Job ids as `lp` prints them: `QUEUE-123`; IPP wants the number. */
function jobNumber(jobId: string): number {
  return Number(/-(\d+)$/.exec(jobId)?.[1] ?? NaN);
}

/**
 * CUPS (Linux, macOS) through its command-line tools: `lp` to submit (`-o raw` for the
 * printer's own bytes), `lpstat` for queues and their state, `cancel`, and IPP on the local
 * socket for a job's final state.
 */
export class CupsSpooler implements Spooler {
  readonly #run: CommandRunner;
  readonly #jobState: typeof ippJobState;

  constructor(run: CommandRunner = runCommand, jobState: typeof ippJobState = ippJobState) {
    this.#run = run;
    this.#jobState = jobState;
  }

  async #exec(command: string, args: string[], input?: Uint8Array) {
    try {
      return await this.#run(command, args, input ? { input } : {});
    } catch (error) {
      throw missingTool(error);
    }
  }

  async listQueues(): Promise<SpoolerQueue[]> {
    const [printers, devices, dest] = await Promise.all([
      this.#exec('lpstat', ['-l', '-p']),
      this.#exec('lpstat', ['-v']),
      this.#exec('lpstat', ['-d']),
    ]);
    return parseCupsQueues(printers.stdout, devices.stdout, dest.stdout);
  }

  async queueStatus(queue: string): Promise<PrinterStatusReport | null> {
    const [printers, accepting] = await Promise.all([
      this.#exec('lpstat', ['-l', '-p', queue]),
      this.#exec('lpstat', ['-a', queue]),
    ]);
    const printer = parseLpstatPrinters(printers.stdout).find((p) => p.name === queue);
    if (!printer) return null;
    return cupsQueueStatus(printer, parseAccepting(accepting.stdout, queue));
  }

  async submit(queue: string, bytes: Uint8Array, options: SubmitOptions): Promise<string> {
    const args = ['-d', queue, '-t', options.title.slice(0, 200)];
    if ((options.copies ?? 1) > 1) args.push('-n', String(options.copies));
    if (options.format === 'raw') args.push('-o', 'raw');
    const result = await this.#exec('lp', args, bytes);
    const jobId = result.code === 0 ? parseLpRequestId(result.stdout) : null;
    if (jobId === null) {
      const why = (result.stderr || result.stdout).trim();
      // "not accepting jobs", "does not exist": the queue's state, which a later attempt may find changed.
      throw new PrintwireError('PRINTER_ERROR', `CUPS refused the job for ${queue}: ${why}`);
    }
    return jobId;
  }

  async jobState(queue: string, jobId: string): Promise<SpoolJobState> {
    const viaIpp = await this.#jobState(queue, jobNumber(jobId));
    if (viaIpp !== null) return viaIpp;
    // Without IPP, lpstat tells pending from finished but not printed from cancelled.
    const pending = await this.#exec('lpstat', ['-W', 'not-completed', '-o', queue]);
    if (pending.stdout.split('\n').some((l) => l.startsWith(`${jobId} `))) return 'pending';
    const done = await this.#exec('lpstat', ['-W', 'completed', '-o', queue]);
    if (done.stdout.split('\n').some((l) => l.startsWith(`${jobId} `))) return 'completed';
    return 'unknown';
  }

  async cancel(_queue: string, jobId: string): Promise<void> {
    await this.#exec('cancel', [jobId]);
  }
}
