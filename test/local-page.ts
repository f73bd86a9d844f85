/**
 * Local mode end to end: a web page served from its own origin on 127.0.0.1 (the SDK's browser
 * bundle, an integrator's `/sign` endpoint with @printwire/sdk/server, a `/cloud-print` endpoint
 * standing for the integrator's backend), a real agent process with its local server, and
 * a browser (test/browsers.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { buildBrowserBundle } from '@printwire/sdk/testing';
import { signPayload, type SigningKey } from '@printwire/sdk/server';

const AGENT_BIN = new URL('../agent/bin/printwire-agent.mjs', import.meta.url).pathname;

export class PageServer {
  readonly cloudPrints: unknown[] = [];
  signingKey: SigningKey | null = null;
  url = '';
  #server: Server;

  private constructor(bundle: Uint8Array, tls?: { cert: string; key: string }) {
    const handler = (
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
    ) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/printwire.js') {
          res.writeHead(200, { 'content-type': 'text/javascript' });
          return res.end(bundle);
        }
        if (req.method === 'POST' && req.url === '/sign') {
          if (!this.signingKey) {
            res.writeHead(503);
            return res.end('no key');
          }
          res.writeHead(200, { 'content-type': 'text/plain' });
          return res.end(signPayload(this.signingKey, body, { origins: [this.url] }));
        }
        if (req.method === 'POST' && req.url === '/cloud-print') {
          this.cloudPrints.push(JSON.parse(body));
          res.writeHead(201, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ id: 'job_from_backend', state: 'queued' }));
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><html lang="en"><title>Shop</title><p>Shop</p></html>');
      });
    };
    this.#server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  }

  /** Serves on a free port of 127.0.0.1, over https with `tls`. */
  static async start(tls?: { cert: string; key: string }): Promise<PageServer> {
    const bundle = (await buildBrowserBundle({ write: false }))!;
    const page = new PageServer(bundle, tls);
    page.#server.listen(0, '127.0.0.1');
    await once(page.#server, 'listening');
    const port = (page.#server.address() as { port: number }).port;
    page.url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    return page;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

/** What SHOP_SETUP puts on a page of a PageServer, for the functions a test runs there. */
export interface ShopWindow {
  shop: {
    /** The SDK's browser bundle, as a shop's page imports it. */
    sdk: typeof import('@printwire/sdk');
    /** `sdk.connect` on `port`, signing through the page's own server (its `/sign`). */
    connectSigned(port: number): ReturnType<typeof import('@printwire/sdk').connect>;
  };
}

/** Evaluated in a page of a PageServer before a test's function: see ShopWindow. */
export const SHOP_SETUP = `(async () => {
  const sdk = await import(location.origin + '/printwire.js');
  const sign = (payload) => fetch('/sign', { method: 'POST', body: payload }).then((r) => r.text());
  globalThis.shop = { sdk, connectSigned: (port) => sdk.connect({ ports: [port], sign }) };
})()`;

/** `printwire-agent start` with its local server on `localPort`, as a real process. */
export class LocalAgentProcess {
  output = '';
  readonly exited: Promise<unknown>;

  private constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (c: Buffer) => (this.output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (this.output += c.toString()));
    this.exited = once(child, 'exit');
  }

  /** Resolves once the local server listens. */
  static async start(args: string[], localPort: number): Promise<LocalAgentProcess> {
    const child = spawn(
      process.execPath,
      [AGENT_BIN, 'start', ...args, '--local-port', String(localPort)],
      { env: { ...process.env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const agent = new LocalAgentProcess(child);
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (agent.output.includes('local server on')) resolve();
      };
      child.stdout!.on('data', check);
      child.on('exit', (code) => reject(new Error(`agent exited ${code}: ${agent.output}`)));
    });
    return agent;
  }

  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }
}
