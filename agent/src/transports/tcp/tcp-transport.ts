import { Socket } from 'node:net';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterTarget } from '../../config/printer-uri.js';
import { decodeEscposStatus, isStatusByte } from '../escpos-status.js';
import type { PrinterStatusReport, Transport, TransportOptions } from '../transport.js';

/** Defaults of the raw TCP (port 9100) transport. */
export const TCP_DEFAULTS = {
  /** A printer on the LAN answers a SYN in milliseconds; 3 s covers Wi-Fi printers waking up. */
  connectTimeoutMs: 3000,
  /** A printer that takes no byte for 15 s is stuck (paper out mid-job, jammed). */
  writeTimeoutMs: 15_000,
  /** Real-time status is answered at once; 500 ms tells a silent printer from a slow one. */
  statusTimeoutMs: 500,
  /** Bytes per write call, so that back-pressure is felt in steps of this size. */
  chunkBytes: 64 * 1024,
  /** How long a graceful close waits for the printer to close its side. */
  closeTimeoutMs: 2000,
} as const;

type TcpTarget = Extract<PrinterTarget, { connection: 'tcp' }>;

function connectError(target: TcpTarget, error: NodeJS.ErrnoException): PrintwireError {
  const where = `${target.host}:${target.port}`;
  if (error.code === 'ECONNREFUSED') {
    return new PrintwireError('CONNECTION_REFUSED', `${where} refused the connection`, {
      cause: error,
    });
  }
  return new PrintwireError(
    'PRINTER_OFFLINE',
    `${where} is unreachable (${error.code ?? error.message})`,
    {
      cause: error,
    },
  );
}

/**
 * Raw TCP to a network printer (JetDirect, port 9100). Status is read with ESC/POS `DLE EOT`
 * on the same connection, when the printer speaks ESC/POS.
 */
export class TcpTransport implements Transport {
  readonly #target: TcpTarget;
  readonly #options: Required<Omit<TransportOptions, 'language'>>;
  readonly #answersStatus: boolean;
  #socket: Socket | null = null;
  #failure: PrintwireError | null = null;
  #inbox: number[] = [];
  #onData: (() => void) | null = null;

  constructor(target: TcpTarget, options: TransportOptions = {}, answersStatus = true) {
    this.#target = target;
    this.#answersStatus = answersStatus;
    this.#options = {
      connectTimeoutMs: options.connectTimeoutMs ?? TCP_DEFAULTS.connectTimeoutMs,
      writeTimeoutMs: options.writeTimeoutMs ?? TCP_DEFAULTS.writeTimeoutMs,
      statusTimeoutMs: options.statusTimeoutMs ?? TCP_DEFAULTS.statusTimeoutMs,
    };
  }

  open(): Promise<void> {
    const target = this.#target;
    return new Promise((resolve, reject) => {
      const socket = new Socket();
      const timer = setTimeout(() => {
        socket.destroy();
        reject(
          new PrintwireError(
            'PRINTER_OFFLINE',
            `${target.host}:${target.port} did not answer within ${this.#options.connectTimeoutMs} ms`,
          ),
        );
      }, this.#options.connectTimeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(connectError(target, error));
      });
      socket.connect({ host: target.host, port: target.port }, () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        socket.setNoDelay(true);
        socket.on('error', (error: NodeJS.ErrnoException) => this.#lost(error));
        socket.on('close', () => this.#lost(null));
        socket.on('data', (chunk: Buffer) => {
          for (const byte of chunk) this.#inbox.push(byte);
          this.#onData?.();
        });
        this.#socket = socket;
        resolve();
      });
    });
  }

  #lost(error: NodeJS.ErrnoException | null): void {
    if (this.#failure) return;
    const why = error ? ` (${error.code ?? error.message})` : '';
    this.#failure = new PrintwireError(
      'CONNECTION_LOST',
      `${this.#target.host}:${this.#target.port} closed the connection${why}`,
      { cause: error ?? undefined },
    );
    this.#onData?.();
  }

  #live(): Socket {
    if (this.#failure) throw this.#failure;
    if (!this.#socket) throw new PrintwireError('CONNECTION_LOST', 'the transport is not open');
    return this.#socket;
  }

  async write(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length; at += TCP_DEFAULTS.chunkBytes) {
      await this.#writeChunk(bytes.subarray(at, at + TCP_DEFAULTS.chunkBytes));
    }
  }

  #writeChunk(chunk: Uint8Array): Promise<void> {
    const socket = this.#live();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        // A printer stuck with a full buffer will not take a graceful close either.
        this.#failure = new PrintwireError(
          'TIMEOUT',
          `the printer took no data for ${this.#options.writeTimeoutMs} ms`,
        );
        socket.destroy();
        reject(this.#failure);
      }, this.#options.writeTimeoutMs);
      const onClose = () => {
        cleanup();
        reject(this.#failure ?? new PrintwireError('CONNECTION_LOST', 'connection closed'));
      };
      const cleanup = () => {
        clearTimeout(timer);
        socket.off('close', onClose);
      };
      socket.once('close', onClose);
      // The callback runs when the chunk is handed to the kernel: waiting for it is the
      // back-pressure (a printer that stops reading stops us here, then the timeout fires).
      socket.write(chunk, (error) => {
        cleanup();
        if (error) reject(this.#failure ?? new PrintwireError('CONNECTION_LOST', error.message));
        else resolve();
      });
    });
  }

  /**
   * Asks one `DLE EOT n` at a time and waits for its byte. One question per round trip, not
   * four at once: printers send each answer as its own segment, and with Nagle on their side
   * the second would wait for our delayed ACK (40 ms on Linux); our next question carries it.
   */
  #ask(n: number): Promise<number | null> {
    const socket = this.#live();
    this.#inbox = [];
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#onData = null;
        if (this.#failure) reject(this.#failure);
        else resolve(this.#inbox.find(isStatusByte) ?? null);
      };
      const timer = setTimeout(done, this.#options.statusTimeoutMs);
      this.#onData = () => {
        if (this.#failure || this.#inbox.some(isStatusByte)) done();
      };
      socket.write(Uint8Array.of(0x10, 0x04, n));
    });
  }

  async readStatus(): Promise<PrinterStatusReport | null> {
    if (!this.#answersStatus) return null;
    const printer = await this.#ask(1);
    if (printer === null) return null;
    const answers = [printer, 0x12, 0x12, 0x12];
    // The causes are asked only when the printer says it is offline (cover, paper end, error);
    // the paper sensor always, for "near end" and printers that report paper out only there.
    if ((printer & 0x08) !== 0) {
      answers[1] = (await this.#ask(2)) ?? 0x12;
      answers[2] = (await this.#ask(3)) ?? 0x12;
    }
    answers[3] = (await this.#ask(4)) ?? 0x12;
    return decodeEscposStatus(answers);
  }

  alive(): boolean {
    return this.#failure === null && this.#socket !== null && this.#socket.writable;
  }

  close(): Promise<void> {
    const socket = this.#socket;
    this.#socket = null;
    if (!socket || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        socket.destroy();
        resolve();
      }, TCP_DEFAULTS.closeTimeoutMs);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.end();
    });
  }
}

/** The factory the registry maps `tcp` to. Label printers (zpl, epl) get no DLE EOT. */
export function createTcpTransport(
  target: PrinterTarget,
  options: TransportOptions = {},
): Transport {
  if (target.connection !== 'tcp') throw new Error(`not a tcp target: ${target.connection}`);
  return new TcpTransport(target, options, (options.language ?? 'escpos') === 'escpos');
}
