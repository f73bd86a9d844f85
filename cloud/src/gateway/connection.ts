/**
 * One agent's WebSocket: hello → welcome, then heartbeats, printer reports and job messages.
 * Messages are handled one at a time, in order. A malformed or oversized message gets an `error`
 * answer; too many of them close this socket with 4400. Nothing here touches another agent.
 */
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import {
  AGENT_CLOSE_CODES,
  parseAgentMessage,
  PROTOCOL_VERSION,
  serializeMessage,
  type AgentMessage,
  type AgentMessageOf,
  type CloudMessage,
  type CloudMessageOf,
  type RawMessage,
} from '@printwire/shared/protocol/index';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Clock } from '../lib/clock.js';
import {
  printersConfig,
  type AgentConfigService,
  type OrganizationConfig,
} from '../services/agent-config.js';
import type { DeviceService } from '../services/devices.js';
import type { DeviceLink, JobDispatcher } from '../services/dispatcher.js';
import type { JobService } from '../services/jobs.js';
import type { Device, Printer } from '../storage/types.js';

export interface ConnectionLimits {
  heartbeatIntervalMs: number;
  /** Bad messages tolerated on one connection before it is closed with 4400. */
  maxBadMessages: number;
  /** How often the device's lastSeenAt is written while heartbeats arrive. */
  lastSeenWriteMs: number;
  /** How often the token is checked again (a revoked token closes the socket). */
  tokenRecheckMs: number;
}

export interface ConnectionHost {
  devices: DeviceService;
  dispatcher: JobDispatcher;
  /** Builds the configuration of welcome and config. */
  agentConfig: AgentConfigService;
  /** Stores the local jobs the agent reports (job.local). */
  jobs: Pick<JobService, 'recordLocal'>;
  clock: Clock;
  logger: Logger;
  limits: ConnectionLimits;
  /** Makes this the device's connection (closing an older one); false when closing down. */
  register(connection: AgentConnection): boolean;
  /** Forgets this connection; true when it was the device's current one. */
  unregister(connection: AgentConnection): boolean;
  /** Called once the hello is handled (welcome sent or refused) or the socket closed. */
  handshakeDone?: () => void;
  /** Marks the device offline (now, or after a grace the gateway decides); default: now. */
  offline?: (connection: AgentConnection) => Promise<void>;
}

type CloseReason = CloudMessageOf<'close'>['reason'];

export class AgentConnection implements DeviceLink {
  readonly organizationId: string;
  readonly deviceId: string;
  /** Epoch ms (injected clock) of the last frame or ping from the agent. */
  lastHeardAt: number;
  private welcomed = false;
  /** From hello: decides which templates the agent receives (no HTML before 1.0.1). */
  private agentVersion = '';
  /** What the agent announced in hello beyond protocol 1 (`job.withdraw`). */
  features: readonly string[] = [];
  /** A configuration change arrived between hello and welcome: push once welcomed. */
  private configStale = false;
  private badMessages = 0;
  private lastSeenWrittenAt: number;
  private lastTokenCheckAt: number;
  /** Set when the device is online elsewhere: closing this one must not mark it offline. */
  private superseded = false;
  private chain: Promise<void> = Promise.resolve();
  readonly closed: Promise<void>;

