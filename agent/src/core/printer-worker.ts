import { PrintwireError, type ErrorCode } from '@printwire/shared/errors/index';
import type { AgentMessageOf, PrinterStatus } from '@printwire/shared/protocol/index';
import type { ConfiguredPrinter } from '../config/config-store.js';
import type { JobQueue, QueuedJob, ResultMessage } from '../queue/job-queue.js';
import { renderJob, type RenderTarget } from '../render/render-job.js';
import type { TransportRegistry } from '../transports/registry.js';
import type { PrinterStatusReport, Transport, TransportOptions } from '../transports/transport.js';
import type { Clock, TimerHandle } from './clock.js';
import type { AgentLogger } from '../logs/logger.js';
import { backoffMs } from '@printwire/shared/time/backoff';

/** Options of the job runner; defaults in `RUNNER_DEFAULTS`. */
export interface RunnerOptions {
  /** Status poll of an idle printer, in ms (0: no idle polls). */
  pollIntervalMs?: number;
  /** Delay before the second attempt; doubles for each further attempt. */
  retryBaseMs?: number;
  /** Longest delay between attempts. */
  retryMaxMs?: number;
  /**
   * How long the connection to a printer that answers status stays open after a job, in ms, so
   * that a job within that time skips the connect (0: closed after every job). Most network
   * printers serve one connection at a time: another computer printing to the same printer
   * waits this long at most. Transports without `alive` are closed after every job.
   */
  keepOpenMs?: number;
  /**
   * A status read this recently (after the previous job, or by the idle poll) that found the
   * printer online stands for the status before a job, in ms (0: read before every job). The
   * status after a job is always read: it decides printed.
   */
  statusMaxAgeMs?: number;
  transport?: TransportOptions;
}

export const RUNNER_DEFAULTS = {
  pollIntervalMs: 5000,
  retryBaseMs: 2000,
  retryMaxMs: 60_000,
  keepOpenMs: 1000,
  statusMaxAgeMs: 1000,
} as const;

/** Delay before attempt `attempt + 1`: base × 2^(attempt-1), capped. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  return backoffMs(attempt - 1, { baseMs, maxMs });
}

export type RenderFunction = (
  job: QueuedJob,
  target: RenderTarget,
) => Uint8Array | Promise<Uint8Array>;

/** What the runner tells the rest of the agent (the cloud link, the logs). */
export interface RunnerEvents {
  /** The printer's status changed (also when it first becomes known). */
  onStatus(agentPrinterId: string, report: { status: PrinterStatus; detail: string | null }): void;
  onProgress(message: AgentMessageOf<'job.progress'>): void;
  /** A job ended; the result is already in the queue's outbox (and flushed). */
  onResult(message: ResultMessage): void;
}

export interface WorkerDeps {
  queue: JobQueue;
  registry: TransportRegistry;
  clock: Clock;
  events: RunnerEvents;
  logger: AgentLogger;
  /** The printer's render target (its defaults can change while the agent runs). */
  target: () => RenderTarget;
  /**
   * Job → printer bytes; default `renderJob`. May be async (job types that download, rasterize
   * a PDF or drive a browser); a throw fails the job (its error's code and retryable decide).
   */
  render?: RenderFunction;
  /** Printing is paused (the window's Pause): no job starts; status polls go on. */
  paused?: () => boolean;
}

const STATUS_ERRORS: Record<Exclude<PrinterStatusReport['status'], 'online'>, ErrorCode> = {
  paper_out: 'PAPER_OUT',
  cover_open: 'COVER_OPEN',
  error: 'PRINTER_ERROR',
  offline: 'PRINTER_OFFLINE',
};

/** A status in which no job can start, and the error a job waiting for it carries. */
const NOT_READY: Partial<Record<PrinterStatus, ErrorCode>> = {
  offline: 'PRINTER_OFFLINE',
  paper_out: 'PAPER_OUT',
  cover_open: 'COVER_OPEN',
};

