/**
 * The sandbox's print: what a test job's printer would have received, computed at once. Receipts
 * go through the shared receipt encoder, text is encoded in the printer's default code table,
 * ESC/POS and raw bytes are taken as given; the preview is later drawn from exactly these bytes
 * by the shared virtual printer (renderEscposToPng).
 */
import { encodeText, type CodepageName } from '@printwire/shared/codepage/index';
import { encodeReceipt, type ReceiptDocument } from '@printwire/shared/receipt/index';
import type { JobState, Printer } from '../storage/types.js';

/** Job types the virtual printer draws a preview of. */
export const PREVIEW_TYPES: readonly string[] = ['receipt', 'escpos', 'raw', 'text'];

export interface VirtualJob {
  type: string;
  encoding: string;
  /** The receipt document, for receipt jobs. */
  document?: ReceiptDocument | undefined;
  /** The content bytes (text as UTF-8). */
  content: Buffer;
  options: {
    copies?: number | undefined;
    cut?: 'full' | 'partial' | 'none' | undefined;
    openDrawer?: boolean | undefined;
    codepage?: CodepageName | undefined;
    footer?: boolean | undefined;
  };
}

export interface VirtualPrint {
  /** Printer bytes that were printed; null when nothing was (paper out, or no preview type). */
  output: Buffer | null;
  /** The paper the job printed on. */
  paper: '58mm' | '80mm';
  /** Transitions after queued. */
  then: Array<{ state: JobState; errorCode?: string; errorMessage?: string }>;
}

export function paperOf(printer: Printer | undefined, requested?: string): '58mm' | '80mm' {
  const paper = requested ?? printer?.paper;
  return paper === '58mm' ? '58mm' : '80mm';
}

export function profileOf(printer: Printer | undefined, paper: '58mm' | '80mm'): string {
  return printer?.profile ?? (paper === '58mm' ? 'generic-58mm' : 'generic-80mm');
}

/** Prints `job` on the virtual `printer`; throws PrintwireError INVALID_JOB when it cannot encode. */
export function printVirtually(
  job: VirtualJob,
  printer: Printer | undefined,
  requestedPaper?: string,
): VirtualPrint {
  const paper = paperOf(printer, requestedPaper);
  if (printer?.sandbox && printer.status === 'paper_out') {
    return {
      output: null,
      paper,
      then: [
        { state: 'sending' },
        {
          state: 'failed',
          errorCode: 'PAPER_OUT',
          errorMessage: 'the sandbox printer reports that it is out of paper',
        },
      ],
    };
  }
  return {
    output: outputOf(job, printer, paper),
    paper,
    then: [{ state: 'sending' }, { state: 'printed' }],
  };
}

function outputOf(
  job: VirtualJob,
  printer: Printer | undefined,
  paper: '58mm' | '80mm',
): Buffer | null {
  switch (job.type) {
    case 'receipt': {
      if (!job.document) return null;
      const o = job.options;
      const bytes = encodeReceipt(job.document, profileOf(printer, paper), {
        paper,
        ...(o.copies !== undefined ? { copies: o.copies } : {}),
        ...(o.cut !== undefined ? { cut: o.cut } : {}),
        ...(o.openDrawer !== undefined ? { openDrawer: o.openDrawer } : {}),
        ...(o.codepage !== undefined ? { codepage: o.codepage } : {}),
        ...(o.footer ? { footer: true } : {}),
      });
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    case 'escpos':
    case 'raw':
      return job.content;
    case 'text': {
      if (job.encoding === 'base64') return job.content;
      // A printer starts in code table 0 (CP437); text is encoded for it, lossy characters
      // transliterated as the receipt engine does.
      const { bytes } = encodeText(job.content.toString('utf8'), 'CP437');
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    default:
      return null;
  }
}
