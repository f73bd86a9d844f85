/**
 * The sandbox's print. `printVirtually` decides at once how a test job ends (printed, or failed
 * with PAPER_OUT on the paper-out printer); `printedBytes` computes what the printer received:
 * receipts through the shared receipt encoder, text in the printer's default code table, ESC/POS
 * and raw bytes as given. The preview is drawn from exactly these bytes by the shared virtual
 * printer (renderEscposToPng). ZPL and EPL get `copies` in their own language, as the agent
 * sends them; pdf and image jobs for a label printer become the `^GF` (ZPL) or `GW` (EPL) labels
 * the agent would send (@printwire/shared/documents), and html jobs too once a browser has laid
 * them out on the label's pages (html-labels.ts; only when the cloud has a browser). The bytes
 * are computed when the preview is
 * first asked for, not at creation: they follow from the stored content, and encoding on the
 * request path would cut the API's throughput for a preview most jobs never need.
 */
import { encodeText, type CodepageName } from '@printwire/shared/codepage/index';
import { eplWithCopies, zplWithCopies } from '@printwire/shared/label-graphics/copies';
import {
  DEFAULT_LABEL_DPI,
  DEFAULT_LABEL_SIZE,
  isLabelDpi,
  parseLabelSize,
} from '@printwire/shared/label-graphics/label-size';
import { encodeReceipt, type ReceiptDocument } from '@printwire/shared/receipt/index';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { JobState, Printer } from '../storage/types.js';
import {
  HTML_LABEL_NO_PREVIEW,
  MAX_HTML_LABEL_PAGES,
  type HtmlLabelRenderer,
} from './html-labels.js';
import {
  LABEL_DOCUMENT_TYPES,
  LABEL_PREVIEW_TYPES,
  labelLanguageOf,
  labelPaperOf,
  type LabelPaperOptions,
} from './label-preview.js';

/** Job types the virtual printer draws a preview of (ZPL and EPL as labels). */
export const PREVIEW_TYPES: readonly string[] = [
  'receipt',
  'escpos',
  'raw',
  'text',
  ...LABEL_PREVIEW_TYPES,
];

export interface VirtualJob {
  type: string;
  encoding: string;
  /** The stored content (receipt JSON, text as UTF-8, or bytes). */
  content: Buffer;
  options: {
    copies?: number | undefined;
    cut?: 'full' | 'partial' | 'none' | undefined;
    openDrawer?: boolean | undefined;
    codepage?: CodepageName | undefined;
    footer?: boolean | undefined;
    paper?: '58mm' | '80mm' | undefined;
    /** The printer profile the receipt is encoded for. */
    profile?: string | undefined;
    /** ZPL and EPL: the label size and dpi of the preview (see label-preview.ts). */
    labelSize?: string | undefined;
    dpi?: number | undefined;
    /** pdf, image and html jobs for a label printer: the printer's language. */
    labelLanguage?: 'zpl' | 'epl' | undefined;
  };
}

export interface VirtualPrint {
  /** True when something was printed that the virtual printer can draw. */
  previewable: boolean;
  /** The paper the job printed on. */
  paper: '58mm' | '80mm';
  /** The printer profile receipts are encoded for. */
  profile: string;
  /** Transitions after queued. */
  then: Array<{ state: JobState; errorCode?: string; errorMessage?: string }>;
  /** ZPL and EPL jobs, and documents for a label printer: what their preview is drawn at. */
  label?: LabelPaperOptions & { labelLanguage?: 'zpl' | 'epl' };
}

export function paperOf(printer: Printer | undefined, requested?: string): '58mm' | '80mm' {
  const paper = requested ?? printer?.paper;
  return paper === '58mm' ? '58mm' : '80mm';
}

export function profileOf(printer: Printer | undefined, paper: '58mm' | '80mm'): string {
  return printer?.profile ?? (paper === '58mm' ? 'generic-58mm' : 'generic-80mm');
}

/**
 * How a test job of `type` ends on the virtual `printer`. `htmlLabels`: whether the cloud has a
 * browser to lay out an HTML job for a label printer (its preview), default false.
 */
