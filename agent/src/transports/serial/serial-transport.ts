import { createRequire } from 'node:module';
import type { SerialPort } from 'serialport';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterTarget } from '../../config/printer-uri.js';
import { decodeEscposStatus, DLE_EOT_REQUEST, isStatusByte } from '../escpos-status.js';
import type { PrinterStatusReport, Transport, TransportOptions } from '../transport.js';

/** Defaults of the serial transport. */
export const SERIAL_DEFAULTS = {
  /** Opening a local port is immediate; 2 s covers USB-serial adapters being enumerated. */
  connectTimeoutMs: 2000,
  /**
   * The longest wait for one chunk to leave the port. At 9600 baud 4 KB take about 4.3 s; a
   * printer holding CTS low (paper out with hardware flow control) stops us here.
   */
  writeTimeoutMs: 15_000,
  /** Real-time status is answered at once; 500 ms tells a silent printer from a slow one. */
  statusTimeoutMs: 500,
  /** Bytes per write: small enough that the write timeout is about one printer buffer. */
  chunkBytes: 4096,
  /** How long close waits for the last bytes to leave. */
  closeTimeoutMs: 5000,
} as const;

let serialport: typeof import('serialport') | null = null;

/**
 * The `serialport` package, loaded on first use: an agent whose native serial binding cannot
 * load still starts, and only its serial printers fail.
 */
function serialPortClass(): typeof SerialPort {
  serialport ??= createRequire(import.meta.url)('serialport') as typeof import('serialport');
  return serialport.SerialPort;
}

/** Wait between attempts to open a port another transport still holds. */
const LOCK_RETRY_MS = 100;

/** Flow control of the serial line. ESC/POS printers mostly use RTS/CTS, some XON/XOFF. */
export type SerialFlowControl = 'none' | 'rtscts' | 'xonxoff';

/** A serial printer target; `flow` is read when the printer URI carries it. */
export type SerialTarget = Extract<PrinterTarget, { connection: 'serial' }> & {
  flow?: SerialFlowControl;
};

export interface SerialTransportOptions extends TransportOptions {
  /** Overrides the URI's flow control; default `none`. */
  flowControl?: SerialFlowControl;
}

function openError(path: string, error: Error): PrintwireError {
  const text = error.message;
  if (/ENOENT|cannot find|File not found|No such file/i.test(text)) {
    return new PrintwireError('PRINTER_OFFLINE', `serial port ${path} does not exist (${text})`, {
      cause: error,
    });
  }
  if (/EACCES|Access denied|Permission denied/i.test(text)) {
    return new PrintwireError(
      'PRINTER_OFFLINE',
      `no permission to open ${path}: on Linux add the agent's user to the dialout group ` +
        `(sudo usermod -aG dialout $USER, then log in again) (${text})`,
      { cause: error },
    );
  }
  if (/EBUSY|Resource busy|cannot lock|in use/i.test(text)) {
    return new PrintwireError('CONNECTION_REFUSED', `${path} is in use by another program`, {
      cause: error,
    });
  }
  return new PrintwireError('PRINTER_OFFLINE', `${path} cannot be opened (${text})`, {
    cause: error,
  });
}

/**
 * A printer on a serial port (RS-232 or a USB-serial adapter): path, baud rate and flow control
 * from the printer URI, 8 data bits, no parity, 1 stop bit. Status is read with ESC/POS
 * `DLE EOT` on the same line when the printer speaks ESC/POS.
 */
export class SerialTransport implements Transport {
  readonly #target: SerialTarget;
  readonly #flow: SerialFlowControl;
  readonly #options: Required<Omit<TransportOptions, 'language'>>;
  readonly #answersStatus: boolean;
  #port: SerialPort | null = null;
  #failure: PrintwireError | null = null;
  #inbox: number[] = [];
  #onEvent: (() => void) | null = null;