/** Failures before the first byte that say the printer cannot print now (not the job's fault). */
const PRINTER_NOT_READY_CODES: ReadonlySet<string> = new Set([
  'PRINTER_OFFLINE',
  'PAPER_OUT',
  'COVER_OPEN',
  'CONNECTION_REFUSED',
  'CONNECTION_LOST',
  'TIMEOUT',
]);

/** Jobs a spooler receives as documents (the media jobs), whose copies it prints itself. */
const DOCUMENT_JOBS = new Set(['pdf', 'image', 'html']);

function asPrintwireError(error: unknown, fallback: ErrorCode): PrintwireError {
  if (error instanceof PrintwireError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new PrintwireError(fallback, message, { cause: error });
}

/**
 * Prints the jobs of one printer, one at a time, oldest first, and polls the printer's status
 * while idle. One worker per printer serializes everything that talks to it. Every message it
 * sends (progress, result) follows a `queue.flush()` of the state it reports, and no byte of a
 * job reaches the printer before its printing mark is flushed.
 */
export class PrinterWorker {
  readonly agentPrinterId: string;
  readonly #printer: ConfiguredPrinter;
  readonly #deps: WorkerDeps;
  readonly #options: Required<Omit<RunnerOptions, 'transport'>> & { transport: TransportOptions };
  #status: PrinterStatus = 'unknown';
  #detail: string | null = null;
  #nextPollAt = 0;
  #timer: TimerHandle | null = null;
  /** The connection kept open after the last job (see `keepOpenMs`), and its closing timer. */
  #kept: Transport | null = null;
  #keptTimer: TimerHandle | null = null;
  /** When a status read last found the printer online (see `statusMaxAgeMs`). */
  #onlineAt = -Infinity;
  #running: Promise<void> | null = null;
  /** Messages waiting for the queue's flush of what they report. */
  readonly #flushing = new Set<Promise<void>>();
  #again = false;
  #stopped = true;
  /** The printer has answered a status request: from then on silence means it is gone. */
  #answersStatus = false;
  /** Jobs already told `waiting`, with the error they were told (told again when it changes). */
  readonly #toldWaiting = new Map<string, ErrorCode>();

  constructor(printer: ConfiguredPrinter, deps: WorkerDeps, options: RunnerOptions = {}) {
    this.agentPrinterId = printer.agentPrinterId;
    this.#printer = printer;
    this.#deps = deps;
    this.#options = {
      pollIntervalMs: options.pollIntervalMs ?? RUNNER_DEFAULTS.pollIntervalMs,
      retryBaseMs: options.retryBaseMs ?? RUNNER_DEFAULTS.retryBaseMs,
      retryMaxMs: options.retryMaxMs ?? RUNNER_DEFAULTS.retryMaxMs,
      keepOpenMs: options.keepOpenMs ?? RUNNER_DEFAULTS.keepOpenMs,
      statusMaxAgeMs: options.statusMaxAgeMs ?? RUNNER_DEFAULTS.statusMaxAgeMs,
      transport: { ...options.transport, language: printer.spec.language },
    };
  }

  get status(): { status: PrinterStatus; detail: string | null } {
    return { status: this.#status, detail: this.#detail };
  }

  start(): void {
    this.#stopped = false;
    if (this.#options.pollIntervalMs === 0) this.#nextPollAt = Infinity;
    this.wake();
  }

  /** Looks at the queue now (a job arrived). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    if (this.#timer) this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#running = this.#loop()
      .catch((error: unknown) => this.#deps.logger.error({ err: error }, 'printer worker failed'))
      .finally(() => {
        this.#running = null;
        if (this.#again) {
          this.#again = false;
          this.wake();
        } else this.#schedule();
      });
  }

  /** Resolves when the worker has nothing to do right now (its next wake-up is scheduled). */
  async idle(): Promise<void> {
    while (this.#running || this.#flushing.size > 0) {
      await this.#running;
      await Promise.all(this.#flushing);
    }
  }

  /** Stops after the job in progress, if any, and closes the connection kept open. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
    await this.idle();
    await this.#takeKept()?.close();
  }

  /**
   * Sends bytes that are not a job (the window's test page) between jobs, paused or not, and
   * reads the status after them; throws the printer's error.
   */
  async printBytes(bytes: Uint8Array): Promise<void> {
    while (this.#running) await this.idle();
    const run = (async () => {
      const transport = await this.#open(null);
      try {
        await transport.write(bytes);
        await this.#checkStatus(transport);
      } finally {
        await transport.close();
      }
    })();
    this.#running = run
      .catch((error: unknown) => this.#statusFromError(asPrintwireError(error, 'PRINTER_ERROR')))
      .finally(() => {
        this.#running = null;
        this.#again = false;
        this.wake();
      });
    await run;
  }

  #schedule(): void {
    if (this.#stopped) return;
    const { clock, queue } = this.#deps;
    const due = this.#deps.paused?.() ? null : queue.nextDueAt(this.agentPrinterId);
    const at = Math.min(due ?? Infinity, this.#nextPollAt);
    if (at === Infinity) return;
    this.#timer = clock.setTimeout(
      () => {
        this.#timer = null;
        this.wake();
      },
      Math.max(0, at - clock.now()),
    );
  }

  async #loop(): Promise<void> {
    for (;;) {
      if (this.#stopped) return;
      const job = this.#deps.paused?.() ? null : this.#deps.queue.nextDue(this.agentPrinterId);
      if (job) await this.#print(job);
      else if (this.#deps.clock.now() >= this.#nextPollAt) await this.#poll();
      else return;
    }
  }

  #setStatus(status: PrinterStatus, detail: string | null): void {
    this.#nextPollAt =
      this.#options.pollIntervalMs === 0
        ? Infinity
        : this.#deps.clock.now() + this.#options.pollIntervalMs;
    if (status === this.#status && detail === this.#detail) return;
    this.#status = status;
    this.#detail = detail;
    this.#deps.events.onStatus(this.agentPrinterId, { status, detail });
  }

  #statusFromError(error: PrintwireError): void {
    if (
      ['CONNECTION_REFUSED', 'PRINTER_OFFLINE', 'CONNECTION_LOST', 'TIMEOUT'].includes(error.code)
    ) {
      this.#setStatus('offline', error.message);
    }
  }

  /** Reads the status; throws the matching job error when the printer is not ready. */
  async #checkStatus(transport: Transport): Promise<void> {
    this.#onlineAt = -Infinity;
    const report = await transport.readStatus();
    if (report) this.#answersStatus = true;
    // A printer that never answers status but takes the connection counts as online; one that
    // answered before and stops (switched off behind a serial line, a hung interface) is offline.
    const status =
      report ??
      (this.#answersStatus
        ? { status: 'offline' as const, detail: 'the printer stopped answering status requests' }
        : { status: 'online' as const, detail: null });
    this.#setStatus(status.status, status.detail);
    if (status.status !== 'online') {
      throw new PrintwireError(
        STATUS_ERRORS[status.status],
        `printer reports ${status.detail ?? status.status}`,
      );
    }
    this.#onlineAt = this.#deps.clock.now();
  }

  /** The printer was found online recently enough to skip the status read before a job. */
  #statusIsFresh(): boolean {
    return this.#deps.clock.now() - this.#onlineAt < this.#options.statusMaxAgeMs;
  }

  /**
   * The transport's options for a job (or a status poll): a system spooler gets no write
   * timeout (its own default waits for the spooler to complete the job) and prints the copies
   * of pdf, image and html jobs itself.
   */
  #transportOptions(job: QueuedJob | null): TransportOptions & { copies?: number } {
    const options = this.#options.transport;
    if (this.#printer.spec.target.connection !== 'system') return options;
    const { writeTimeoutMs: _tcpWriteTimeout, ...spooler } = options;
    const copies = job && DOCUMENT_JOBS.has(job.type) ? (job.options.copies ?? 1) : 1;
    return copies > 1 ? { ...spooler, copies } : spooler;
  }

  /** The connection kept open after the last job if it is still open, else a new one. */
  async #open(job: QueuedJob | null): Promise<Transport> {
    const kept = this.#takeKept();
    if (kept?.alive?.()) return kept;
    await kept?.close();
    const transport = this.#deps.registry.create(
      this.#printer.spec.target,
      this.#transportOptions(job),
    );
    await transport.open();
    return transport;
  }

  #takeKept(): Transport | null {
    const kept = this.#kept;
    this.#kept = null;
    if (this.#keptTimer) this.#deps.clock.clearTimeout(this.#keptTimer);
    this.#keptTimer = null;
    return kept;
  }

  /**
   * After a job the printer accepted: keeps the connection open for the next job when the
   * transport can carry several and the printer answers status (its answer after each job tells
   * that it took every byte); otherwise closes it, and the close tells it.
   */
  async #release(transport: Transport): Promise<void> {
    const { keepOpenMs } = this.#options;
    if (this.#stopped || keepOpenMs <= 0 || !this.#answersStatus || !transport.alive?.()) {
      await transport.close();
      return;
    }
    this.#kept = transport;
    this.#keptTimer = this.#deps.clock.setTimeout(() => {
      this.#keptTimer = null;
      void this.#takeKept()?.close();
    }, keepOpenMs);
  }

  /** Reads the idle printer's status (on the connection kept open after a job, then closed). */
  async #poll(): Promise<void> {
    let transport: Transport | null = null;
    try {
      transport = await this.#open(null);
      await this.#checkStatus(transport);
    } catch (error) {
      const e = asPrintwireError(error, 'PRINTER_ERROR');
      if (e.code === 'UNSUPPORTED_JOB') this.#setStatus('unknown', e.message);
      else this.#statusFromError(e);
    } finally {
      await transport?.close();
      this.#nextPollAt = Math.max(
        this.#nextPollAt,
        this.#deps.clock.now() + this.#options.pollIntervalMs,
      );
    }
  }

  async #print(job: QueuedJob): Promise<void> {
    const { queue, clock, logger, events } = this.#deps;
    const log = logger.child({ jobId: job.id, attempt: job.attempt, printer: this.agentPrinterId });
    if (job.expiresAt !== null && job.expiresAt <= clock.now()) {
      return this.#fail(
        job,
        new PrintwireError('EXPIRED', 'the job expired before it could print'),
        false,
      );
    }
    this.#tellWaiting(job);
    let bytes: Uint8Array;
    try {
      bytes = await (this.#deps.render ?? renderJob)(job, this.#deps.target());
    } catch (error) {
      return this.#fail(job, asPrintwireError(error, 'RENDER_FAILED'), false);
    }
    let transport: Transport | null = null;
    /** Whether a byte of this attempt may have gone out: true from the printing mark on. */
    let started = false;
    try {
      transport = await this.#open(job);
      if (!this.#statusIsFresh()) await this.#checkStatus(transport);
      // Durable before the first byte: after a crash this job is never sent again, and it can
      // no longer be withdrawn (the mark and a withdrawal are each one SQLite transaction).
      if (!queue.markPrinting(job.id, this.agentPrinterId)) {
        log.info('cancelled or withdrawn before it started');
        await this.#release(transport);
        return;
      }
      started = true;
      this.#toldWaiting.delete(job.id);
      await queue.flush();
      const writing = transport.write(bytes);
      // Told once the first bytes are on their way: the printer should not wait for the cloud.
      events.onProgress({
        type: 'job.progress',
        jobId: job.id,
        attempt: job.attempt,
        stage: 'printing',
        started: true,
      });
      await writing;
      log.info({ bytes: bytes.length }, 'sent to the printer');
      await this.#checkStatus(transport);
      await this.#release(transport);
      transport = null;
    } catch (error) {
      await transport?.close();
      const e = asPrintwireError(error, 'PRINTER_ERROR');
      this.#statusFromError(e);
      log.warn({ code: e.code, err: e.message, started }, 'attempt failed');
      return this.#fail(job, e, started);
    }
    this.#toldWaiting.delete(job.id);
    // The next job may start meanwhile: its printing mark then shares this flush.
    const result = queue.markPrinted(job.id);
    this.#afterFlush(() => events.onResult(result));
  }

  /** Runs `then` once the queue's commits so far are durable, without holding up the worker. */
  #afterFlush(then: () => void): void {
    const sent = this.#deps.queue.flush().then(then, (error: unknown) => {
      // The message stays in the outbox; the link sends it again later.
      this.#deps.logger.error({ err: error }, 'the queue could not be synced to disk');
    });
    this.#flushing.add(sent);
    void sent.finally(() => this.#flushing.delete(sent));
  }

  /**
   * A job picked while the printer's last status says it cannot print (offline, paper_out,
   * cover_open): the cloud hears `waiting` (no byte sent, the job held here) once per job and
   * error, so that it may move a group's job to another member (job.withdraw) before the attempt.
   */
  #tellWaiting(job: QueuedJob): void {
    const code = NOT_READY[this.#status];
    if (!code || this.#toldWaiting.get(job.id) === code || this.#deps.queue.isStarted(job.id)) {
      return;
    }
    this.#toldWaiting.set(job.id, code);
    this.#deps.events.onProgress({
      type: 'job.progress',
      jobId: job.id,
      attempt: job.attempt,
      stage: 'waiting',
      started: false,
      errorCode: code,
      errorMessage: `printer reports ${this.#detail ?? this.#status}`.slice(0, 4096),
    });
  }

  /**
   * Retryable errors go back to the queue with a backoff until maxAttempts; others end the job.
   * `started`: whether a byte of this attempt may have gone out (told to the cloud, which moves
   * a group's job only when none can have). A job withdrawn or cancelled meanwhile is left alone.
   */
  #fail(job: QueuedJob, error: PrintwireError, started: boolean): void {
    const { queue, clock, events } = this.#deps;
    if (!queue.holds(job.id, this.agentPrinterId)) return;
    if (!started && PRINTER_NOT_READY_CODES.has(error.code) && queue.printerGroupOf(job.id)) {
      // A local group job waits for a member without using up attempts (the contract: it stays
      // queued until a member is ready, or it expires); the local server moves it to a member
      // that is ready.
      const { pollIntervalMs, retryBaseMs } = this.#options;
      queue.holdGroupJob(job.id, clock.now() + (pollIntervalMs || retryBaseMs), error);
      this.#toldWaiting.set(job.id, NOT_READY[this.#status] ?? error.code);
      this.#afterFlush(() =>
        events.onProgress({
          type: 'job.progress',
          jobId: job.id,
          attempt: job.attempt,
          stage: 'waiting',
          started: false,
          errorCode: error.code,
          errorMessage: error.message.slice(0, 4096),
        }),
      );
      return;
    }
    if (error.retryable && job.attempt < job.maxAttempts) {
      const delay = retryDelayMs(job.attempt, this.#options.retryBaseMs, this.#options.retryMaxMs);
      const nextAttemptAt = clock.now() + delay;
      queue.scheduleRetry(job.id, job.attempt + 1, nextAttemptAt, error);
      this.#afterFlush(() =>
        events.onProgress({
          type: 'job.progress',
          jobId: job.id,
          attempt: job.attempt + 1,
          stage: 'retry_scheduled',
          started,
          errorCode: error.code,
          errorMessage: error.message.slice(0, 4096),
          nextAttemptAt: new Date(nextAttemptAt).toISOString(),
        }),
      );
      return;
    }
    this.#toldWaiting.delete(job.id);
    const result = queue.markFailed(job.id, {
      code: error.code,
      message: error.message.slice(0, 4096),
      retryable: error.retryable,
    });
    this.#afterFlush(() => events.onResult(result));
  }
}