  constructor(
    private readonly socket: WebSocket,
    readonly device: Device,
    private readonly token: string,
    readonly id: string,
    private readonly host: ConnectionHost,
  ) {
    this.organizationId = device.organizationId;
    this.deviceId = device.id;
    const now = host.clock.now();
    this.lastHeardAt = now;
    this.lastSeenWrittenAt = now;
    this.lastTokenCheckAt = now;
    socket.on('message', (raw: RawMessage) => {
      this.lastHeardAt = host.clock.now();
      this.chain = this.chain.then(() => this.handle(raw)).catch((err: unknown) => this.crash(err));
    });
    socket.on('ping', () => {
      this.lastHeardAt = host.clock.now();
    });
    socket.on('error', (err) => host.logger.info({ err, deviceId: this.deviceId }, 'socket error'));
    this.closed = new Promise((resolve) => {
      socket.once('close', (code: number) => {
        this.chain = this.chain.then(() => this.onClose(code)).finally(resolve);
      });
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  send(message: CloudMessage): boolean {
    if (!this.isOpen) return false;
    try {
      this.socket.send(serializeMessage(message));
      return true;
    } catch (err) {
      this.host.logger.error({ err, deviceId: this.deviceId, type: message.type }, 'send failed');
      return false;
    }
  }

  /** Sends `close` with the reason in words, then closes the socket with `code`. */
  closeWith(code: number, reason: CloseReason, message: string, retry: boolean): void {
    this.send({ type: 'close', reason, message, retry });
    this.socket.close(code, reason);
  }

  /** The device is now connected through another socket (here or on another instance). */
  supersede(): void {
    this.superseded = true;
    this.closeWith(
      AGENT_CLOSE_CODES.REPLACED,
      'replaced',
      'another connection with this device token took over',
      false,
    );
  }

  /** The socket went silent: dropped without a close handshake. */
  terminate(): void {
    this.socket.terminate();
  }

  private async handle(raw: RawMessage): Promise<void> {
    const parsed = parseAgentMessage(raw);
    if (!parsed.ok) {
      this.refuse(parsed.error.code, parsed.error.message, parsed.error.id);
      return;
    }
    const message = parsed.message;
    if (!this.welcomed) {
      try {
        if (message.type === 'hello') await this.hello(message);
        else this.refuse('VALIDATION_FAILED', `${message.type}: the first message must be hello`);
      } finally {
        this.host.handshakeDone?.();
      }
      return;
    }
    await this.dispatch(message);
  }

  private async dispatch(message: AgentMessage): Promise<void> {
    const { devices, dispatcher } = this.host;
    switch (message.type) {
      case 'hello':
        this.refuse('VALIDATION_FAILED', 'hello: already welcomed', message.id);
        return;
      case 'heartbeat':
        await this.heartbeat();
        return;
      case 'printers':
        await devices.printersReported(
          this.organizationId,
          this.deviceId,
          message.printers,
          message.hidden,
        );
        return;
      case 'printer.status':
        await devices.printerStatus(
          this.organizationId,
          this.deviceId,
          message.agentPrinterId,
          message.status,
        );
        return;
      case 'job.ack':
        dispatcher.acknowledged(this, message);
        return;
      case 'job.progress':
        await dispatcher.progress(this, message);
        return;
      case 'job.result':
        await dispatcher.result(this, message);
        this.send({ type: 'ack', id: message.id });
        return;
      case 'job.cancelled':
        dispatcher.cancelled(this, message);
        this.send({ type: 'ack', id: message.id });
        return;
      case 'job.withdrawn':
        await dispatcher.withdrawn(this, message);
        this.send({ type: 'ack', id: message.id });
        return;
      case 'job.local':
        await this.localJob(message);
        return;
    }
  }

  /** Stores the report, then acknowledges it; without the ack the agent sends it again later. */
  private async localJob(message: AgentMessageOf<'job.local'>): Promise<void> {
    try {
      await this.host.jobs.recordLocal(this.organizationId, this.deviceId, message.job);
    } catch (error) {
      if (!(error instanceof PrintwireError) || error.code !== 'CONFLICT') throw error;
      this.refuse('CONFLICT', `job.local: ${error.message}`, message.id);
      return;
    }
    this.send({ type: 'ack', id: message.id });
  }

  /**
   * Sends the whole configuration again, with the organization-wide part read once for all of
   * its agents; nothing before welcome (welcome carries the configuration read after it).
   */
  async pushConfig(organization: OrganizationConfig): Promise<void> {
    if (!this.isOpen) return;
    if (!this.welcomed) {
      this.configStale = true;
      return;
    }
    const printers = await this.host.agentConfig.printersOf(this.organizationId, this.deviceId);
    this.send({ type: 'config', config: this.configWith(organization, printers) });
  }

  private configWith(
    organization: OrganizationConfig | undefined,
    printers: Printer[],
  ): CloudMessageOf<'config'>['config'] {
    if (!organization) return { printers: printersConfig(printers) };
    return this.host.agentConfig.configFor(
      organization,
      printers,
      this.agentVersion,
      this.deviceId,
    );
  }

  private async hello(message: AgentMessageOf<'hello'>): Promise<void> {
    if (message.protocolVersion !== PROTOCOL_VERSION) {
      this.closeWith(
        AGENT_CLOSE_CODES.UNSUPPORTED_VERSION,
        'unsupported_version',
        `this cloud speaks protocol version ${PROTOCOL_VERSION}, not ${message.protocolVersion}`,
        false,
      );
      return;
    }
    if (!this.host.register(this)) {
      this.closeWith(1001, 'shutdown', 'the cloud is shutting down', true);
      return;
    }
    this.agentVersion = message.agentVersion;
    this.features = message.features ?? [];
    const [printers, organization] = await Promise.all([
      this.host.devices.connected(this.device, message),
      this.host.agentConfig.organizationConfig(this.organizationId),
    ]);
    this.welcomed = true;
    this.send({
      type: 'welcome',
      replyTo: message.id,
      protocolVersion: PROTOCOL_VERSION,
      deviceId: this.deviceId,
      heartbeatIntervalMs: this.host.limits.heartbeatIntervalMs,
      config: this.configWith(organization, printers),
    });
    this.host.dispatcher.attach(this);
    if (this.configStale) {
      // The welcome's configuration may have been read before that change was stored.
      this.configStale = false;
      const fresh = await this.host.agentConfig.organizationConfig(this.organizationId);
      if (fresh) await this.pushConfig(fresh);
    }
    // The backlog goes out paced with other devices' backlogs; messages keep being handled.
    void this.host.dispatcher
      .sendBacklog(this)
      .catch((err: unknown) =>
        this.host.logger.error({ err, deviceId: this.deviceId }, 'sending the backlog failed'),
      );
  }

  private async heartbeat(): Promise<void> {
    const { clock, limits, devices } = this.host;
    const now = clock.now();
    if (now - this.lastTokenCheckAt >= limits.tokenRecheckMs) {
      this.lastTokenCheckAt = now;
      const device = await devices.authenticate(this.token);
      if (!device || device.id !== this.deviceId) {
        this.revoked();
        return;
      }
    }
    if (now - this.lastSeenWrittenAt >= limits.lastSeenWriteMs) {
      this.lastSeenWrittenAt = now;
      await devices.heardFrom(this.organizationId, this.deviceId);
    }
  }

  revoked(): void {
    this.closeWith(
      AGENT_CLOSE_CODES.UNAUTHORIZED,
      'token_revoked',
      'the device token was revoked; activate the agent again',
      false,
    );
  }

  private refuse(code: string, message: string, replyTo?: string): void {
    this.badMessages++;
    this.host.logger.info({ deviceId: this.deviceId, code, message }, 'refused an agent message');
    this.send({
      type: 'error',
      ...(replyTo ? { replyTo } : {}),
      code,
      message: message.slice(0, 4096),
    });
    if (this.badMessages > this.host.limits.maxBadMessages) {
      this.closeWith(
        AGENT_CLOSE_CODES.PROTOCOL_ERROR,
        'protocol_error',
        `more than ${this.host.limits.maxBadMessages} malformed messages`,
        true,
      );
    }
  }

  private crash(err: unknown): void {
    this.host.logger.error({ err, deviceId: this.deviceId }, 'handling an agent message failed');
  }

  private async onClose(code: number): Promise<void> {
    const { dispatcher, devices, logger } = this.host;
    this.host.handshakeDone?.();
    dispatcher.detach(this);
    const current = this.host.unregister(this);
    logger.info({ deviceId: this.deviceId, code }, 'agent disconnected');
    if (!current || this.superseded || !this.welcomed) return;
    try {
      if (this.host.offline) await this.host.offline(this);
      else await devices.disconnected(this.organizationId, this.deviceId);
    } catch (err) {
      logger.error({ err, deviceId: this.deviceId }, 'marking the device offline failed');
    }
  }
}
