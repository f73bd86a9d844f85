import { timingSafeEqual } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PrintwireError, type ErrorCode, ERROR_CATALOG } from '@printwire/shared/errors/index';
import type { PrinterInfo } from '@printwire/shared/protocol/index';
import type { AgentLogger } from '../logs/logger.js';
import type { QueueListEntry } from '../queue/job-queue.js';
import type { AgentState } from './agent-state.js';
import type { LogLine } from './log-tail.js';
import type { Preferences } from './preferences.js';
import type { WindowPrompts } from './prompts.js';
import type { WindowPrinters, WindowState } from './window-types.js';

/** The header that carries the per-launch window key on every window API request. */
export const WINDOW_KEY_HEADER = 'x-printwire-window-key';
/** The window's API, under the local server's port. */
export const WINDOW_API_PREFIX = '/window/api/';
/** The window's pages (one app, routed in the browser). */
export const WINDOW_PAGES = ['/', '/printers', '/queue', '/activation', '/settings', '/logs'];

/** Where `npm run build -w @printwire/agent-window` writes the window's app. */
export const WINDOW_DIST = fileURLToPath(new URL('../../window/dist/', import.meta.url));

/** What the window's API needs from the agent (the `Agent` has it). */
export interface WindowAgent {
  readonly dataDir: string;
  readonly logger: AgentLogger;
  readonly paused: boolean;
  readonly preferences: Preferences;
  readonly config: {
    deviceId: string | null;
    organizationId: string | null;
    deviceName: string | null;
    cloudUrl: string | null;
    printers: Array<{ agentPrinterId: string }>;
  };
  state(): AgentState;
  onState(listener: (state: AgentState) => void): () => void;
  onChange(listener: (what: 'jobs' | 'printers') => void): () => void;
  printerInfo(): PrinterInfo[];
  hiddenPrinters(): Array<{ agentPrinterId: string; uri: string; name: string }>;
  setPrinterHidden(agentPrinterId: string, hidden: boolean): Promise<void>;
  printTestPage(agentPrinterId: string): Promise<void>;
  jobs(limit?: number): QueueListEntry[];
  cancelJob(jobId: string): Promise<void>;
  retryJob(jobId: string): void;
  pause(): void;
  resume(): void;
  activate(input: { code: string; cloudUrl?: string; name?: string }): Promise<void>;
  settings(): unknown;
  updateSettings(change: {
    cloudUrl?: string;
    localPort?: number | null;
    startAtLogin?: boolean;
    notificationsMuted?: boolean;
  }): unknown;
  logTail(count?: number): LogLine[];
  exportLogs(out: string): Promise<{ files: string[] }>;
}

export interface WindowRoutesOptions {
  agent: WindowAgent;
  /** The per-launch key; requests without it are refused (403). */
  key: string;
  agentVersion: string;
  /** The trust prompt answered in the window; none on a headless agent. */
  prompts?: WindowPrompts;
  /** The built app; default `WINDOW_DIST`. */
  distDir?: string;
}

/** The Content-Security-Policy of the window's pages: nothing from another origin, no framing. */
export const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
  "frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

const activateSchema = z.object({
  code: z.string().trim().min(4, 'code: enter the activation code from the dashboard').max(64),
  cloudUrl: z.url({ protocol: /^https?$/, error: 'cloudUrl: must be an http(s) URL' }).optional(),
  name: z.string().trim().min(1).max(100).optional(),
});
const settingsSchema = z
  .object({
    cloudUrl: z.url({ protocol: /^https?$/, error: 'cloudUrl: must be an http(s) URL' }),
    localPort: z.number().int().min(1024).max(65535).nullable(),
    startAtLogin: z.boolean(),
    notificationsMuted: z.boolean(),
  })
  .partial()
  .strict();
