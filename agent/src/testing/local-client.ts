import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import WebSocket from 'ws';
import type { ServerFrame } from '../local-server/protocol.js';
import { LOCAL_WS_PATH, signaturePayload, signedMessage } from '../local-server/protocol.js';
import { bodySha256 } from '../local-server/trust.js';

/** A page's WebSocket to the local server, for tests: frames are collected and awaited by match. */
export class LocalTestClient {
  readonly frames: ServerFrame[] = [];
  readonly ws: WebSocket;
  closed: { code: number; reason: string } | null = null;
  #waiters: Array<{ match: (f: ServerFrame) => boolean; resolve: (f: ServerFrame) => void }> = [];
  #seq = 0;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as ServerFrame;
      this.frames.push(frame);
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  static async connect(
    url: string,
    options: { origin?: string; host?: string; ca?: string } = {},
  ): Promise<LocalTestClient> {
    const ws = new WebSocket(`${url}${LOCAL_WS_PATH}`, {
      ...(options.origin ? { origin: options.origin } : {}),
      ...(options.host ? { headers: { host: options.host } } : {}),
      ...(options.ca ? { ca: options.ca } : {}),
    });
    const client = new LocalTestClient(ws);
    await once(ws, 'open');
    return client;
  }

  /** The first frame (already received or to come) that matches. */
  next(match: (f: ServerFrame) => boolean): Promise<ServerFrame> {
    const found = this.frames.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  async whenClosed(): Promise<{ code: number; reason: string }> {
    if (!this.closed) await once(this.ws, 'close');
    return this.closed!;
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** Sends a request and resolves with its reply or error frame. */
  async request(
    type: string,
    body?: unknown,
    extra: Record<string, unknown> = {},
  ): Promise<Extract<ServerFrame, { type: 'reply' | 'error' }>> {
    this.#seq += 1;
    const id = `r${this.#seq}`;
    this.ws.send(
      JSON.stringify({ v: 1, id, type, ...(body !== undefined ? { body } : {}), ...extra }),
    );
    return (await this.next(
      (f) => (f.type === 'reply' || f.type === 'error') && f.replyTo === id,
    )) as Extract<ServerFrame, { type: 'reply' | 'error' }>;
  }

  close(): void {
    this.ws.close();
  }
}

/** An Ed25519 signing key as the cloud hands it out: id, SPKI PEM public key, private key. */
export function testSigningKey(id = 'sk_test1'): {
  id: string;
  publicKey: string;
  privateKey: KeyObject;
} {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    id,
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey,
  };
}

/** The `auth` of a request signed as the SDK and `signPayload` do. */
export function signRequest(
  key: { id: string; privateKey: KeyObject },
  request: { type: string; origin: string; body: unknown; timestamp: number; nonce?: string },
): { signature: string; timestamp: number; nonce: string } {
  const nonce = request.nonce ?? randomBytes(16).toString('hex');
  const payload = signaturePayload({
    method: request.type,
    path: LOCAL_WS_PATH,
    origin: request.origin,
    bodySha256: bodySha256(request.body),
    timestamp: request.timestamp,
    nonce,
  });
  const signature = sign(null, Buffer.from(signedMessage(key.id, payload)), key.privateKey);
  return {
    signature: `keyId=${key.id},signature=${signature.toString('base64')}`,
    timestamp: request.timestamp,
    nonce,
  };
}
