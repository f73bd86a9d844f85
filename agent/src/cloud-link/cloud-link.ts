import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import {
  AGENT_FEATURES,
  isFatalCloseCode,
  parseCloudMessage,
  serializeMessage,
  PROTOCOL_LIMITS,
  PROTOCOL_VERSION,
  type AgentMessage,
  type AgentMessageOf,
  type CloudMessage,
  type CloudMessageOf,
  type DispatchedJob,
} from '@printwire/shared/protocol/index';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { AgentLogger } from '../logs/logger.js';
import type { OutboxMessage } from '../queue/job-queue.js';
import { cloudEndpoint } from './activation.js';
import { busyDelayMs, reconnectDelayMs, RECONNECT_DEFAULTS } from './backoff.js';

export type HelloBody = Omit<AgentMessageOf<'hello'>, 'type' | 'id' | 'protocolVersion'>;

/** What the link needs from the rest of the agent. */
export interface CloudLinkHandlers {
  /** The hello's content, built at each connect (printers and their status change). */
  hello(): HelloBody;
  /** The queue summary sent with each heartbeat. */
  queueSummary(): { queued: number; printing: number };
  onWelcome(welcome: CloudMessageOf<'welcome'>): void;
  onConfig(config: CloudMessageOf<'config'>['config']): void;
  /** A job arrived: store it durably, then the agent acknowledges it. */
  onDispatch(job: DispatchedJob): void;
  onCancel(jobId: string): void;
  /** The cloud asks for the job back if no byte of it can have printed (job.withdraw). */
  onWithdraw(jobId: string): void;
  /** Results not yet confirmed by the cloud, sent after every welcome. */
  outbox(): OutboxMessage[];
  /** The cloud confirmed the message with this id. */
  onAck(id: string): void;
  /** The cloud refused this device for good (revoked token, deleted device): no more retries. */
  onFatal(reason: string): void;
}

export interface CloudLinkOptions {
  cloudUrl: string;
  deviceToken: string;
  clock: Clock;
  /** [0, 1), for the reconnect jitter. */
  random: () => number;
  logger: AgentLogger;
  handlers: CloudLinkHandlers;
  reconnect?: { baseMs?: number; capMs?: number };
  /** Longest wait for the WebSocket handshake and then for `welcome`; default 10 s. */
  handshakeTimeoutMs?: number;
  /** Heartbeats missed (plus one interval of margin) before the link is declared dead; default 2. */
  missedHeartbeats?: number;
  /** An unconfirmed result is sent again on the same connection after this long; default 30 s. */
  resendAfterMs?: number;
}

export type LinkState = 'connecting' | 'online' | 'waiting' | 'stopped';

/**
 * The agent's one WebSocket to the cloud (`/agent/v1/connect`): hello, heartbeats, job
 * dispatch and acknowledgement, results re-sent until confirmed, and reconnection with
 * exponential backoff and full jitter, which stops when the cloud revokes the device.
 */
export class CloudLink {
  readonly #o: CloudLinkOptions;
  #socket: WebSocket | null = null;
  #state: LinkState = 'waiting';
  #failures = 0;
  #timer: TimerHandle | null = null;
  #heartbeat: TimerHandle | null = null;
  #heartbeatIntervalMs = 15_000;
  #lastHeardAt = 0;
  #fatal: string | null = null;
  #stateListeners: Array<(state: LinkState) => void> = [];
  /** When each outbox message was last sent on this connection. */
  #sentAt = new Map<string, number>();
  /** Reports not sent yet (the link was down), the newest per key; sent after the welcome. */
  #pending = new Map<string, AgentMessage>();

  constructor(options: CloudLinkOptions) {
    this.#o = options;
  }

  get state(): LinkState {
    return this.#state;
  }

  /** Failed connection attempts since the last welcome. */
  get failures(): number {
    return this.#failures;
  }

  onStateChange(listener: (state: LinkState) => void): void {
    this.#stateListeners.push(listener);
  }

