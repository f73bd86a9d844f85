import type WebSocket from 'ws';
import type { AgentLogger } from '../logs/logger.js';
import type { LocalBackend, LocalEvent } from './backend.js';
import { ERROR_CATALOG } from '@printwire/shared/errors/index';
import { LocalApiError, type LocalErrorCode } from './errors.js';
import {
  jobIdBodySchema,
  LOCAL_API_VERSION,
  LOCAL_WS_PATH,
  requestSchema,
  type LOCAL_LIMITS,
  type LocalRequest,
  type ServerFrame,
} from './protocol.js';
import { judgeOrigin, SignatureVerifier, type OriginPrompt } from './trust.js';

export interface SessionOptions {
  origin: string;
  backend: LocalBackend;
  logger: AgentLogger;
  limits: typeof LOCAL_LIMITS;
  nowSeconds: () => number;
  prompt?: OriginPrompt;
}

/** Close code after a refusal frame (the frame says why). */
export const REFUSED_CLOSE_CODE = 4403;

const verifier = new SignatureVerifier();
/** One prompt per origin at a time: the pages of one origin wait for the same answer. */
const pendingPrompts = new Map<string, Promise<'once' | 'always' | 'block'>>();

/**
 * One page's WebSocket: requests are parsed, judged and answered one by one; nothing a page
 * sends can end the agent or reach another session (every fault becomes an error frame).
 */
export class LocalSession {
  readonly #ws: WebSocket;
  readonly #o: SessionOptions;
  readonly #inFlight = new Set<string>();
  /** Jobs whose events this page receives (it printed them, or asked for them by key). */
  readonly #jobs = new Set<string>();
  /** Allowed once by the person (for this page's session only). */
  #allowedOnce = false;
  /** Printer events are sent once the page made an authorized request. */
  #trusted = false;

  constructor(ws: WebSocket, options: SessionOptions) {
    this.#ws = ws;
    this.#o = options;
  }

  get origin(): string {
    return this.#o.origin;
  }

  /** Sends one error frame and closes: the page learns why before anything else. */
  refuse(code: LocalErrorCode, message: string): void {
    this.#send({ type: 'error', code, message, retryable: ERROR_CATALOG[code].retryable });
    this.#ws.close(REFUSED_CLOSE_CODE, code);
  }

  close(code: number, reason: string): void {
    this.#ws.close(code, reason);
  }

