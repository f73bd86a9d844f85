import { z } from 'zod';
import { PROTOCOL_LIMITS as L } from './limits.js';

/** Building blocks shared by the messages of both directions. */

export const idSchema = z.string().min(1).max(L.maxIdChars);
export const fieldSchema = z.string().max(L.maxFieldChars);
export const textSchema = z.string().max(L.maxTextChars);
export const isoDateSchema = z.iso.datetime({ offset: true });

export const PAPER_SIZES = ['58mm', '80mm'] as const;
export const paperSchema = z.enum(PAPER_SIZES);

export const CUT_MODES = ['full', 'partial', 'none'] as const;
export const cutSchema = z.enum(CUT_MODES);

/** How the agent reaches a printer (the scheme of its URI). */
export const PRINTER_CONNECTIONS = ['tcp', 'serial', 'usb', 'system'] as const;
/** The command language a printer speaks. */
export const PRINTER_LANGUAGES = ['escpos', 'zpl', 'epl'] as const;
/** What a printer is for: receipts (ESC/POS), labels (ZPL, EPL), pages (system spooler). */
export const PRINTER_KINDS = ['receipt', 'label', 'office'] as const;
/** A printer's status as the agent sees it: the contract's one list. */
export { PRINTER_STATUSES, type PrinterStatus } from '../contracts/printer-status.js';

export const JOB_TYPES = [
  'receipt',
  'escpos',
  'raw',
  'zpl',
  'epl',
  'pdf',
  'image',
  'text',
  'html',
] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const JOB_ENCODINGS = ['json', 'base64', 'utf8', 'url'] as const;
export type JobEncoding = (typeof JOB_ENCODINGS)[number];

/**
 * The encodings each job type accepts; the first is the default. One table for the cloud's job
 * requests and the agent's local ones.
 */
export const TYPE_ENCODINGS: Record<JobType, readonly JobEncoding[]> = {
  receipt: ['json'],
  escpos: ['base64'],
  raw: ['base64'],
  zpl: ['utf8', 'base64'],
  epl: ['utf8', 'base64'],
  text: ['utf8', 'base64'],
  html: ['utf8', 'base64'],
  pdf: ['base64', 'url'],
  image: ['base64', 'url'],
};

/** Standard base64 with its padding (whitespace removed first). */
export const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