  #setState(state: LinkState): void {
    if (state === this.#state) return;
    this.#state = state;
    for (const listener of this.#stateListeners) listener(state);
  }

  start(): void {
    if (this.#state === 'stopped' && this.#fatal) return;
    this.#connect();
  }

  stop(): void {
    this.#fatal = this.#fatal ?? 'stopped';
    this.#clearTimers();
    this.#setState('stopped');
    this.#socket?.close(1000, 'agent stopping');
    this.#socket = null;
  }

  /** Sends when online; otherwise drops it (results travel through the outbox instead). */
  send(message: AgentMessage): boolean {
    const socket = this.#socket;
    if (this.#state !== 'online' || !socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(serializeMessage(message));
    if (
      message.type === 'job.result' ||
      message.type === 'job.cancelled' ||
      message.type === 'job.withdrawn' ||
      message.type === 'job.local'
    ) {
      this.#sentAt.set(message.id, this.#o.clock.now());
    }
    return true;
  }

  /**
   * Sends a report that a newer one of the same `key` supersedes (a printer's status, the
   * printer inventory): now when online, else kept (replacing an older one of that key) and sent
   * once the next welcome arrives. The hello of each connection carries the agent's state as it
   * is then, so what was kept before it is dropped as sent; what changes between the hello and
   * the welcome goes out after the welcome.
   */
  report(key: string, message: AgentMessage): void {
    if (this.send(message)) this.#pending.delete(key);
    else {
      // Moved to the end: reports go out in the order of their last change.
      this.#pending.delete(key);
      this.#pending.set(key, message);
    }
  }

  /** Reports kept while the link was down, by key (for tests and `status`). */
  get pendingReports(): ReadonlyMap<string, AgentMessage> {
    return this.#pending;
  }

  #flushReports(): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    // The inventory first: a status may be about a printer it adds.
    pending.sort((a, b) => Number(b.type === 'printers') - Number(a.type === 'printers'));
    for (const message of pending) this.send(message);
  }

  /**
   * Sends the unconfirmed results: all of them (after a welcome), or those last sent at least
   * `resendAfterMs` ago (at each heartbeat), so a result the cloud did not confirm is retried
   * without waiting for a reconnect.
   */
  flushOutbox(onlyStale = false): void {
    const now = this.#o.clock.now();
    const staleAt = now - (this.#o.resendAfterMs ?? 30_000);
    const sentAt = new Map<string, number>();
    for (const message of this.#o.handlers.outbox()) {
      const last = this.#sentAt.get(message.id);
      if (onlyStale && last !== undefined && last > staleAt) {
        sentAt.set(message.id, last);
        continue;
      }
      if (this.send(message)) sentAt.set(message.id, now);
    }
    // Forget confirmed messages.
    this.#sentAt = sentAt;
  }

  #clearTimers(): void {
    const { clock } = this.#o;
    if (this.#timer) clock.clearTimeout(this.#timer);
    if (this.#heartbeat) clock.clearTimeout(this.#heartbeat);
    this.#timer = null;
    this.#heartbeat = null;
  }

  #connect(): void {
    const { logger, clock } = this.#o;
    this.#clearTimers();
    this.#setState('connecting');
    const url = cloudEndpoint(this.#o.cloudUrl, '/agent/v1/connect', true);
    const socket = new WebSocket(url, {
      headers: { authorization: `Bearer ${this.#o.deviceToken}` },
      maxPayload: PROTOCOL_LIMITS.maxMessageBytes,
      handshakeTimeout: this.#o.handshakeTimeoutMs ?? 10_000,
    });
    this.#socket = socket;
    let closeReason: string | null = null;
    let fatal = false;
    /** The cloud said when to come back (503 with Retry-After), in ms. */
    let retryAfterMs: number | null = null;

    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      // 401/403 at the handshake: the token is unknown or revoked.
      if (status === 401 || status === 403) {
        fatal = true;
        closeReason = `the cloud refused the device token (HTTP ${status})`;
      } else closeReason = `HTTP ${status} at the WebSocket handshake`;
      const seconds = Number(response.headers['retry-after']);
      if (status === 503 && Number.isFinite(seconds) && seconds > 0) retryAfterMs = seconds * 1000;
      response.resume();
      socket.terminate();
    });
    socket.on('open', () => {
      this.#lastHeardAt = clock.now();
      const hello: AgentMessageOf<'hello'> = {
        type: 'hello',
        id: randomUUID(),
        protocolVersion: PROTOCOL_VERSION,
        features: [...AGENT_FEATURES],
        ...this.#o.handlers.hello(),
      };
      this.#pending.clear();
      socket.send(serializeMessage(hello));
      // No welcome within the handshake timeout: try again later.
      this.#timer = clock.setTimeout(() => {
        closeReason = 'no welcome from the cloud';
        socket.terminate();
      }, this.#o.handshakeTimeoutMs ?? 10_000);
    });
    socket.on('pong', () => {
      this.#lastHeardAt = clock.now();
    });
    socket.on('message', (data: WebSocket.RawData) => {
      // After stop() the queue may be closed: nothing that arrives late is handled.
      if (this.#state === 'stopped' || this.#socket !== socket) return;
      this.#lastHeardAt = clock.now();
      const parsed = parseCloudMessage(data);
      if (!parsed.ok) {
        logger.warn({ error: parsed.error.message }, 'ignored a malformed message from the cloud');
        return;
      }
      const message = parsed.message;
      if (message.type === 'close') {
        closeReason = `${message.reason}: ${message.message}`;
        fatal = fatal || !message.retry;
        return;
      }
      this.#handle(message);
    });
    socket.on('error', (error) => {
      logger.debug({ err: error.message }, 'cloud link error');
    });
    socket.on('close', (code: number, reason: Buffer) => {
      if (this.#socket === socket) this.#socket = null;
      this.#clearTimers();
      if (this.#state === 'stopped') return;
      const why = closeReason ?? (reason.length > 0 ? reason.toString() : `code ${code}`);
      if (fatal || isFatalCloseCode(code)) {
        this.#fatal = why;
        this.#setState('stopped');
        logger.error({ code, reason: why }, 'the cloud refused this device; not reconnecting');
        this.#o.handlers.onFatal(why);
        return;
      }
      const capMs = this.#o.reconnect?.capMs ?? RECONNECT_DEFAULTS.capMs;
      // A busy cloud said when to come back: that, jittered, without doubling the next wait.
      const delay =
        retryAfterMs !== null
          ? busyDelayMs(retryAfterMs, this.#o.random, capMs)
          : reconnectDelayMs(this.#failures, this.#o.random, {
              baseMs: this.#o.reconnect?.baseMs ?? RECONNECT_DEFAULTS.baseMs,
              capMs,
            });
      if (retryAfterMs === null) this.#failures += 1;
      logger.info({ code, reason: why, delayMs: delay }, 'cloud link closed; reconnecting');
      this.#setState('waiting');
      this.#timer = clock.setTimeout(() => this.#connect(), delay);
    });
  }

  #handle(message: Exclude<CloudMessage, { type: 'close' }>): void {
    const { handlers, clock, logger } = this.#o;
    switch (message.type) {
      case 'welcome':
        if (this.#timer) clock.clearTimeout(this.#timer);
        this.#timer = null;
        this.#failures = 0;
        this.#heartbeatIntervalMs = message.heartbeatIntervalMs;
        this.#setState('online');
        handlers.onWelcome(message);
        this.#sentAt.clear();
        this.#flushReports();
        this.flushOutbox();
        this.#scheduleHeartbeat();
        return;
      case 'config':
        handlers.onConfig(message.config);
        return;
      case 'job.dispatch':
        handlers.onDispatch(message.job);
        return;
      case 'job.cancel':
        handlers.onCancel(message.jobId);
        return;
      case 'job.withdraw':
        handlers.onWithdraw(message.jobId);
        return;
      case 'ack':
        handlers.onAck(message.id);
        return;
      case 'error':
        logger.warn(
          { code: message.code, replyTo: message.replyTo },
          `cloud error: ${message.message}`,
        );
        return;
    }
  }

  #scheduleHeartbeat(): void {
    const { clock } = this.#o;
    const interval = this.#heartbeatIntervalMs;
    this.#heartbeat = clock.setTimeout(() => {
      this.#heartbeat = null;
      const socket = this.#socket;
      if (!socket || this.#state !== 'online') return;
      const silentFor = clock.now() - this.#lastHeardAt;
      const limit = ((this.#o.missedHeartbeats ?? 2) + 1) * interval;
      if (silentFor >= limit) {
        this.#o.logger.warn({ silentFor }, 'cloud silent; reconnecting');
        socket.terminate();
        return;
      }
      this.send({
        type: 'heartbeat',
        sentAt: new Date(clock.now()).toISOString(),
        queue: this.#o.handlers.queueSummary(),
      });
      socket.ping();
      this.flushOutbox(true);
      this.#scheduleHeartbeat();
    }, interval);
  }
}