  constructor(target: SerialTarget, options: SerialTransportOptions = {}) {
    this.#target = target;
    this.#flow = options.flowControl ?? target.flow ?? 'none';
    this.#answersStatus = (options.language ?? 'escpos') === 'escpos';
    this.#options = {
      connectTimeoutMs: options.connectTimeoutMs ?? SERIAL_DEFAULTS.connectTimeoutMs,
      writeTimeoutMs: options.writeTimeoutMs ?? SERIAL_DEFAULTS.writeTimeoutMs,
      statusTimeoutMs: options.statusTimeoutMs ?? SERIAL_DEFAULTS.statusTimeoutMs,
    };
  }

  /**
   * Opens the port. A port still locked by a transport that is closing (the previous job's) is
   * tried again every 100 ms until the connect timeout.
   */
  async open(): Promise<void> {
    const deadline = performance.now() + this.#options.connectTimeoutMs;
    for (;;) {
      try {
        this.#port = await this.#openOnce(Math.max(1, deadline - performance.now()));
        return;
      } catch (error) {
        const busy = error instanceof PrintwireError && error.code === 'CONNECTION_REFUSED';
        if (!busy || performance.now() + LOCK_RETRY_MS >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
      }
    }
  }

  #openOnce(timeoutMs: number): Promise<SerialPort> {
    const { path, baud } = this.#target;
    let Port: typeof SerialPort;
    try {
      Port = serialPortClass();
    } catch (error) {
      return Promise.reject(
        new PrintwireError(
          'PRINTER_OFFLINE',
          `serial ports cannot be used here: ${(error as Error).message}`,
          {
            cause: error,
          },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const port = new Port({
        path,
        baudRate: baud,
        dataBits: 8,
        parity: 'none',
        stopBits: 1,
        rtscts: this.#flow === 'rtscts',
        xon: this.#flow === 'xonxoff',
        xoff: this.#flow === 'xonxoff',
        autoOpen: false,
      });
      const timer = setTimeout(() => {
        port.close(() => undefined);
        reject(
          new PrintwireError(
            'PRINTER_OFFLINE',
            `${path} did not open within ${this.#options.connectTimeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      port.open((error) => {
        clearTimeout(timer);
        if (error) {
          reject(openError(path, error));
          return;
        }
        port.on('data', (chunk: Buffer) => {
          for (const byte of chunk) this.#inbox.push(byte);
          this.#onEvent?.();
        });
        port.on('error', (e: Error) => this.#lost(e));
        port.on('close', (e: Error | null) => this.#lost(e));
        resolve(port);
      });
    });
  }

  #lost(error: Error | null): void {
    if (this.#failure) return;
    const why = error ? ` (${error.message})` : '';
    this.#failure = new PrintwireError(
      'CONNECTION_LOST',
      `serial port ${this.#target.path} went away${why}`,
      { cause: error ?? undefined },
    );
    this.#onEvent?.();
  }

  #live(): SerialPort {
    if (this.#failure) throw this.#failure;
    if (!this.#port) throw new PrintwireError('CONNECTION_LOST', 'the transport is not open');
    return this.#port;
  }

  async write(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length; at += SERIAL_DEFAULTS.chunkBytes) {
      await this.#writeChunk(bytes.subarray(at, at + SERIAL_DEFAULTS.chunkBytes));
    }
  }

  #writeChunk(chunk: Uint8Array): Promise<void> {
    const port = this.#live();
    return new Promise((resolve, reject) => {
      const done = (error: PrintwireError | null) => {
        clearTimeout(timer);
        this.#onEvent = null;
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(
        () =>
          done(
            new PrintwireError(
              'TIMEOUT',
              `the printer took no data for ${this.#options.writeTimeoutMs} ms`,
            ),
          ),
        this.#options.writeTimeoutMs,
      );
      this.#onEvent = () => {
        if (this.#failure) done(this.#failure);
      };
      port.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      // drain resolves once the OS has sent the bytes down the line (tcdrain), which is the
      // back-pressure of a slow serial printer.
      port.drain((error) => {
        if (error) this.#lost(error);
        done(this.#failure);
      });
    });
  }

  async readStatus(): Promise<PrinterStatusReport | null> {
    if (!this.#answersStatus) return null;
    const port = this.#live();
    this.#inbox = [];
    const answers = await new Promise<number[]>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#onEvent = null;
        resolve(this.#inbox.filter(isStatusByte).slice(0, 4));
      };
      const timer = setTimeout(done, this.#options.statusTimeoutMs);
      this.#onEvent = () => {
        if (this.#failure || this.#inbox.filter(isStatusByte).length >= 4) done();
      };
      port.write(Buffer.from(DLE_EOT_REQUEST));
    });
    if (this.#failure) throw this.#failure;
    return answers.length === 0 ? null : decodeEscposStatus(answers);
  }

  close(): Promise<void> {
    const port = this.#port;
    this.#port = null;
    if (!port || !port.isOpen) return Promise.resolve();
    return new Promise((resolve) => {
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        if (port.isOpen) port.close(() => resolve());
        else resolve();
      };
      const timer = setTimeout(finish, SERIAL_DEFAULTS.closeTimeoutMs);
      port.drain(() => finish());
    });
  }
}

/** The factory the registry maps `serial` to. Label printers (zpl, epl) get no DLE EOT. */
export function createSerialTransport(
  target: PrinterTarget,
  options: TransportOptions = {},
): Transport {
  if (target.connection !== 'serial') throw new Error(`not a serial target: ${target.connection}`);
  return new SerialTransport(target, options);
}
