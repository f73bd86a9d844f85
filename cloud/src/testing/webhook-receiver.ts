/**
 * Test helper: a real HTTP receiver on 127.0.0.1 that records every request (headers and raw
 * body) and answers with what `respond` says. `waitFor(n)` resolves once n requests arrived.
 */
import { once } from 'node:events';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  /** Parsed body. */
  body: {
    id: string;
    type: string;
    createdAt: string;
    organizationId: string;
    data: Record<string, unknown>;
  };
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status to answer with (default 200); a promise delays the answer. */
  respond: (r: Received, index: number) => number | Promise<number>;
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    respond: () => 200,
    waitFor(count) {
      if (receiver.received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const r: Received = { headers: req.headers, raw, body: JSON.parse(raw) as Received['body'] };
      const index = receiver.received.push(r) - 1;
      for (const w of waiters.splice(0)) {
        if (receiver.received.length >= w.count) w.resolve();
        else waiters.push(w);
      }
      void Promise.resolve(receiver.respond(r, index)).then((status) => {
        if (!res.destroyed) res.writeHead(status).end();
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
