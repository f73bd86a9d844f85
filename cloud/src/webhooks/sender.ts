/**
 * One webhook POST. DNS is resolved here and only checked addresses are connected to (the
 * `lookup` hook); the socket's remote address is checked again once connected. Redirects are not
 * followed (a 3xx is a failed attempt). The attempt ends at the first response status or at the
 * timeout, whichever comes first.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isAllowedUrlScheme } from '@printwire/shared/contracts/url';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { hostOf, nonPublicReason } from './url-guard.js';

export interface SendResult {
  ok: boolean;
  /** The response status; null when none came (refused address, connection error, timeout). */
  status: number | null;
  durationMs: number;
  error: string | null;
}

export interface SenderOptions {
  /** Outside production: non-public addresses allowed. */
  allowPrivate: boolean;
  /** A 2xx must arrive within this many ms. Default 10,000 (spec). */
  timeoutMs: number;
  /** Sockets kept per host (keep-alive). */
  maxSocketsPerHost: number;
}

class RefusedAddress extends Error {}

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) {
        callback(err, '', 0);
        return;
      }
      const usable: LookupAddress[] = allowPrivate
        ? addresses
        : addresses.filter((a) => nonPublicReason(a.address) === null);
      if (usable.length === 0) {
        const err = new RefusedAddress(`${hostname} resolves to no public address`);
        callback(err as NodeJS.ErrnoException, '', 0);
        return;
      }
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      } else callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: SenderOptions) {
    const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
  }

  send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      // The request, once made (the timeout may fire before the request exists).
      const current: { req?: http.ClientRequest } = {};
      const timer = setTimeout(() => {
        fail(`no response within ${this.options.timeoutMs} ms`);
        current.req?.destroy();
      }, this.options.timeoutMs);
      const done = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, durationMs: elapsed() });
      };
      const fail = (error: string) => done({ ok: false, status: null, error });
      let url: URL;
      try {
        url = new URL(rawUrl);
      } catch {
        fail('not an absolute URL');
        return;
      }
      const host = hostOf(url);
      if (!this.options.allowPrivate) {
        if (!isAllowedUrlScheme(url.protocol, true)) {
          return fail('refused: the URL must use https');
        }
        if (isIP(host)) {
          const reason = nonPublicReason(host);
          if (reason) return fail(`refused: ${reason}`);
        }
      }
      const transport = url.protocol === 'https:' ? https : http;
      const req = transport.request(url, {
        method: 'POST',
        agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
        lookup: guardedLookup(this.options.allowPrivate),
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      });
      current.req = req;
      req.on('socket', (socket: Socket) => {
        if (this.options.allowPrivate) return;
        const check = () => {
          const remote = socket.remoteAddress;
          const reason = remote ? nonPublicReason(remote) : 'no remote address';
          if (reason) {
            fail(`refused: ${reason}`);
            req.destroy();
          }
        };
        if (socket.remoteAddress) check();
        else socket.once('connect', check);
      });
      req.on('response', (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        done({ ok, status, error: ok ? null : `answered ${status}` });
      });
      req.on('error', (err) => {
        fail(err instanceof RefusedAddress ? `refused: ${err.message}` : err.message);
      });
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
