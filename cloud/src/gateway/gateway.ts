/**
 * The agent gateway: the WebSocket server at /agent/v1/connect, attached to the HTTP server's
 * `upgrade`. The device token is checked before the upgrade completes (401 otherwise). Each
 * instance holds some agents' sockets; the bus tells every instance about new jobs (the one
 * holding the device sends them), devices connecting elsewhere (an older socket here is closed
 * with 4409) and revoked tokens (closed with 4401).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { PROTOCOL_LIMITS } from '@printwire/shared/protocol/index';
import type { BusEvent, EventBus } from '../bus/events.js';
import { millisecondsFromEnv } from '../config.js';
import { CoalescedPass } from '../lib/coalesced.js';
import type { Clock } from '../lib/clock.js';
import type { AgentConfigService } from '../services/agent-config.js';
import type { DeviceService } from '../services/devices.js';
import type { JobDispatcher } from '../services/dispatcher.js';
import type { JobService } from '../services/jobs.js';
import type { Device } from '../storage/types.js';
import { AgentConnection, type ConnectionLimits } from './connection.js';
import { HandshakeGate } from './handshake-gate.js';

export const CONNECT_PATH = '/agent/v1/connect';

export interface GatewayOptions extends ConnectionLimits {
  /** Silence longer than 2 × heartbeatIntervalMs + this marks the device offline. */
  livenessMarginMs: number;
  /** How often silent sockets are looked for. */
  livenessCheckMs: number;
  /** Largest message accepted (the WebSocket's maxPayload; 1009 above it). */
  maxMessageBytes: number;
  /**
   * Handshakes (token lookup to welcome) run at once; the others wait their turn. 128: their
   * statements are batched (a batch is the handshakes running), so more at once cost less each;
   * 32 brought 10,000 agents back in 25 s on the storm bench, 128 in 16 s.
   */
  maxHandshakes: number;
  /**
   * Most handshakes waiting (fewer when recent handshakes were slow: as many as finished in the
   * last 5 s); beyond it an agent is answered 503 with Retry-After at once.
   */
  handshakeQueue: number;
  /** The Retry-After of that 503: the agent comes back after it, plus up to as much jitter. */
  busyRetryAfterMs: number;
  /**
   * A device whose socket closed is marked offline after this long, unless it connected again
   * meanwhile (here or on another instance): a fleet that reconnects after a deploy or a
   * balancer restart then costs no offline and online writes and events. 0: at once.
   */
  offlineGraceMs: number;
}

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  heartbeatIntervalMs: 15_000,
  livenessMarginMs: 5_000,
  livenessCheckMs: 5_000,
  maxBadMessages: 20,
  lastSeenWriteMs: 60_000,
  tokenRecheckMs: 60_000,
  maxMessageBytes: PROTOCOL_LIMITS.maxMessageBytes,
  maxHandshakes: 128,
  handshakeQueue: 1000,
  busyRetryAfterMs: 5000,
  offlineGraceMs: 0,
};

/** A handshake that sent no hello within this releases its turn anyway (the agent's timeout). */
const HANDSHAKE_TURN_MS = 10_000;
/** Handshakes queue only as deep as can be served within this, half the agent's timeout. */
const HANDSHAKE_WAIT_MS = 5000;

export interface GatewayDeps {
  devices: DeviceService;
  dispatcher: JobDispatcher;
  agentConfig: AgentConfigService;
  jobs: Pick<JobService, 'recordLocal'>;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  options?: Partial<GatewayOptions>;
}

function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

