/**
 * What a printer without a computer receives for a job: the one place that turns a job's stored
 * content into a polling printer's output (CloudPRNT: StarPRNT, PNG or plain text; SDP: the
 * ePOS-Print XML of a `<epos-print>` element), and says which jobs such a printer can print.
 *
 * Receipt, text and image jobs (and receipt templates, stored as receipts) become one receipt
 * document; it is laid out by the shared receipt engine for the printer's paper. Output is
 * deterministic: the same job gives the same bytes however often it is asked for.
 */
import { PrintwireError, type FieldIssue } from '@printwire/shared/errors/index';
import {
  encodeReceipt,
  renderPrinterBytesToPng,
  type ReceiptDocument,
} from '@printwire/shared/receipt/index';

export type CloudProtocol = 'cloudprnt' | 'sdp';

/**
 * CloudPRNT media types we offer, best first (the printer picks the first it supports):
 * StarPRNT commands, the receipt as the paper's full-width 1-bit PNG, plain text.
 */
export const CLOUDPRNT_MEDIA_TYPES = [
  'application/vnd.star.starprnt',
  'image/png',
  'text/plain',
] as const;
export type CloudPrntMediaType = (typeof CLOUDPRNT_MEDIA_TYPES)[number];

/** The job types a polling printer prints. */
const PRINTABLE = ['receipt', 'text', 'image'];

/**
 * Why a job of `type` cannot go to a printer of `protocol`, as a field issue (INVALID_JOB), or
 * undefined when it can.
 */
export function cloudJobProblem(
  protocol: string,
  type: string,
  encoding: string,
): FieldIssue | undefined {
  const name = protocol === 'sdp' ? 'an Epson Server Direct Print' : 'a Star CloudPRNT';
  if (!PRINTABLE.includes(type)) {
    return {
      path: 'type',
      message: `type: ${name} printer prints receipt, text and image jobs (and receipt templates), not ${type}`,
    };
  }
  if (type === 'image' && encoding === 'url') {
    return {
      path: 'encoding',
      message: `encoding: ${name} printer takes an image job as base64, not as a URL`,
    };
  }
  return undefined;
}

export interface OutputJob {
  id: string;
  type: string;
  encoding: string;
  options: Record<string, unknown>;
}

/** The receipt document a job prints as. */
function documentOf(job: OutputJob, content: Buffer): ReceiptDocument {
  if (job.type === 'receipt') return JSON.parse(content.toString('utf8')) as ReceiptDocument;
  if (job.type === 'text') {
    const text = job.encoding === 'base64' ? content.toString('latin1') : content.toString('utf8');
    return {
      blocks: [{ type: 'text', value: text } as ReceiptDocument['blocks'][number]],
    } as ReceiptDocument;
  }
  if (job.type === 'image') {
    return {
      blocks: [
        { type: 'image', src: content.toString('base64') } as ReceiptDocument['blocks'][number],
        { type: 'cut' } as ReceiptDocument['blocks'][number],
      ],
    } as ReceiptDocument;
  }
  throw new PrintwireError('INVALID_JOB', `a polling printer cannot print a ${job.type} job`);
}

function paperOf(job: OutputJob, printerPaper: string | null): '58mm' | '80mm' {
  const paper = (job.options.paper as string | undefined) ?? printerPaper;
  return paper === '58mm' ? '58mm' : '80mm';
}

type Language = 'starprnt' | 'epos-xml' | 'raster';

/** The receipt engine's output for the printer's language (the one call into it). */
function encodeFor(
  job: OutputJob,
  content: Buffer,
  printerPaper: string | null,
  language: Language,
): Uint8Array {
  const paper = paperOf(job, printerPaper);
  const o = job.options;
  return encodeReceipt(
    documentOf(job, content),
    paper === '58mm' ? 'generic-58mm' : 'generic-80mm',
    {
      paper,
      language,
      ...(typeof o.copies === 'number' ? { copies: o.copies } : {}),
      ...(o.cut === 'full' || o.cut === 'partial' || o.cut === 'none' ? { cut: o.cut } : {}),
      ...(o.openDrawer === true ? { openDrawer: true } : {}),
      ...(o.footer === true ? { footer: true } : {}),
    },
  );
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The job in a CloudPRNT media type. */
export function cloudPrntOutput(
  job: OutputJob,
  content: Buffer,
  printerPaper: string | null,
  type: CloudPrntMediaType,
): Buffer {
  if (type === 'text/plain') {
    const doc = documentOf(job, content);
    const lines = doc.blocks.flatMap((b) => {
      const block = b as { type: string; value?: string; left?: string; right?: string };
      if (block.type === 'text' && typeof block.value === 'string') return [block.value];
      if (block.type === 'pair') return [`${block.left ?? ''} ${block.right ?? ''}`];
      return [];
    });
    return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  }
  const language = type === 'image/png' ? 'raster' : 'starprnt';
  return asBuffer(encodeFor(job, content, printerPaper, language));
}

/** The job as an ePOS-Print `<epos-print>` element (UTF-8). */
export function eposXmlOutput(
  job: OutputJob,
  content: Buffer,
  printerPaper: string | null,
): Buffer {
  return asBuffer(encodeFor(job, content, printerPaper, 'epos-xml'));
}

/**
 * The picture a test-mode job for such a printer shows, drawn from what the printer of
 * `protocol` receives: StarPRNT for CloudPRNT (the type offered first), ePOS-Print XML for SDP.
 */
export async function previewOf(
  job: OutputJob,
  content: Buffer,
  protocol: string,
  printerPaper: string | null,
): Promise<Buffer> {
  const paper = paperOf(job, printerPaper);
  const language = protocol === 'sdp' ? 'epos-xml' : 'starprnt';
  return renderPrinterBytesToPng(encodeFor(job, content, printerPaper, language), {
    language,
    paper,
  });
}
