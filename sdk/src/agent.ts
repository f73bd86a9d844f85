/// <reference lib="dom" />
import {
  DEFAULT_LOCAL_PORTS,
  FINAL_LOCAL_JOB_STATES as FINAL,
  LOCAL_API_VERSION,
  LOCAL_WS_PATH as WS_PATH,
  type LocalAgentInfo,
  type LocalErrorFrame,
  type LocalJob,
  type LocalJobState,
  type LocalPrinter,
  type LocalPrinterStatusEvent,
  type LocalPrintTarget,
  type LocalRequestFrame,
  type LocalServerFrame as Frame,
  type RequestType,
} from '@printwire/shared/contracts/local-api';
import { PrintwireError } from './errors.js';
import { newNonce, sha256Hex, signaturePayload } from './sign.js';

/** The agent's default ports, tried in this order (docs/local-mode.md). */
export const DEFAULT_PORTS = [...DEFAULT_LOCAL_PORTS];

export interface ConnectOptions {
  /** Ports to try, in order; default 21910-21913. */
  ports?: number[];
  /** Longest wait for each port to answer, in ms; default 1500. */
  timeoutMs?: number;
  /**
   * Signs each request: called with the string to sign, returns what your server's
   * `signPayload` answered. Without it requests go unsigned (allowed origins, dev mode).
   */
  sign?: (payload: string) => Promise<string>;
  /** `wss` or `ws`; default `wss` on an https page, `ws` otherwise. */
  scheme?: 'wss' | 'ws';
  /** Reconnect after the connection drops; default true. */
  reconnect?: boolean;
}

/** What the agent says about itself (`GET /v1/info`, and on connecting). */
export type AgentInfo = LocalAgentInfo;
/** A printer of the agent, as a page sees it. */
export type Printer = LocalPrinter;
export type JobState = LocalJobState;
/** A job printed through the agent, as a page sees it. */
export type Job = LocalJob;

/**
 * A job request, exactly as POST /v1/jobs takes it (templateId + data included); `printerGroupId`
 * names a printer group instead of a printer, and the agent chooses among the group's printers on
 * this computer.
 */
export type JobRequest = Record<string, unknown> & LocalPrintTarget;

type Events = {
  'printer.status': LocalPrinterStatusEvent;
  job: Job;
  disconnect: PrintwireError;
};

const fail = (f: LocalErrorFrame) => new PrintwireError(f.code, f.message, f.retryable, f.details);

/** Opens the socket and waits for the agent's first frame: welcome, or the refusal it sends. */
function open(url: string, timeoutMs: number): Promise<{ ws: WebSocket; info: AgentInfo }> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch (error) {
      // Thrown at once: the browser refuses ws:// from this page (mixed content) or the port.
      return reject(new PrintwireError('LOCAL_ACCESS_BLOCKED', String(error)));
    }
    const timer = setTimeout(() => {
      ws.close();
      reject(new PrintwireError('AGENT_NOT_FOUND', `no answer from ${url}`));
    }, timeoutMs);
    ws.onmessage = (m) => {
      clearTimeout(timer);
      const frame = JSON.parse(String(m.data)) as Frame;
      if (frame.type === 'welcome') resolve({ ws, info: frame.info });
      else
        reject(
          frame.type === 'error'
            ? fail(frame)
            : new PrintwireError('BAD_MESSAGE', 'unexpected first frame'),
        );
    };
    ws.onclose = () => {
      clearTimeout(timer);
      reject(new PrintwireError('AGENT_NOT_FOUND', `${url} did not answer`));
    };
  });
}

/** Whether the browser's Local Network Access permission for this page is denied. */
async function loopbackDenied(): Promise<boolean> {
  for (const name of ['local-network-access', 'loopback-network']) {
    try {
      const status = await navigator.permissions.query({ name } as unknown as PermissionDescriptor);
      if (status.state === 'denied') return true;
    } catch {
      // This browser has no such permission.
    }
  }
  return false;
}

async function find(o: ConnectOptions): Promise<{ ws: WebSocket; info: AgentInfo }> {
  const https = typeof location !== 'undefined' && location.protocol === 'https:';
  const schemes = o.scheme ? [o.scheme] : https ? ['wss', 'ws'] : ['ws'];
  let blocked: PrintwireError | null = null;
  for (const scheme of schemes) {
    for (const port of o.ports ?? DEFAULT_PORTS) {
      try {
        return await open(`${scheme}://localhost:${port}${WS_PATH}`, o.timeoutMs ?? 1500);
      } catch (error) {
        const e = error as PrintwireError;
        if (e.code === 'LOCAL_ACCESS_BLOCKED') {
          blocked = e;
          break;
        }
        // The agent answered and refused this page: no other port will say otherwise.
        if (e.code !== 'AGENT_NOT_FOUND') throw e;
      }
    }
  }
  if (blocked || (await loopbackDenied())) {
    throw new PrintwireError(
      'LOCAL_ACCESS_BLOCKED',
      'the browser does not let this page reach the Printwire agent: allow local network access for this site, or install the agent’s certificate (printwire-agent local-ca) so wss:// works',
    );
  }
  throw new PrintwireError(
    'AGENT_NOT_FOUND',
    'no Printwire agent answered on this computer (is it running? on an https page its certificate must be trusted: printwire-agent local-ca)',
  );
}

