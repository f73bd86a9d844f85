import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  AGENT_CLOSE_CODES,
  parseAgentMessage,
  type AgentMessage,
  type AgentConfig,
  type CloudMessage,
  type DispatchedJob,
} from '@printwire/shared/protocol/index';

/**
 * A small cloud for agent tests: answers `POST /agent/v1/activate` and speaks the agent
 * protocol on `/agent/v1/connect` (hello → welcome, acks results). Tests drive it: dispatch,
 * cancel, revoke, drop connections. Events: `connection`, `message` (each parsed agent message).
 */
export class FakeCloud extends EventEmitter {
  url = '';
  /** Codes that activate a device, and the device each makes. */
  readonly activationCodes = new Map<string, { deviceId: string; deviceToken: string }>();
  readonly validTokens = new Set<string>();
  /** Every message agents sent, in order. */
  readonly received: AgentMessage[] = [];
  /** Acknowledge job.result, job.cancelled, job.withdrawn and job.local messages (on by default). */
  autoAck = true;
  heartbeatIntervalMs = 15_000;
  /** Answer `hello` with `welcome` (on by default). */
  answerHello = true;
  config: AgentConfig = { printers: [] };
  /** Handshakes refused with 401. */
  refusedHandshakes = 0;
  connections = 0;
  #http: Server;
  #wss = new WebSocketServer({ noServer: true });
  #socket: WebSocket | null = null;

  private constructor() {
    super();
    this.#http = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/agent/v1/activate') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const { code } = JSON.parse(body) as { code: string };
          const device = this.activationCodes.get(code);
          res.setHeader('content-type', 'application/json');
          if (!device) {
            res.statusCode = 401;
            res.end(
              JSON.stringify({
                error: { code: 'UNAUTHORIZED', message: 'unknown activation code' },
              }),
            );
            return;
          }
          this.activationCodes.delete(code);
          this.validTokens.add(device.deviceToken);
          res.statusCode = 201;
          res.end(JSON.stringify({ ...device, organizationId: 'org_1' }));
        });
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    this.#http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (req.url !== '/agent/v1/connect' || !this.validTokens.has(token)) {
        this.refusedHandshakes += 1;
        socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws));
    });
  }

  static async start(): Promise<FakeCloud> {
    const cloud = new FakeCloud();
    cloud.#http.listen(0, '127.0.0.1');
    await once(cloud.#http, 'listening');
    const address = cloud.#http.address();
    if (address && typeof address === 'object') cloud.url = `http://127.0.0.1:${address.port}`;
    return cloud;
  }

  get socket(): WebSocket | null {
    return this.#socket;
  }

  send(message: CloudMessage): void {
    if (!this.#socket) throw new Error('fake cloud: no agent connected');
    this.#socket.send(JSON.stringify(message));
  }

  dispatch(job: DispatchedJob): void {
    this.send({ type: 'job.dispatch', job });
  }

  /** Resolves with the first message (from now on, or already received when `past`) matching. */
  waitFor<T extends AgentMessage['type']>(
    type: T,
    match: (m: Extract<AgentMessage, { type: T }>) => boolean = () => true,
    options: { timeoutMs?: number; past?: boolean } = {},
  ): Promise<Extract<AgentMessage, { type: T }>> {
    const test = (m: AgentMessage): m is Extract<AgentMessage, { type: T }> =>
      m.type === type && match(m as Extract<AgentMessage, { type: T }>);
    if (options.past) {
      const found = this.received.find(test);
      if (found) return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('message', listener);
        reject(new Error(`fake cloud: no ${type} message`));
      }, options.timeoutMs ?? 10_000);
      const listener = (m: AgentMessage) => {
        if (!test(m)) return;
        clearTimeout(timer);
        this.off('message', listener);
        resolve(m);
      };
      this.on('message', listener);
    });
  }

  /** Revokes the token: tells the agent why, then closes with 4401. */
  revoke(token: string): void {
    this.validTokens.delete(token);
    if (!this.#socket) return;
    this.send({
      type: 'close',
      reason: 'token_revoked',
      message: 'the device token was revoked',
      retry: false,
    });
    this.#socket.close(AGENT_CLOSE_CODES.UNAUTHORIZED, 'token revoked');
  }

  /** Cuts every connection, as a crashing cloud would. */
  dropConnections(): void {
    for (const ws of this.#wss.clients) ws.terminate();
  }

  async stop(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  #accept(ws: WebSocket): void {
    this.#socket = ws;
    this.connections += 1;
    ws.on('message', (data: Buffer) => {
      const parsed = parseAgentMessage(data);
      if (!parsed.ok) {
        ws.send(
          JSON.stringify({ type: 'error', code: parsed.error.code, message: parsed.error.message }),
        );
        return;
      }
      const message = parsed.message;
      this.received.push(message);
      if (message.type === 'hello' && this.answerHello) {
        this.send({
          type: 'welcome',
          replyTo: message.id,
          protocolVersion: 1,
          deviceId: 'dev_1',
          heartbeatIntervalMs: this.heartbeatIntervalMs,
          config: this.config,
        });
      }
      if (
        this.autoAck &&
        (message.type === 'job.result' ||
          message.type === 'job.cancelled' ||
          message.type === 'job.withdrawn' ||
          message.type === 'job.local')
      ) {
        this.send({ type: 'ack', id: message.id });
      }
      this.emit('message', message);
    });
    ws.on('close', () => {
      if (this.#socket === ws) this.#socket = null;
    });
    this.emit('connection', ws);
  }
}