  /** Judges the origin, then welcomes the page and reads its requests. */
  open(): void {
    const b = this.#o.backend;
    const verdict = judgeOrigin(
      this.origin,
      b.settings(),
      b.originAnswers(),
      Boolean(this.#o.prompt),
    );
    if (verdict.kind === 'refuse') {
      this.#o.logger.info({ origin: this.origin, code: verdict.code }, 'local page refused');
      return this.refuse(verdict.code, verdict.message);
    }
    this.#ws.on('message', (data, isBinary) => {
      void this.#onMessage(data, isBinary);
    });
    this.#ws.on('error', () => this.#ws.terminate());
    this.#send({ type: 'welcome', v: LOCAL_API_VERSION, info: b.info() });
  }

  push(event: LocalEvent): void {
    if (event.event === 'job' && !this.#jobs.has(event.data.id)) return;
    if (event.event === 'printer.status' && !this.#trusted) return;
    this.#send({ type: 'event', ...event } as ServerFrame);
  }

  #send(frame: ServerFrame): void {
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.send(JSON.stringify(frame));
  }

  #error(replyTo: string | undefined, error: LocalApiError): void {
    this.#send({
      type: 'error',
      ...(replyTo !== undefined ? { replyTo } : {}),
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      ...(error.details !== undefined ? { details: error.details } : {}),
    });
  }

  async #onMessage(data: WebSocket.RawData, isBinary: boolean): Promise<void> {
    const size = Array.isArray(data)
      ? data.reduce((n, b) => n + b.length, 0)
      : (data as Buffer | ArrayBuffer).byteLength;
    if (size > this.#o.limits.maxMessageBytes) {
      return this.#error(
        undefined,
        new LocalApiError(
          'TOO_LARGE',
          `a message is at most ${this.#o.limits.maxMessageBytes} bytes; this one is ${size}`,
        ),
      );
    }
    if (isBinary) {
      return this.#error(
        undefined,
        new LocalApiError('BAD_MESSAGE', 'messages are JSON text frames'),
      );
    }
    let raw: unknown;
    try {
      raw = JSON.parse(data.toString());
    } catch {
      return this.#error(undefined, new LocalApiError('BAD_MESSAGE', 'the message is not JSON'));
    }
    const id = idOf(raw);
    const parsed = requestSchema.safeParse(raw);
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({
        path: i.path.join('.') || '(message)',
        message: `${i.path.join('.') || '(message)'}: ${i.message}`,
      }));
      return this.#error(
        id,
        new LocalApiError('BAD_MESSAGE', details.map((d) => d.message).join('; '), details),
      );
    }
    const request = parsed.data;
    if (this.#inFlight.has(request.id)) {
      return this.#error(
        request.id,
        new LocalApiError(
          'BAD_MESSAGE',
          `request ${request.id} is still being answered: ids must differ`,
        ),
      );
    }
    if (this.#inFlight.size >= this.#o.limits.maxInFlight) {
      return this.#error(
        request.id,
        new LocalApiError(
          'UNAVAILABLE',
          `at most ${this.#o.limits.maxInFlight} requests at once per page`,
        ),
      );
    }
    this.#inFlight.add(request.id);
    try {
      await this.#authorize(request, (raw as { body?: unknown }).body);
      this.#trusted = true;
      const result = await this.#handle(request);
      this.#send({ type: 'reply', replyTo: request.id, result });
    } catch (error) {
      if (error instanceof LocalApiError) this.#error(request.id, error);
      else {
        this.#o.logger.error({ err: error, origin: this.origin }, 'local request failed');
        this.#error(
          request.id,
          new LocalApiError('INTERNAL', 'the agent failed to answer; see its log'),
        );
      }
    } finally {
      this.#inFlight.delete(request.id);
    }
  }

  /** Throws unless this request may be served (docs/local-mode.md, "Who may print"). */
  async #authorize(request: LocalRequest, rawBody: unknown): Promise<void> {
    const b = this.#o.backend;
    const settings = b.settings();
    if (request.auth) {
      verifier.check(
        {
          method: request.type,
          path: LOCAL_WS_PATH,
          origin: this.origin,
          body: rawBody,
          auth: request.auth,
        },
        settings,
        b.nonces,
        this.#o.nowSeconds(),
      );
      return;
    }
    const answers = b.originAnswers();
    const verdict = judgeOrigin(this.origin, settings, answers, Boolean(this.#o.prompt));
    if (verdict.kind === 'open') return;
    if (verdict.kind === 'refuse') throw new LocalApiError(verdict.code, verdict.message);
    if (settings.requireSignature) {
      throw new LocalApiError('SIGNATURE_REQUIRED', 'this organization requires signed requests');
    }
    if (answers[this.origin]?.answer === 'block') {
      throw new LocalApiError(
        'ORIGIN_BLOCKED',
        `the person at this computer blocked ${this.origin}`,
      );
    }
    if (this.#allowedOnce) return;
    if (!settings.unsignedModeEnabled || !this.#o.prompt) {
      this.#o.logger.warn(
        { origin: this.origin },
        'unsigned local request from an origin not allowed',
      );
      throw new LocalApiError(
        'ORIGIN_NOT_ALLOWED',
        `${this.origin} is not an allowed origin of this organization; sign the request`,
      );
    }
    let pending = pendingPrompts.get(this.origin);
    if (!pending) {
      pending = this.#o.prompt(this.origin).finally(() => pendingPrompts.delete(this.origin));
      pendingPrompts.set(this.origin, pending);
    }
    const answer = await pending;
    if (answer === 'always') b.setOriginAnswer(this.origin, 'allow');
    if (answer === 'block') {
      b.setOriginAnswer(this.origin, 'block');
      throw new LocalApiError(
        'ORIGIN_BLOCKED',
        `the person at this computer blocked ${this.origin}`,
      );
    }
    if (answer === 'once') this.#allowedOnce = true;
  }

  async #handle(request: LocalRequest): Promise<unknown> {
    const b = this.#o.backend;
    switch (request.type) {
      case 'printers.list':
        return { data: b.printers() };
      case 'job.print': {
        const job = await b.print(request.body);
        this.#jobs.add(job.id);
        // The page may have missed changes between the store and now: it gets the job as it is.
        return b.job(job.id) ?? job;
      }
      case 'job.cancel':
      case 'job.get': {
        const parsed = jobIdBodySchema.safeParse(request.body);
        if (!parsed.success) {
          throw new LocalApiError('BAD_MESSAGE', 'body must be { jobId } with a job id');
        }
        const { jobId } = parsed.data;
        const job = request.type === 'job.cancel' ? await b.cancel(jobId) : b.job(jobId);
        if (!job) throw new LocalApiError('JOB_NOT_FOUND', `no local job ${jobId}`);
        this.#jobs.add(job.id);
        return job;
      }
    }
  }
}

function idOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const id = (raw as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : undefined;
}
