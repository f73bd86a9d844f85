import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { AgentLogger } from '../logs/logger.js';
import type { LocalBackend } from './backend.js';
import { LocalSession } from './session.js';
import { LOCAL_LIMITS, LOCAL_WS_PATH } from './protocol.js';
import { judgeOrigin, type OriginPrompt } from './trust.js';
import { systemClock } from '@printwire/shared/time/clock';

/** The contract's ports: the first free one is used, and the SDK tries them in this order. */
export const LOCAL_PORTS = [21910, 21911, 21912, 21913] as const;

export interface LocalServerOptions {
  backend: LocalBackend;
  tls: { cert: string; key: string };
  logger: AgentLogger;
  /** `--local-port`: this port only; default the first free of `LOCAL_PORTS`. */
  port?: number;
  /** The desktop shell's prompt for unsigned origins; none on a headless agent (refused, logged). */
  prompt?: OriginPrompt;
  /** Seconds since the epoch, for signature timestamps; default the system clock. */
  nowSeconds?: () => number;
  limits?: Partial<typeof LOCAL_LIMITS>;
  /** The agent's own pages at `/` (the desktop issue); default a one-line status page. */
  page?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /**
   * The agent's window (its pages and its API): asked first, and never given CORS headers;
   * true when it took the request.
   */
  window?: { handle(req: IncomingMessage, res: ServerResponse, port: number): boolean };
}

/** First byte of a TLS ClientHello (a handshake record). */
const TLS_HANDSHAKE = 0x16;

/**
 * The agent's local server: one port on 127.0.0.1 and ::1 that answers TLS (https, wss) and
 * plain (http, ws), told apart by the first byte of each connection. It refuses a foreign Host
 * before reading anything else (DNS rebinding), answers CORS only for origins that may print,
 * serves `GET /v1/info`, and runs the WebSocket protocol of docs/local-api.md at `/v1/local`.
 */
export class LocalServer {
  readonly #o: LocalServerOptions;
  readonly #limits: typeof LOCAL_LIMITS;
  readonly #listeners: NetServer[] = [];
  readonly #http = createHttpServer();
  readonly #https;
  readonly #wss: WebSocketServer;
  readonly #sessions = new Set<LocalSession>();
  #port = 0;
  #unsubscribe: (() => void) | null = null;