const answerSchema = z.object({ answer: z.enum(['once', 'always', 'block']) });

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The agent window's pages and API on the local server. The pages are static; every API
 * request must carry the per-launch key (which only the desktop shell, or `printwire-agent
 * window` for the data dir's owner, hands to the window), come from the same origin, and never
 * gets CORS headers: pages that may print locally cannot pause, activate, read the logs or
 * answer the trust prompt.
 */
export class WindowRoutes {
  readonly #o: WindowRoutesOptions;
  readonly #dist: string;

  constructor(options: WindowRoutesOptions) {
    this.#o = options;
    this.#dist = options.distDir ?? WINDOW_DIST;
  }

  /** True when the request was the window's (answered or being answered). */
  handle(req: IncomingMessage, res: ServerResponse, port: number): boolean {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith(WINDOW_API_PREFIX)) {
      void this.#api(req, res, path.slice(WINDOW_API_PREFIX.length), port).catch((error: unknown) =>
        this.#error(res, error),
      );
      return true;
    }
    if (req.method !== 'GET') return false;
    if (WINDOW_PAGES.includes(path)) return this.#file(res, 'index.html');
    if (path.startsWith('/assets/') || path === '/favicon.svg')
      return this.#file(res, path.slice(1));
    return false;
  }

  #file(res: ServerResponse, name: string): boolean {
    const path = normalize(join(this.#dist, name));
    if (!path.startsWith(normalize(this.#dist + sep)) || !existsSync(path)) {
      if (name !== 'index.html') return false;
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The agent window is not built: npm run build -w @printwire/agent-window');
      return true;
    }
    if (!statSync(path).isFile()) return false;
    res.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'content-security-policy': WINDOW_CSP,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': name === 'index.html' ? 'no-store' : 'public, max-age=31536000, immutable',
    });
    res.end(readFileSync(path));
    return true;
  }

  /** Same origin, and the key: anything else is refused before the request is read. */
  #authorize(req: IncomingMessage, port: number): void {
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') {
      throw new HttpError(403, 'FORBIDDEN', 'the window API answers its own pages only');
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const own = ['localhost', '127.0.0.1', '[::1]'].flatMap((h) => [
        `http://${h}:${port}`,
        `https://${h}:${port}`,
      ]);
      if (!own.includes(origin)) {
        throw new HttpError(403, 'FORBIDDEN', 'the window API answers its own pages only');
      }
    }
    const given = req.headers[WINDOW_KEY_HEADER];
    const expected = Buffer.from(this.#o.key);
    if (
      typeof given !== 'string' ||
      given.length !== this.#o.key.length ||
      !timingSafeEqual(Buffer.from(given), expected)
    ) {
      throw new HttpError(
        403,
        'FORBIDDEN',
        'the window key is missing or wrong: open the window again',
      );
    }
  }

  async #api(req: IncomingMessage, res: ServerResponse, route: string, port: number) {
    this.#authorize(req, port);
    const a = this.#o.agent;
    const parts = route.split('/').map(decodeURIComponent);
    const method = req.method ?? 'GET';
    const ok = (body: unknown) => this.#json(res, 200, body);
    const key = `${method} ${parts[0]}${parts.length > 2 ? ` :id ${parts[2]}` : ''}`;
    switch (key) {
      case 'GET state':
        return ok(this.#state());
      case 'GET events':
        return this.#events(req, res);
      case 'GET printers':
        return ok(this.#printers());
      case 'POST printers :id test':
        await a.printTestPage(parts[1]!);
        return ok({ printed: true });
      case 'POST printers :id hide':
      case 'POST printers :id show':
        await a.setPrinterHidden(parts[1]!, parts[2] === 'hide');
        return ok(this.#printers());
      case 'GET jobs':
        return ok({ data: a.jobs(100) });
      case 'POST jobs :id cancel':
        await a.cancelJob(parts[1]!);
        return ok({ data: a.jobs(100) });
      case 'POST jobs :id retry':
        a.retryJob(parts[1]!);
        return ok({ data: a.jobs(100) });
      case 'POST pause':
        a.pause();
        return ok(this.#state());
      case 'POST resume':
        a.resume();
        return ok(this.#state());
      case 'POST activate': {
        const body = parse(activateSchema, await readJson(req));
        await a.activate({
          code: body.code,
          ...(body.cloudUrl ? { cloudUrl: body.cloudUrl } : {}),
          ...(body.name ? { name: body.name } : {}),
        });
        return ok(this.#state());
      }
      case 'GET settings':
        return ok(a.settings());
      case 'PATCH settings': {
        const body = parse(settingsSchema, await readJson(req));
        return ok(a.updateSettings(body));
      }
      case 'GET logs':
        return ok({ data: a.logTail(200) });
      case 'GET logs-export':
        return this.#export(res);
      case 'GET prompts':
        return ok({ data: this.#o.prompts?.pending() ?? [] });
      case 'POST prompts': {
        const body = parse(answerSchema, await readJson(req));
        const id = parts[1] ?? '';
        if (!this.#o.prompts?.answer(id, body.answer)) {
          throw new HttpError(404, 'NOT_FOUND', 'this question was answered already or timed out');
        }
        return ok({ data: this.#o.prompts.pending() });
      }
      default:
        throw new HttpError(404, 'NOT_FOUND', `no ${method} /window/api/${route} here`);
    }
  }

  #printers(): WindowPrinters {
    const a = this.#o.agent;
    const configured = new Set(a.config.printers.map((p) => p.agentPrinterId));
    return {
      data: a.printerInfo().map(({ capabilities: _c, ...p }) => ({
        ...p,
        configured: configured.has(p.agentPrinterId),
      })),
      hidden: a.hiddenPrinters(),
    };
  }

  #state(): WindowState {
    const a = this.#o.agent;
    return {
      ...a.state(),
      agentVersion: this.#o.agentVersion,
      deviceId: a.config.deviceId,
      deviceName: a.config.deviceName,
      organizationId: a.config.organizationId,
      organizationName: a.preferences.organizationName,
      cloudUrl: a.config.cloudUrl,
      canAsk: Boolean(this.#o.prompts),
    };
  }

  /** Server-sent events: `state`, `jobs`, `printers`, `prompts` (the window refetches). */
  #events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const send = (event: string, data: unknown) =>
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('state', this.#state());
    const offs = [
      this.#o.agent.onState(() => send('state', this.#state())),
      this.#o.agent.onChange((what) => send(what, {})),
      this.#o.prompts?.onChange(() => send('prompts', {})) ?? (() => undefined),
    ];
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    ping.unref();
    const close = () => {
      clearInterval(ping);
      for (const off of offs) off();
    };
    req.on('close', close);
    res.on('error', close);
  }

  async #export(res: ServerResponse): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'printwire-logs-'));
    try {
      const out = join(dir, 'logs.zip');
      await this.#o.agent.exportLogs(out);
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      res.writeHead(200, {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="printwire-agent-logs-${stamp}.zip"`,
        'cache-control': 'no-store',
      });
      res.end(readFileSync(out));
      this.#o.agent.logger.info('logs exported from the window');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  #json(res: ServerResponse, status: number, body: unknown): void {
    if (res.headersSent) return;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    res.end(JSON.stringify(body));
  }

  #error(res: ServerResponse, error: unknown): void {
    if (error instanceof HttpError) {
      return this.#json(res, error.status, { error: { code: error.code, message: error.message } });
    }
    if (error instanceof PrintwireError) {
      const status = ERROR_CATALOG[error.code as ErrorCode]?.status ?? 400;
      return this.#json(res, status >= 500 ? 502 : status, {
        error: { code: error.code, message: error.message },
      });
    }
    this.#o.agent.logger.error({ err: error }, 'window request failed');
    this.#json(res, 500, { error: { code: 'INTERNAL', message: 'the agent failed; see its log' } });
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'at most 64 KiB');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
  } catch {
    throw new HttpError(400, 'INVALID_JSON', 'the body is not JSON');
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.') || 'body';
  const message = issue.message.startsWith(`${field}:`)
    ? issue.message
    : `${field}: ${issue.message}`;
  throw new HttpError(400, 'VALIDATION_FAILED', message);
}