/** The agent on this computer, connected. Made by `connect()`. */
export class LocalAgent {
  info: AgentInfo;
  #ws: WebSocket;
  #o: ConnectOptions;
  #seq = 0;
  #pending = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: PrintwireError) => void }
  >();
  #listeners = new Map<keyof Events, Set<(v: never) => void>>();
  #jobs = new Map<string, Job>();
  #closed = false;

  constructor(ws: WebSocket, info: AgentInfo, options: ConnectOptions) {
    this.#ws = ws;
    this.info = info;
    this.#o = options;
    this.#attach();
  }

  #attach(): void {
    this.#ws.onmessage = (m) => this.#frame(JSON.parse(String(m.data)) as Frame);
    this.#ws.onclose = () => this.#lost();
  }

  #frame(frame: Frame): void {
    if (frame.type === 'event') {
      if (frame.event === 'job') this.#jobs.set(frame.data.id, frame.data);
      this.#emit(frame.event, frame.data as never);
      return;
    }
    if (frame.type === 'welcome' || frame.replyTo === undefined) {
      if (frame.type === 'error') this.#emit('disconnect', fail(frame));
      return;
    }
    const waiter = this.#pending.get(frame.replyTo);
    this.#pending.delete(frame.replyTo);
    if (frame.type === 'reply') waiter?.resolve(frame.result);
    else waiter?.reject(fail(frame));
  }

  #lost(): void {
    const error = new PrintwireError(
      'AGENT_NOT_FOUND',
      'the connection to the agent was lost',
      true,
    );
    for (const waiter of this.#pending.values()) waiter.reject(error);
    this.#pending.clear();
    if (this.#closed) return;
    this.#emit('disconnect', error);
    if (this.#o.reconnect !== false) this.#retry(500);
  }

  #retry(delay: number): void {
    setTimeout(() => {
      if (this.#closed) return;
      find(this.#o).then(
        ({ ws, info }) => {
          this.#ws = ws;
          this.info = info;
          this.#attach();
        },
        () => this.#retry(Math.min(delay * 2, 30_000)),
      );
    }, delay);
  }

  #emit<K extends keyof Events>(event: K, value: Events[K]): void {
    for (const fn of this.#listeners.get(event) ?? []) (fn as (v: Events[K]) => void)(value);
  }

  /** Listens to printer status changes, job changes, or the connection's loss. */
  on<K extends keyof Events>(event: K, fn: (value: Events[K]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  async #request<T>(type: RequestType, body?: unknown): Promise<T> {
    if (this.#ws.readyState !== WebSocket.OPEN) {
      throw new PrintwireError('AGENT_NOT_FOUND', 'not connected to the agent', true);
    }
    const id = `r${++this.#seq}`;
    const message: LocalRequestFrame = { v: LOCAL_API_VERSION, id, type };
    if (body !== undefined) message.body = body;
    if (this.#o.sign) {
      const timestamp = Math.floor(Date.now() / 1000);
      const nonce = newNonce();
      const payload = signaturePayload({
        method: type,
        path: WS_PATH,
        origin: location.origin,
        bodySha256: await sha256Hex(JSON.stringify(body ?? null)),
        timestamp,
        nonce,
      });
      message.auth = { signature: await this.#o.sign(payload), timestamp, nonce };
    }
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#ws.send(JSON.stringify(message));
    });
  }

  /** The agent's printers with their status. */
  async printers(): Promise<Printer[]> {
    return (await this.#request<{ data: Printer[] }>('printers.list')).data;
  }

  /**
   * Prints through the agent's queue and resolves with the job in its final state (printed,
   * failed or cancelled); `onEvent` sees each state as it comes.
   */
  async print(job: JobRequest, options: { onEvent?: (job: Job) => void } = {}): Promise<Job> {
    let off = () => {};
    const final = new Promise<Job>((resolve) => {
      off = this.on('job', (j) => {
        if (j.id !== id) return;
        options.onEvent?.(j);
        if (FINAL.includes(j.state)) resolve(j);
      });
    });
    let id = '';
    try {
      const stored = await this.#request<Job>('job.print', job);
      id = stored.id;
      const seen = this.#jobs.get(id);
      const now = seen && seen.updatedAt >= stored.updatedAt ? seen : stored;
      options.onEvent?.(now);
      return FINAL.includes(now.state) ? now : await final;
    } finally {
      off();
      this.#jobs.delete(id);
    }
  }

  /** Cancels a job that has not started; resolves with the job as it is now. */
  cancel(jobId: string): Promise<Job> {
    return this.#request<Job>('job.cancel', { jobId });
  }

  /** Closes the connection for good. */
  close(): void {
    this.#closed = true;
    this.#ws.close();
  }
}

/**
 * Finds the agent on this computer (each port in order, within `timeoutMs` each) and connects.
 * Rejects with a PrintwireError: AGENT_NOT_FOUND, LOCAL_ACCESS_BLOCKED, or the code the agent
 * refused this page with (ORIGIN_NOT_ALLOWED, ORIGIN_BLOCKED, SIGNATURE_REQUIRED).
 */
export async function connect(options: ConnectOptions = {}): Promise<LocalAgent> {
  const { ws, info } = await find(options);
  return new LocalAgent(ws, info, options);
}
