import { EventEmitter, once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';

/**
 * A network receipt printer on 127.0.0.1 for tests: records the bytes it receives, answers
 * ESC/POS real-time status requests (`DLE EOT n`, n = 1..4) like an Epson printer, and fails like
 * hardware fails: paper out, cover open, refusing connections, dropping mid-job.
 *
 * Events: `connection`, `disconnect` (a connection closed), `data` (the bytes recorded so far, as
 * a Buffer), `status` (n asked).
 */
export class FakePrinter extends EventEmitter {
  readonly host = '127.0.0.1';
  port = 0;
  /** Answers to DLE EOT; false makes it a printer without status support. */
  answersStatus = true;
  paperOut = false;
  coverOpen = false;
  /** Stops reading from its connections, as a jammed printer with a full buffer does. */
  stalled = false;
  /** Number of status requests answered. */
  statusRequests = 0;
  /** Connections accepted so far. */
  connections = 0;
  #server: Server;
  #sockets = new Set<Socket>();
  /** The bytes received, in a buffer that doubles when full (appends stay cheap in benchmarks). */
  #received = Buffer.alloc(64 * 1024);
  #length = 0;
  #dropAfter: number | null = null;

  private constructor() {
    super();
    this.#server = createServer((socket) => this.#accept(socket));
  }

  /** Starts listening on a free port of 127.0.0.1 (or on `port`). */
  static async start(options: { port?: number } = {}): Promise<FakePrinter> {
    const printer = new FakePrinter();
    await printer.#listen(options.port ?? 0);
    return printer;
  }

  /** `tcp://127.0.0.1:PORT`, with `query` appended when given. */
  uri(query = ''): string {
    return `tcp://${this.host}:${this.port}${query ? `?${query}` : ''}`;
  }

  /** Every byte received, DLE EOT requests taken out (what a real printer would print). */
  bytes(): Buffer {
    // A view, not a copy: the bytes are only ever appended, so a view never changes.
    return this.#received.subarray(0, this.#length);
  }

  get byteCount(): number {
    return this.#length;
  }

  /** Connections open now. */
  get openConnections(): number {
    return this.#sockets.size;
  }

  /** Forgets the bytes recorded so far. */
  clear(): void {
    // A new buffer: views handed out before keep the old bytes.
    this.#received = Buffer.alloc(64 * 1024);
    this.#length = 0;
  }

  /** The next connection is reset after it delivered `n` more bytes. */
  dropAfter(n: number): void {
    this.#dropAfter = n;
  }

  /** Ends every open connection (as printers do with idle ones) and keeps listening. */
  async closeConnections(): Promise<void> {
    const closing = [...this.#sockets].map((socket) => once(socket, 'close'));
    for (const socket of this.#sockets) socket.end();
    await Promise.all(closing);
  }

  /** Resolves once no connection is open. */
  async waitForNoConnections(timeoutMs = 5000): Promise<void> {
    await this.#waitFor(() => this.#sockets.size === 0, 'no open connection', timeoutMs);
  }

  /** Closes the listener and every connection: connecting now fails with ECONNREFUSED. */
  async refuseConnections(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    if (this.#server.listening) {
      await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    }
  }

  /** Listens again on the same port after `refuseConnections`. */
  async acceptConnections(): Promise<void> {
    this.#server = createServer((socket) => this.#accept(socket));
    await this.#listen(this.port);
  }

  /** Resolves with the bytes once at least `n` were recorded; rejects after `timeoutMs`. */
  waitForBytes(n: number, timeoutMs = 5000): Promise<Buffer> {
    return this.#waitFor(() => this.#length >= n, `${n} bytes (have ${this.#length})`, timeoutMs);
  }

  /** Resolves once `n` connections in total were accepted. */
  waitForConnections(n: number, timeoutMs = 5000): Promise<Buffer> {
    return this.#waitFor(() => this.connections >= n, `${n} connections`, timeoutMs);
  }

  async stop(): Promise<void> {
    await this.refuseConnections();
  }

  #waitFor(done: () => boolean, what: string, timeoutMs: number): Promise<Buffer> {
    if (done()) return Promise.resolve(this.bytes());
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        cleanup();
        resolve(this.bytes());
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`fake printer: timed out waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.off('data', check);
        this.off('connection', check);
        this.off('disconnect', check);
      };
      this.on('data', check);
      this.on('connection', check);
      this.on('disconnect', check);
    });
  }

  async #listen(port: number): Promise<void> {
    this.#server.listen(port, this.host);
    await once(this.#server, 'listening');
    const address = this.#server.address();
    if (address && typeof address === 'object') this.port = address.port;
  }

  /** The answer to `DLE EOT n`, bit for bit as an Epson TM printer sends it. */
  statusByte(n: number): number {
    const offline = this.paperOut || this.coverOpen;
    switch (n) {
      case 1:
        return 0x12 | (offline ? 0x08 : 0);
      case 2:
        return 0x12 | (this.coverOpen ? 0x04 : 0) | (this.paperOut ? 0x20 : 0);
      case 3:
        return 0x12;
      default:
        return 0x12 | (this.paperOut ? 0x6c : 0);
    }
  }

  /** Stops (or resumes) reading from every connection. */
  stall(on = true): void {
    this.stalled = on;
    for (const socket of this.#sockets) {
      if (on) socket.pause();
      else socket.resume();
    }
  }

  #accept(socket: Socket): void {
    this.#sockets.add(socket);
    if (this.stalled) socket.pause();
    this.connections += 1;
    const budget = { left: this.#dropAfter };
    this.#dropAfter = null;
    // 0: data, 1: saw DLE, 2: saw DLE EOT
    let state = 0;
    // Records the bytes and tells listeners, in stream order: a status request that follows
    // job bytes is answered after listeners saw them (and could, say, run out of paper).
    const record = (bytes: number[]) => {
      if (bytes.length === 0) return;
      if (this.#length + bytes.length > this.#received.length) {
        const grown = Buffer.alloc(
          Math.max(2 * this.#received.length, this.#length + bytes.length),
        );
        this.#received.copy(grown, 0, 0, this.#length);
        this.#received = grown;
      }
      this.#received.set(bytes, this.#length);
      this.#length += bytes.length;
      bytes.length = 0;
      this.emit('data', this.bytes());
    };
    socket.on('data', (chunk: Buffer) => {
      const data: number[] = [];
      for (const byte of chunk) {
        if (budget.left !== null && budget.left <= 0) break;
        if (state === 1) {
          if (byte === 0x04) {
            state = 2;
            continue;
          }
          data.push(0x10);
          state = 0;
        } else if (state === 2) {
          state = 0;
          if (byte >= 1 && byte <= 4) {
            record(data);
            this.statusRequests += 1;
            if (this.answersStatus) socket.write(Buffer.from([this.statusByte(byte)]));
            this.emit('status', byte);
            continue;
          }
          data.push(0x10, 0x04);
        }
        if (byte === 0x10) state = 1;
        else {
          data.push(byte);
          if (budget.left !== null) budget.left -= 1;
        }
      }
      record(data);
      if (budget.left !== null && budget.left <= 0) socket.resetAndDestroy();
    });
    socket.on('close', () => {
      this.#sockets.delete(socket);
      this.emit('disconnect', socket);
    });
    socket.on('error', () => undefined);
    this.emit('connection', socket);
  }
}
