import type { PrinterStatus } from '@printwire/shared/protocol/index';
import type { PrinterTarget } from '../config/printer-uri.js';

/** What a printer said about itself. */
export interface PrinterStatusReport {
  status: Exclude<PrinterStatus, 'unknown'>;
  /** In words, for logs and the dashboard: `paper near end`, `cover open`. */
  detail: string | null;
}

/** Timeouts every transport honours. Defaults are the transport's own, named where defined. */
export interface TransportOptions {
  /** Longest wait for a connection, in ms. */
  connectTimeoutMs?: number;
  /** Longest wait for the printer to take the bytes of one write, in ms. */
  writeTimeoutMs?: number;
  /** Longest wait for the printer's answer to a status request, in ms. */
  statusTimeoutMs?: number;
  /** The printer's command language; only ESC/POS printers are asked for DLE EOT status. */
  language?: 'escpos' | 'zpl' | 'epl';
}

/**
 * One way of reaching a printer (raw TCP, serial, USB, the OS spooler). The core drives every
 * printer through this interface and never imports a concrete transport.
 *
 * Errors are `PrintwireError`s with the job error codes: CONNECTION_REFUSED, PRINTER_OFFLINE,
 * CONNECTION_LOST, TIMEOUT (all retryable).
 */
export interface Transport {
  /** Connects; rejects when the printer cannot be reached within the connect timeout. */
  open(): Promise<void>;
  /** Sends bytes, resolving once the printer (or the OS on its way) has taken them all. */
  write(bytes: Uint8Array): Promise<void>;
  /**
   * Asks the printer for its status (ESC/POS DLE EOT on TCP); null when it does not answer
   * within the status timeout, as printers without status support do.
   */
  readStatus(): Promise<PrinterStatusReport | null>;
  /** Closes after everything written was delivered; never rejects. */
  close(): Promise<void>;
  /**
   * Transports that can carry several jobs on one connection (raw TCP): true while this one is
   * still open and can take the next job. Without it, a transport is closed after every job.
   */
  alive?(): boolean;
}

export type TransportFactory = (target: PrinterTarget, options: TransportOptions) => Transport;