  constructor(options: LocalServerOptions) {
    this.#o = options;
    this.#limits = { ...LOCAL_LIMITS, ...options.limits };
    this.#https = createHttpsServer({ cert: options.tls.cert, key: options.tls.key });
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.#limits.hardMaxMessageBytes,
    });
    for (const server of [this.#http, this.#https]) {
      server.on('request', (req, res) => this.#request(req, res));
      server.on('upgrade', (req, socket, head) => this.#upgrade(req, socket, head));
      server.on('clientError', (_error, socket) => socket.destroy());
      server.keepAliveTimeout = 5000;
    }
    this.#https.on('tlsClientError', () => undefined);
  }

  get port(): number {
    return this.#port;
  }

  /** `https://localhost:PORT`, or null before `listen`. */
  get url(): string | null {
    return this.#port ? `https://localhost:${this.#port}` : null;
  }

  /** Listens on the fixed port, or the first free of `LOCAL_PORTS`; throws when none is free. */
  async listen(): Promise<number> {
    const candidates = this.#o.port !== undefined ? [this.#o.port] : [...LOCAL_PORTS];
    let lastError: Error | null = null;
    for (const port of candidates) {
      try {
        await this.#listenOn(port);
        this.#unsubscribe = this.#o.backend.subscribe((event) => {
          for (const session of this.#sessions) session.push(event);
        });
        return this.#port;
      } catch (error) {
        lastError = error as Error;
      }
    }
    throw new Error(
      `the local server found no free port among ${candidates.join(', ')}: ${lastError?.message ?? ''}`,
    );
  }

  async #listenOn(port: number): Promise<void> {
    const v4 = await this.#bind('127.0.0.1', port);
    this.#port = (v4.address() as { port: number }).port;
    this.#listeners.push(v4);
    try {
      this.#listeners.push(await this.#bind('::1', this.#port));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A computer without IPv6 on the loopback serves 127.0.0.1 alone.
      if (code !== 'EADDRNOTAVAIL' && code !== 'EAFNOSUPPORT') {
        await new Promise<void>((resolve) => v4.close(() => resolve()));
        this.#listeners.length = 0;
        this.#port = 0;
        throw error;
      }
    }
  }

  #bind(host: string, port: number): Promise<NetServer> {
    return new Promise((resolve, reject) => {
      const server = createNetServer({ pauseOnConnect: true }, (socket) => this.#route(socket));
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, () => {
        server.off('error', reject);
        resolve(server);
      });
    });
  }

  /** Hands the connection to https or http after peeking at its first byte. */
  #route(socket: Socket): void {
    socket.on('error', () => socket.destroy());
    socket.setTimeout(10_000, () => socket.destroy());
    socket.once('readable', () => {
      const head = socket.read(1) as Buffer | null;
      if (!head) return socket.destroy();
      socket.unshift(head);
      socket.setTimeout(0);
      const target = head[0] === TLS_HANDSHAKE ? this.#https : this.#http;
      target.emit('connection', socket);
      socket.resume();
    });
    socket.resume();
    socket.pause();
  }

  /** Whether the Host header names this server (localhost, 127.0.0.1 or [::1] with its port). */
  #hostOk(req: IncomingMessage): boolean {
    const host = (req.headers.host ?? '').toLowerCase();
    const port = String(this.#port);
    return host === `localhost:${port}` || host === `127.0.0.1:${port}` || host === `[::1]:${port}`;
  }

  #origin(req: IncomingMessage): string {
    const origin = req.headers.origin;
    return typeof origin === 'string' && origin.length > 0 && origin.length <= 512
      ? origin
      : 'null';
  }

  /** The CORS headers for an origin that may print; none for one that may not. */
  #cors(req: IncomingMessage, res: ServerResponse): void {
    if (req.headers.origin === undefined) return;
    const origin = this.#origin(req);
    const b = this.#o.backend;
    const verdict = judgeOrigin(origin, b.settings(), b.originAnswers(), Boolean(this.#o.prompt));
    if (verdict.kind === 'refuse') return;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET');
      res.setHeader('Access-Control-Allow-Headers', 'content-type');
      // Chrome's Private Network Access / Local Network Access preflight.
      if (req.headers['access-control-request-private-network'] === 'true') {
        res.setHeader('Access-Control-Allow-Private-Network', 'true');
      }
      res.setHeader('Access-Control-Max-Age', '600');
    }
  }

  #json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    res.end(JSON.stringify(body));
  }

  #request(req: IncomingMessage, res: ServerResponse): void {
    if (!this.#hostOk(req)) {
      return this.#json(res, 421, {
        error: {
          code: 'BAD_MESSAGE',
          message: `Host ${req.headers.host ?? '(none)'} is not this agent: use localhost:${this.#port}`,
          retryable: false,
        },
      });
    }
    if (this.#o.window?.handle(req, res, this.#port)) return;
    this.#cors(req, res);
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      return void res.end();
    }
    if (req.method === 'GET' && path === '/v1/info') {
      return this.#json(res, 200, this.#o.backend.info());
    }
    if (req.method === 'GET' && path === '/' && this.#o.page?.(req, res) !== true) {
      const info = this.#o.backend.info();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(
        `<!doctype html><html lang="en"><meta charset="utf-8"><title>Printwire agent</title>` +
          `<p>Printwire agent ${info.agentVersion}: cloud ${info.cloud}.</p></html>`,
      );
    }
    if (req.method === 'GET' && path === '/') return;
    this.#json(res, 404, {
      error: { code: 'BAD_MESSAGE', message: `no ${req.method} ${path} here`, retryable: false },
    });
  }

  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? '/').split('?')[0];
    if (!this.#hostOk(req) || path !== LOCAL_WS_PATH) {
      const status = this.#hostOk(req) ? '404 Not Found' : '421 Misdirected Request';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const origin = this.#origin(req);
      const session = new LocalSession(ws, {
        origin,
        backend: this.#o.backend,
        logger: this.#o.logger,
        limits: this.#limits,
        nowSeconds: this.#o.nowSeconds ?? (() => Math.floor(systemClock.now() / 1000)),
        ...(this.#o.prompt ? { prompt: this.#o.prompt } : {}),
      });
      if (this.#sessions.size >= this.#limits.maxSessions) {
        session.refuse('UNAVAILABLE', `at most ${this.#limits.maxSessions} pages at once`);
        return;
      }
      this.#sessions.add(session);
      ws.on('close', () => this.#sessions.delete(session));
      session.open();
    });
  }

  async close(): Promise<void> {
    this.#unsubscribe?.();
    for (const session of this.#sessions) session.close(1001, 'agent stopping');
    await Promise.all(
      this.#listeners.map((l) => new Promise<void>((resolve) => l.close(() => resolve()))),
    );
    this.#http.closeAllConnections();
    this.#https.closeAllConnections();
    this.#listeners.length = 0;
  }
}
