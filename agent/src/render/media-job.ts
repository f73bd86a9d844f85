import { PrintwireError } from '@printwire/shared/errors/index';
import type { QueuedJob } from '../queue/job-queue.js';
import type { Downloader, DownloadPolicy } from '../download/downloader.js';
import type { HtmlRenderer } from './html.js';
import { renderImageForThermal } from './image.js';
import { renderPdfForThermal } from './pdf.js';
import { parseLabelSize } from '@printwire/shared/label-graphics/label-size';
import {
  DEFAULT_LABEL_DPI,
  DEFAULT_LABEL_SIZE,
  type LabelDpi,
} from '@printwire/shared/label-graphics/label-size';

type MediaJob = Pick<QueuedJob, 'type' | 'encoding' | 'content' | 'options'>;

/** The printer a pdf, image or html job goes to. */
export interface MediaPrinter {
  /** `system`: the OS spooler converts documents; anything else is a thermal printer. */
  connection: 'tcp' | 'serial' | 'usb' | 'system';
  language: 'escpos' | 'zpl' | 'epl';
  paper: '58mm' | '80mm';
  /** The printer's default cut, or null for `full`. */
  cut: 'full' | 'partial' | 'none' | null;
  /** ZPL and EPL printers: the label's size (`4x6in`, `100x150mm`) and the printer's dpi. */
  label?: { size: string; dpi: LabelDpi };
}

/** The label of a ZPL or EPL printer that gives none: 4 × 6 in at 203 dpi (the contract's). */
const DEFAULT_LABEL = { size: DEFAULT_LABEL_SIZE, dpi: DEFAULT_LABEL_DPI };

export interface MediaDeps {
  html: HtmlRenderer;
  /** `NODE_ENV=production`: http sub-resources of HTML jobs are refused. */
  production: boolean;
}

/** The job types this module renders (the others go through `renderJob`). */
export const MEDIA_JOB_TYPES = ['pdf', 'image', 'html'] as const;

export function isMediaJob(type: string): type is (typeof MEDIA_JOB_TYPES)[number] {
  return (MEDIA_JOB_TYPES as readonly string[]).includes(type);
}

/**
 * A job with `encoding: url` made into the same job with its content downloaded (as base64),
 * so that the synchronous `renderJob` and `renderMediaJob` see bytes. Other jobs are returned
 * as they are. Throws DOWNLOAD_FAILED, DOWNLOAD_TIMEOUT or DOWNLOAD_TOO_LARGE.
 */
export async function resolveUrlContent<J extends MediaJob>(
  job: J,
  downloader: Downloader,
  policy: DownloadPolicy = {},
): Promise<J> {
  if (job.encoding !== 'url') return job;
  if (typeof job.content !== 'string') {
    throw new PrintwireError('INVALID_JOB', 'url content must be the URL string');
  }
  const file = await downloader.download(job.content.trim(), policy);
  return { ...job, encoding: 'base64', content: file.bytes.toString('base64') };
}

function bytesOf(job: MediaJob): Buffer {
  if (typeof job.content !== 'string') {
    throw new PrintwireError('INVALID_JOB', `${job.type} content must be a string`);
  }
  if (job.encoding === 'base64') return Buffer.from(job.content, 'base64');
  if (job.encoding === 'utf8' && job.type === 'html') return Buffer.from(job.content, 'utf8');
  throw new PrintwireError(
    'INVALID_JOB',
    `${job.type} content must be base64${job.type === 'html' ? ' or utf8' : ''} (or a url)`,
  );
}

/**
 * The bytes for a pdf, image or html job (content already resolved from a URL): for a system
 * printer the PDF or image itself (the spooler converts it; HTML becomes PDF first); for an
 * ESC/POS printer raster images at its paper width, with copies and cut; for a ZPL or EPL
 * printer one label a page, drawn on its label size at its dpi (see label-documents.ts), HTML
 * laid out by the browser on pages of the label's size.
 */
export async function renderMediaJob(
  job: MediaJob,
  printer: MediaPrinter,
  deps: MediaDeps,
): Promise<Uint8Array> {
  if (!isMediaJob(job.type)) throw new Error(`${job.type} is not a media job`);
  const system = printer.connection === 'system';
  if (!system && printer.language !== 'escpos') {
    return renderLabelMediaJob(job, printer.language, printer.label ?? DEFAULT_LABEL, deps);
  }
  const raster = {
    paper: printer.paper,
    copies: job.options.copies ?? 1,
    cut: job.options.cut ?? printer.cut ?? 'full',
  };
  let bytes = bytesOf(job);
  if (job.type === 'html') {
    const widthMm = system ? undefined : printer.paper === '58mm' ? 58 : 80;
    bytes = await deps.html.renderToPdf(bytes.toString('utf8'), {
      production: deps.production,
      ...(widthMm ? { widthMm } : {}),
    });
  }
  if (system) return bytes;
  return job.type === 'image'
    ? renderImageForThermal(bytes, raster)
    : renderPdfForThermal(bytes, raster);
}

async function renderLabelMediaJob(
  job: MediaJob,
  language: 'zpl' | 'epl',
  label: { size: string; dpi: LabelDpi },
  deps: MediaDeps,
): Promise<Uint8Array> {
  // Loaded with the first label document, like pdf.js and sharp.
  const { renderDocumentForLabel } = await import('./label-documents.js');
  const paper = { language, size: label.size, dpi: label.dpi };
  let bytes = bytesOf(job);
  if (job.type === 'html') {
    const size = parseLabelSize(label.size);
    bytes = await deps.html.renderToPdf(bytes.toString('utf8'), {
      production: deps.production,
      pageMm: { width: size.widthMm, height: size.heightMm },
    });
  }
  return renderDocumentForLabel(job.type === 'image' ? 'image' : 'pdf', bytes, paper, {
    copies: job.options.copies ?? 1,
  });
}