export function printVirtually(
  type: string,
  printer: Printer | undefined,
  requestedPaper?: string,
  htmlLabels = false,
): VirtualPrint {
  const paper = paperOf(printer, requestedPaper);
  const profile = profileOf(printer, paper);
  if (printer?.sandbox && printer.status === 'paper_out') {
    return {
      previewable: false,
      paper,
      profile,
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
  const printed: VirtualPrint = {
    previewable: PREVIEW_TYPES.includes(type),
    paper,
    profile,
    then: [{ state: 'sending' }, { state: 'printed' }],
    ...(LABEL_PREVIEW_TYPES.includes(type) ? { label: labelPaperOf(printer, requestedPaper) } : {}),
  };
  const labelLanguage = labelLanguageOf(printer);
  if (labelLanguage && LABEL_DOCUMENT_TYPES.includes(type)) {
    // HTML is laid out by a browser: previewed only when the cloud has one.
    printed.previewable = type !== 'html' || htmlLabels;
    printed.label = { ...labelPaperOf(printer, requestedPaper), labelLanguage };
  }
  return printed;
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The bytes the virtual printer received for a test job; null for types it cannot draw. */
export function printedBytes(job: VirtualJob): Buffer | null {
  const o = job.options;
  const paper = o.paper ?? '80mm';
  switch (job.type) {
    case 'receipt': {
      const document = JSON.parse(job.content.toString('utf8')) as ReceiptDocument;
      return asBuffer(
        encodeReceipt(document, o.profile ?? profileOf(undefined, paper), {
          paper,
          ...(o.copies !== undefined ? { copies: o.copies } : {}),
          ...(o.cut !== undefined ? { cut: o.cut } : {}),
          ...(o.openDrawer !== undefined ? { openDrawer: o.openDrawer } : {}),
          ...(o.codepage !== undefined ? { codepage: o.codepage } : {}),
          ...(o.footer ? { footer: true } : {}),
        }),
      );
    }
    case 'escpos':
    case 'raw':
      return job.content;
    case 'zpl':
      return asBuffer(zplWithCopies(job.content, o.copies ?? 1));
    case 'epl':
      return asBuffer(eplWithCopies(job.content, o.copies ?? 1));
    case 'text':
      if (job.encoding === 'base64') return job.content;
      // A printer starts in code table 0 (CP437); text is encoded for it, characters it lacks
      // transliterated as the receipt engine does.
      return asBuffer(encodeText(job.content.toString('utf8'), 'CP437').bytes);
    default:
      return null;
  }
}

/**
 * What a label printer receives for a pdf, image or html job (`labelLanguage` set at creation):
 * each page drawn on the label at the printer's dpi as `^GF` or `GW`, `copies` of each; HTML laid
 * out by `html` (the cloud's browser) on pages of the label's size first. Null for other jobs.
 * pdf.js and sharp load with the first such preview. Throws INVALID_JOB for a document that
 * cannot be read, as the agent fails the job; RENDER_FAILED for HTML that cannot be laid out in
 * time; NOT_FOUND with the reason for HTML when the cloud has no browser.
 */
export async function printedLabelDocument(
  job: VirtualJob,
  cacheKey?: string,
  html?: HtmlLabelRenderer,
): Promise<Buffer | null> {
  const o = job.options;
  if (!o.labelLanguage || !['pdf', 'image', 'html'].includes(job.type)) return null;
  if (cacheKey === undefined) return drawLabelDocument(job, html);
  let drawn = documentLabels.get(cacheKey);
  if (!drawn) {
    drawn = drawLabelDocument(job, html);
    if (documentLabels.size >= DOCUMENT_LABELS_KEPT) {
      documentLabels.delete(documentLabels.keys().next().value!);
    }
    documentLabels.set(cacheKey, drawn);
    drawn.then(
      (bytes) => bytes.length > DOCUMENT_LABELS_MAX_BYTES && documentLabels.delete(cacheKey),
      (error) => !settledFailure(job, error) && documentLabels.delete(cacheKey),
    );
  }
  return drawn;
}

/**
 * The labels of the last few documents drawn, by job: the dashboard asks for each label of a
 * job in turn (`?label=N`), and a job's content never changes. A failed drawing is not kept, nor
 * one over DOCUMENT_LABELS_MAX_BYTES (a long PDF), so that the cache stays small; but HTML that
 * could not be laid out is (settledFailure), so that asking again does not run the page again.
 */
const documentLabels = new Map<string, Promise<Buffer>>();
const DOCUMENT_LABELS_KEPT = 16;
const DOCUMENT_LABELS_MAX_BYTES = 2_000_000;

/** A failure of an HTML job's layout that asking again would only repeat. */
function settledFailure(job: VirtualJob, error: unknown): boolean {
  return (
    job.type === 'html' &&
    error instanceof PrintwireError &&
    (error.code === 'RENDER_FAILED' || error.code === 'INVALID_JOB')
  );
}

async function drawLabelDocument(job: VirtualJob, html?: HtmlLabelRenderer): Promise<Buffer> {
  const o = job.options;
  const paper = {
    language: o.labelLanguage ?? 'zpl',
    size: o.labelSize ?? DEFAULT_LABEL_SIZE,
    dpi: o.dpi !== undefined && isLabelDpi(o.dpi) ? o.dpi : DEFAULT_LABEL_DPI,
  };
  let content = job.content;
  if (job.type === 'html') {
    // As the agent: the browser lays the page out on pages of the label's size.
    if (!html) throw new PrintwireError('NOT_FOUND', HTML_LABEL_NO_PREVIEW);
    const size = parseLabelSize(paper.size);
    content = await html.labelPdf(job.content.toString('utf8'), size);
  }
  const { renderDocumentForLabel } = await import('@printwire/shared/documents/label-documents');
  const kind = job.type === 'image' ? 'image' : 'pdf';
  try {
    return asBuffer(await renderDocumentForLabel(kind, content, paper, { copies: o.copies ?? 1 }));
  } catch (error) {
    // The browser stopped one page past the limit: say so of the HTML, not of its PDF.
    if (
      job.type === 'html' &&
      error instanceof PrintwireError &&
      /pages; at most/.test(error.message)
    ) {
      throw new PrintwireError(
        'INVALID_JOB',
        `the HTML lays out more than ${MAX_HTML_LABEL_PAGES} labels; at most ${MAX_HTML_LABEL_PAGES} are printed on a label printer`,
      );
    }
    throw error;
  }
}
