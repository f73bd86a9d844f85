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
import { interpretEscpos } from '@printwire/shared/escpos/index';
import { encodePng1Bit } from '@printwire/shared/escpos/png';
import { encodeReceipt, type ReceiptDocument } from '@printwire/shared/receipt/index';

export type CloudProtocol = 'cloudprnt' | 'sdp';

/** CloudPRNT media types we offer, best first (the printer picks the first it supports). */
export const CLOUDPRNT_MEDIA_TYPES = ['image/png', 'text/plain'] as const;
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

function escposOf(job: OutputJob, content: Buffer, printerPaper: string | null): Uint8Array {
  const paper = paperOf(job, printerPaper);
  const o = job.options;
  return encodeReceipt(
    documentOf(job, content),
    paper === '58mm' ? 'generic-58mm' : 'generic-80mm',
    {
      paper,
      ...(typeof o.copies === 'number' ? { copies: o.copies } : {}),
      ...(o.cut === 'full' || o.cut === 'partial' || o.cut === 'none' ? { cut: o.cut } : {}),
      ...(o.openDrawer === true ? { openDrawer: true } : {}),
      ...(o.footer === true ? { footer: true } : {}),
    },
  );
}

/** The job as the paper's full-width 1-bit picture (576 dots for 80 mm, 384 for 58 mm). */
function rasterOf(
  job: OutputJob,
  content: Buffer,
  printerPaper: string | null,
): { pixels: Uint8Array; width: number; height: number } {
  const paper = paperOf(job, printerPaper);
  const page = interpretEscpos(escposOf(job, content, printerPaper), { paper });
  return { pixels: page.pixels, width: page.width, height: Math.max(page.height, 1) };
}

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
  const { pixels, width, height } = rasterOf(job, content, printerPaper);
  return encodePng1Bit(pixels, width, height);
}

/** Packs one-byte-per-dot pixels into ePOS `mono` rows: 1 bit a dot, MSB first, rows padded. */
function packMono(pixels: Uint8Array, width: number, height: number): Buffer {
  const stride = Math.ceil(width / 8);
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (pixels[y * width + x]) out[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return out;
}

export const EPOS_NAMESPACE = 'http://www.epson-pos.com/schemas/2011/03/epos-print';

/** The job as an ePOS-Print `<epos-print>` element (UTF-8). */
export function eposXmlOutput(
  job: OutputJob,
  content: Buffer,
  printerPaper: string | null,
): Buffer {
  const { pixels, width, height } = rasterOf(job, content, printerPaper);
  const data = packMono(pixels, width, height).toString('base64');
  const xml =
    `<epos-print xmlns="${EPOS_NAMESPACE}">` +
    `<image width="${width}" height="${height}" color="color_1" mode="mono" align="left">${data}</image>` +
    `<cut type="feed"/>` +
    `</epos-print>`;
  return Buffer.from(xml, 'utf8');
}

/**
 * The picture a test-mode job for such a printer shows, drawn from what the printer of
 * `protocol` receives.
 */
export async function previewOf(
  job: OutputJob,
  content: Buffer,
  protocol: string,
  printerPaper: string | null,
): Promise<Buffer> {
  void protocol;
  return cloudPrntOutput(job, content, printerPaper, 'image/png');
}