function refuse(socket: Duplex, status: number, text: string): void {
  const body = JSON.stringify({ error: { code: 'UNAUTHORIZED', message: text, retryable: false } });
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}\r\n` +
      'Content-Type: application/json\r\nConnection: close\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Too many agents connecting at once: come back after `retryAfterMs` (rounded up to seconds). */
function busy(socket: Duplex, retryAfterMs: number): void {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const body = JSON.stringify({
    error: {
      code: 'UNAVAILABLE',
      message: `too many agents are connecting at once; try again in ${seconds} s`,
      retryable: true,
    },
  });
  socket.end(
    'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n' +
      `Retry-After: ${seconds}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export class AgentGateway {
  readonly options: GatewayOptions;
  private readonly wss: WebSocketServer;
  private readonly gate: HandshakeGate;
  /** Agents answered 503 because the handshake queue was full (for logs and tests). */
  refusedBusy = 0;
  /** Devices whose socket closed, marked offline when their grace ends, by device id. */
  private readonly pendingOffline = new Map<
    string,
    { timer: NodeJS.Timeout; write: () => Promise<void> }
  >();
  private readonly connections = new Map<string, AgentConnection>();
  private readonly all = new Set<AgentConnection>();
  /** Per organization: configuration pushes, one at a time, changes meanwhile folded in. */
  private readonly configPushes = new Map<string, CoalescedPass>();
  private unsubscribe: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(private readonly deps: GatewayDeps) {
    this.options = { ...DEFAULT_GATEWAY_OPTIONS, ...deps.options };
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.options.maxMessageBytes,
      perMessageDeflate: false,
    });
    this.gate = new HandshakeGate({
      concurrency: this.options.maxHandshakes,
      queue: this.options.handshakeQueue,
      maxWaitMs: HANDSHAKE_WAIT_MS,
    });
  }

  /** Handshakes running and waiting their turn. */
  get handshakes(): { running: number; waiting: number } {
    return this.gate.load;
  }

  /** Serves /agent/v1/connect on `server`, and starts listening to the bus and the clock. */
  async attach(server: Server): Promise<void> {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.upgrade(req, socket, head);
    });
    this.unsubscribe = await this.deps.bus.subscribe((event) => this.onBusEvent(event));
    if (this.options.livenessCheckMs > 0) {
      this.timer = setInterval(() => this.checkLiveness(), this.options.livenessCheckMs);
      this.timer.unref();
    }
  }

  /** Devices connected to this instance. */
  get size(): number {
    return this.connections.size;
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0];
    if (path !== CONNECT_PATH) {
      refuse(socket, 404, `no WebSocket endpoint at ${path}`);
      return;
    }
    const token = bearer(req);
    const hungUp = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const release = await this.gate.enter(hungUp);
    if (!release) {
      if (!socket.destroyed) {
        this.refusedBusy++;
        busy(socket, this.options.busyRetryAfterMs);
      }
      return;
    }
    const turn = setTimeout(release, HANDSHAKE_TURN_MS);
    turn.unref();
    const done = () => {
      clearTimeout(turn);
      release();
    };
    if (socket.destroyed) {
      done();
      return;
    }
    let device: Device | undefined;
    try {
      device = token ? await this.deps.devices.authenticate(token) : undefined;
    } catch (err) {
      done();
      this.deps.logger.error({ err }, 'device token lookup failed');
      busy(socket, this.options.busyRetryAfterMs);
      return;
    }
    if (!device || !token || this.closing) {
      done();
      refuse(socket, 401, 'the device token is unknown or revoked');
      return;
    }
    const found = device;
    this.wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const connection = new AgentConnection(ws, found, token, randomUUID(), {
        devices: this.deps.devices,
        dispatcher: this.deps.dispatcher,
        agentConfig: this.deps.agentConfig,
        jobs: this.deps.jobs,
        clock: this.deps.clock,
        logger: this.deps.logger,
        limits: this.options,
        register: (c) => this.register(c),
        unregister: (c) => this.unregister(c),
        handshakeDone: done,
        offline: (c) => this.offline(c),
      });
      this.all.add(connection);
      void connection.closed.then(() => this.all.delete(connection));
    });
  }

  /** The device's socket closed: offline now, or when its grace ends if it has not come back. */
  private async offline(connection: AgentConnection): Promise<void> {
    const { organizationId, deviceId } = connection;
    const write = () => this.deps.devices.disconnected(organizationId, deviceId);
    const grace = this.options.offlineGraceMs;
    if (grace <= 0 || this.closing) return write();
    this.cancelOffline(deviceId);
    const timer = setTimeout(() => {
      this.pendingOffline.delete(deviceId);
      if (this.connections.has(deviceId)) return;
      write().catch((err: unknown) =>
        this.deps.logger.error({ err, deviceId }, 'marking the device offline failed'),
      );
    }, grace);
    timer.unref();
    this.pendingOffline.set(deviceId, { timer, write });
  }

  private cancelOffline(deviceId: string): void {
    const pending = this.pendingOffline.get(deviceId);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pendingOffline.delete(deviceId);
  }

  private register(connection: AgentConnection): boolean {
    if (this.closing) return false;
    this.cancelOffline(connection.deviceId);
    const older = this.connections.get(connection.deviceId);
    this.connections.set(connection.deviceId, connection);
    if (older && older !== connection) older.supersede();
    void this.deps.bus
      .publish({
        type: 'gateway.signal',
        action: 'connected',
        organizationId: connection.organizationId,
        deviceId: connection.deviceId,
        connectionId: connection.id,
      })
      .catch((err: unknown) => this.deps.logger.error({ err }, 'publishing a signal failed'));
    return true;
  }

  private unregister(connection: AgentConnection): boolean {
    if (this.connections.get(connection.deviceId) !== connection) return false;
    this.connections.delete(connection.deviceId);
    return true;
  }

  private onBusEvent(event: BusEvent): void {
    if (event.type === 'job.state_changed') {
      this.deps.dispatcher.onJobEvent(event);
      return;
    }
    if (event.type === 'agents.config_changed') {
      this.deps.agentConfig.forget(event.organizationId);
      void this.pushConfig(event.organizationId);
      return;
    }
    if (event.type !== 'gateway.signal') return;
    if (event.action === 'connected') this.cancelOffline(event.deviceId);
    const connection = this.connections.get(event.deviceId);
    if (!connection || connection.organizationId !== event.organizationId) return;
    if (event.action === 'revoked') connection.revoked();
    else if (event.connectionId !== connection.id) connection.supersede();
  }

  /**
   * Sends `config` to every agent of the organization connected here, reading the organization's
   * part once. Resolves when done (tests await it); failures are logged.
   */
  pushConfig(organizationId: string): Promise<void> {
    let pass = this.configPushes.get(organizationId);
    if (!pass) {
      pass = new CoalescedPass(
        async () => {
          const here = [...this.connections.values()].filter(
            (c) => c.organizationId === organizationId,
          );
          if (here.length === 0) return;
          const organization = await this.deps.agentConfig.organizationConfig(organizationId);
          if (!organization) return;
          for (const connection of here) await connection.pushConfig(organization);
        },
        (err) => this.deps.logger.error({ err, organizationId }, 'pushing agent configs failed'),
      );
      this.configPushes.set(organizationId, pass);
    }
    const current = pass;
    return current.run().finally(() => {
      if (this.configPushes.get(organizationId) === current && !current.busy) {
        this.configPushes.delete(organizationId);
      }
    });
  }

  /** Devices connected here that have been silent for longer than the liveness limit. */
  silent(): AgentConnection[] {
    const now = this.deps.clock.now();
    const limit = 2 * this.options.heartbeatIntervalMs + this.options.livenessMarginMs;
    return [...this.all].filter((c) => now - c.lastHeardAt > limit);
  }

  /** Drops sockets silent for longer than 2 × heartbeatIntervalMs + the margin. */
  checkLiveness(): number {
    const silent = this.silent();
    for (const connection of silent) {
      this.deps.logger.info({ deviceId: connection.deviceId }, 'agent silent: offline');
      connection.terminate();
    }
    return silent.length;
  }

  /** Closes every agent socket (1001, `shutdown`: they reconnect) and waits for the cleanup. */
  async close(graceMs = 5_000): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    const open = [...this.all];
    for (const c of open) c.closeWith(1001, 'shutdown', 'the cloud is restarting', true);
    const done = Promise.all(open.map((c) => c.closed));
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      done,
      new Promise<void>((resolve) => {
        timeout = setTimeout(() => {
          for (const c of open) c.terminate();
          resolve();
        }, graceMs);
      }),
    ]);
    clearTimeout(timeout);
    // Stopping: the devices whose grace was running are marked offline now.
    const pending = [...this.pendingOffline.values()];
    this.pendingOffline.clear();
    for (const { timer } of pending) clearTimeout(timer);
    await Promise.all(
      pending.map(({ write }) =>
        write().catch((err: unknown) =>
          this.deps.logger.error({ err }, 'marking a device offline failed'),
        ),
      ),
    );
    await this.unsubscribe?.();
    this.wss.close();
  }
}

