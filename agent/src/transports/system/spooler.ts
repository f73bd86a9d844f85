import type { PrinterStatusReport } from '../transport.js';

/** How data goes to the spooler: `raw` as the printer's own bytes, `document` to be converted. */
export type SpoolFormat = 'raw' | 'document';

/** A spooler job's state, as IPP names them (Windows' are mapped onto these). */
export type SpoolJobState =
  'pending' | 'held' | 'processing' | 'stopped' | 'canceled' | 'aborted' | 'completed' | 'unknown';

export interface SubmitOptions {
  format: SpoolFormat;
  /** The job's name in the queue. */
  title: string;
  /** Copies the spooler prints; default 1. */
  copies?: number;
}

/** A queue of the OS spooler. */
export interface SpoolerQueue {
  name: string;
  description: string | null;
  isDefault: boolean;
  /** The device or port behind the queue (`usb://EPSON/TM-T20`, `USB001`), when known. */
  device: string | null;
}

/**
 * The OS print spooler: CUPS on Linux and macOS, the Windows spooler. The system transport
 * drives every platform through this interface.
 */
export interface Spooler {
  /** Queues this user can print to. */
  listQueues(): Promise<SpoolerQueue[]>;
  /** The queue's state; null when there is no such queue. */
  queueStatus(queue: string): Promise<PrinterStatusReport | null>;
  /** Submits one job and returns the spooler's job id. */
  submit(queue: string, bytes: Uint8Array, options: SubmitOptions): Promise<string>;
  jobState(queue: string, jobId: string): Promise<SpoolJobState>;
  cancel(queue: string, jobId: string): Promise<void>;
}

/** Data the spooler should convert (PDF, PostScript, PNG, JPEG) rather than pass through. */
export function detectSpoolFormat(bytes: Uint8Array): SpoolFormat {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 8));
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'document';
  if (head.subarray(0, 2).toString('latin1') === '%!') return 'document';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x89504e47) return 'document';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'document';
  return 'raw';
}
