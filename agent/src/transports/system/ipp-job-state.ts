import { existsSync } from 'node:fs';
import { request } from 'node:http';
import type { SpoolJobState } from './spooler.js';

/*
 * `lpstat -W completed` lists cancelled and aborted jobs beside printed ones, so the final
 * state of a job is asked from CUPS over IPP (Get-Job-Attributes, RFC 8011 §4.3.4), which every
 * CUPS answers on its local socket. Only the few bytes this one request needs are encoded.
 */

const IPP_STATES: Record<number, SpoolJobState> = {
  3: 'pending',
  4: 'held',
  5: 'processing',
  6: 'stopped',
  7: 'canceled',
  8: 'aborted',
  9: 'completed',
};

const TAG = {
  operation: 0x01,
  end: 0x03,
  integer: 0x21,
  enum: 0x23,
  uri: 0x45,
  keyword: 0x44,
  name: 0x42,
  charset: 0x47,
  language: 0x48,
} as const;

function attribute(tag: number, name: string, value: Buffer | string): Buffer {
  const n = Buffer.from(name, 'utf8');
  const v = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const head = Buffer.alloc(3);
  head[0] = tag;
  head.writeUInt16BE(n.length, 1);
  const len = Buffer.alloc(2);
  len.writeUInt16BE(v.length);
  return Buffer.concat([head, n, len, v]);
}

/** The Get-Job-Attributes request for job `jobId` of `queue`, asking for job-state. Pure. */
export function encodeGetJobState(
  queue: string,
  jobId: number,
  user: string,
  requestId = 1,
): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt16BE(0x0200, 0); // IPP/2.0
  header.writeUInt16BE(0x0009, 2); // Get-Job-Attributes
  header.writeUInt32BE(requestId, 4);
  const id = Buffer.alloc(4);
  id.writeInt32BE(jobId);
  return Buffer.concat([
    header,
    Buffer.from([TAG.operation]),
    attribute(TAG.charset, 'attributes-charset', 'utf-8'),
    attribute(TAG.language, 'attributes-natural-language', 'en'),
    attribute(TAG.uri, 'printer-uri', `ipp://localhost/printers/${encodeURIComponent(queue)}`),
    attribute(TAG.integer, 'job-id', id),
    attribute(TAG.name, 'requesting-user-name', user),
    attribute(TAG.keyword, 'requested-attributes', 'job-state'),
    Buffer.from([TAG.end]),
  ]);
}

/** The job-state of a Get-Job-Attributes response; null when the status is not successful. Pure. */
export function decodeJobState(body: Uint8Array): SpoolJobState | null {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (buf.length < 9 || buf.readUInt16BE(2) >= 0x0100) return null;
  let at = 8;
  while (at < buf.length) {
    const tag = buf[at]!;
    at += 1;
    if (tag === TAG.end) break;
    if (tag < 0x10) continue; // the start of an attribute group
    if (at + 2 > buf.length) return null;
    const nameLength = buf.readUInt16BE(at);
    const name = buf.toString('utf8', at + 2, at + 2 + nameLength);
    at += 2 + nameLength;
    if (at + 2 > buf.length) return null;
    const valueLength = buf.readUInt16BE(at);
    at += 2;
    if (name === 'job-state' && tag === TAG.enum && valueLength === 4) {
      return IPP_STATES[buf.readInt32BE(at)] ?? 'unknown';
    }
    at += valueLength;
  }
  return 'unknown';
}

/** Where the local CUPS listens: `CUPS_SERVER`, else its domain socket, else localhost:631. */
function cupsEndpoint(): { socketPath: string } | { host: string; port: number } {
  const server = process.env.CUPS_SERVER;
  if (server?.startsWith('/')) return { socketPath: server };
  if (server) {
    const [host, port] = server.split(':');
    return { host: host!, port: Number(port ?? 631) };
  }
  for (const path of ['/run/cups/cups.sock', '/var/run/cups/cups.sock', '/private/var/run/cupsd']) {
    if (existsSync(path)) return { socketPath: path };
  }
  return { host: 'localhost', port: 631 };
}

/**
 * Asks the local CUPS for a job's state over IPP. Null when CUPS cannot be asked this way
 * (the caller falls back to `lpstat`).
 */
export function ippJobState(
  queue: string,
  jobId: number,
  timeoutMs = 5000,
): Promise<SpoolJobState | null> {
  const body = encodeGetJobState(queue, jobId, process.env.USER ?? 'printwire');
  return new Promise((resolve) => {
    const req = request(
      {
        ...cupsEndpoint(),
        method: 'POST',
        path: '/',
        headers: {
          'content-type': 'application/ipp',
          'content-length': body.length,
          host: 'localhost',
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve(res.statusCode === 200 ? decodeJobState(Buffer.concat(chunks)) : null),
        );
        res.on('error', () => resolve(null));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end(body);
  });
}