/**
 * Gateway limits from the environment (all optional): `AGENT_HEARTBEAT_INTERVAL_MS`
 * (1000-300000, default 15000), `AGENT_LIVENESS_MARGIN_MS` (0-300000, default 5000) and
 * `AGENT_TOKEN_RECHECK_MS` (how often a connected device's token is checked again; 1000-86400000,
 * default 60000) and `AGENT_OFFLINE_GRACE_MS` (how long a closed socket waits before its device
 * is marked offline; 0-300000, default 0: at once). A value outside its rule is refused, naming
 * the variable and the rule.
 */
export function gatewayOptionsFromEnv(env: NodeJS.ProcessEnv): Partial<GatewayOptions> {
  const options: Partial<GatewayOptions> = {};
  const heartbeat = millisecondsFromEnv(
    env,
    'AGENT_HEARTBEAT_INTERVAL_MS',
    PROTOCOL_LIMITS.minHeartbeatIntervalMs,
    PROTOCOL_LIMITS.maxHeartbeatIntervalMs,
  );
  if (heartbeat !== undefined) {
    options.heartbeatIntervalMs = heartbeat;
    options.livenessCheckMs = Math.min(DEFAULT_GATEWAY_OPTIONS.livenessCheckMs, heartbeat);
  }
  const margin = millisecondsFromEnv(env, 'AGENT_LIVENESS_MARGIN_MS', 0, 300_000);
  if (margin !== undefined) options.livenessMarginMs = margin;
  const recheck = millisecondsFromEnv(env, 'AGENT_TOKEN_RECHECK_MS', 1000, 86_400_000);
  if (recheck !== undefined) options.tokenRecheckMs = recheck;
  const grace = millisecondsFromEnv(env, 'AGENT_OFFLINE_GRACE_MS', 0, 300_000);
  if (grace !== undefined) options.offlineGraceMs = grace;
  return options;
}
