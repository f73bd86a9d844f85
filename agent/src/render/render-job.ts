import { PrintwireError } from '@printwire/shared/errors/index';
import { encodeText, parseCodepageName, type CodepageName } from '@printwire/shared/codepage/index';
import { getPrinterProfile } from '@printwire/shared/printers/index';
import { encodeReceipt, type EncodeOptions } from '@printwire/shared/receipt/index';
import type { QueuedJob } from '../queue/job-queue.js';
import { eplWithCopies, zplWithCopies } from './labels.js';

/** What the agent knows about the printer a job goes to. */
export interface RenderTarget {
  language: 'escpos' | 'zpl' | 'epl';
  /** The paper loaded: the URI's, else the cloud's per-printer default, else 80mm. */
  paper: '58mm' | '80mm';
  /**
   * ZPL and EPL printers: the label (URI, else cloud default, else 4x6in) and the dpi (URI, else
   * cloud default, else 203), for documents drawn as labels.
   */
  label?: { size: string; dpi: 203 | 300 | 600 };
  /** The printer's default codepage (URI, else cloud default), or null for the profile's. */
  codepage: string | null;
  /** The printer's default cut after a receipt or text job, or null for the document's own. */
  cut: 'full' | 'partial' | 'none' | null;
  /** The printer profile id; `generic-<paper>` when null. */
  profileId: string | null;
  /** How the printer is reached (a spooler takes documents, a raw port only bytes). */
  connection?: 'tcp' | 'serial' | 'usb' | 'system';
  /** What the printer is for; an `office` system queue takes no receipt, text or escpos jobs. */
  kind?: 'receipt' | 'label' | 'office';
}

/** The receipt engine; injectable so the runner can be tested on its own. */
export type ReceiptEncoder = (
  document: unknown,
  profile: string,
  options: EncodeOptions,
) => Uint8Array;

const ESC = 0x1b;
const GS = 0x1d;
const INIT = [ESC, 0x40];
const FEED_TO_CUTTER = [ESC, 0x64, 4];
const CUT = { full: [GS, 0x56, 0x00], partial: [GS, 0x56, 0x01] } as const;
const OPEN_DRAWER = [ESC, 0x70, 0x00, 25, 250];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type RenderableJob = Pick<QueuedJob, 'id' | 'type' | 'encoding' | 'content' | 'options'>;

function invalid(message: string): PrintwireError {
  return new PrintwireError('INVALID_JOB', message);
}

function unsupported(message: string): PrintwireError {
  return new PrintwireError('UNSUPPORTED_JOB', message);
}

/** The job's content as bytes (base64 decoded, utf8 encoded). */
function contentBytes(job: RenderableJob): Uint8Array {
  if (typeof job.content !== 'string') throw invalid(`${job.type} content must be a string`);
  if (job.encoding === 'base64') {
    const text = job.content.replace(/\s+/g, '');
    if (text.length % 4 !== 0 || !BASE64.test(text)) throw invalid('content is not valid base64');
    return Buffer.from(text, 'base64');
  }
  return Buffer.from(job.content, 'utf8');
}

function contentText(job: RenderableJob): string {
  if (job.encoding === 'base64') return Buffer.from(contentBytes(job)).toString('utf8');
  if (typeof job.content !== 'string') throw invalid(`${job.type} content must be a string`);
  return job.content;
}

function repeat(parts: ArrayLike<number>[], copies: number): Uint8Array {
  const one = Buffer.concat(parts.map((p) => Buffer.from(p as Uint8Array)));
  return Buffer.concat(Array.from({ length: copies }, () => one));
}

function codepageOf(name: string | null | undefined): CodepageName | undefined {
  if (name === null || name === undefined) return undefined;
  const codepage = parseCodepageName(name);
  if (!codepage) throw invalid(`unknown codepage '${name}'`);
  return codepage;
}

/** A receipt job's document (its content parsed when it is JSON text). Throws INVALID_JOB. */
export function receiptDocumentOf(job: RenderableJob): unknown {
  if (typeof job.content !== 'string') return job.content;
  try {
    return JSON.parse(contentText(job)) as unknown;
  } catch {
    throw invalid('receipt content is not JSON');
  }
}

function renderReceipt(
  job: RenderableJob,
  target: RenderTarget,
  encoder: ReceiptEncoder,
): Uint8Array {
  const document = receiptDocumentOf(job);
  const codepage = codepageOf(job.options.codepage ?? target.codepage);
  const cut = job.options.cut ?? target.cut ?? undefined;
  const options: EncodeOptions = {
    paper: target.paper,
    ...(codepage ? { codepage } : {}),
    ...(job.options.copies ? { copies: job.options.copies } : {}),
    ...(cut ? { cut } : {}),
    ...(job.options.openDrawer ? { openDrawer: true } : {}),
    ...(job.options.footer ? { footer: true } : {}),
  };
  return encoder(document, target.profileId ?? `generic-${target.paper}`, options);
}

/** Plain text as ESC/POS: reset, select the codepage, the lines, feed and cut. */
function renderText(job: RenderableJob, target: RenderTarget): Uint8Array {
  const profile = getPrinterProfile(target.profileId ?? `generic-${target.paper}`);
  const codepage =
    codepageOf(job.options.codepage ?? target.codepage) ??
    codepageOf(profile.defaultCodepage) ??
    'CP437';
  const escT = profile.codepages[codepage];
  if (escT === undefined) throw unsupported(`${profile.name} has no codepage ${codepage}`);
  const lines = contentText(job).replace(/\r\n?/g, '\n').split('\n');
  const body = lines.map((line) =>
    Buffer.concat([encodeText(line, codepage).bytes, Buffer.from([0x0a])]),
  );
  const cut = job.options.cut ?? target.cut ?? 'full';
  const tail = cut === 'none' ? [] : [FEED_TO_CUTTER, CUT[cut]];
  const copies = repeat([INIT, [ESC, 0x74, escT], ...body, ...tail], job.options.copies ?? 1);
  return withDrawer(copies, job.options.openDrawer === true);
}

function withDrawer(bytes: Uint8Array, open: boolean): Uint8Array {
  return open ? Buffer.concat([bytes, Buffer.from(OPEN_DRAWER)]) : bytes;
}

/** ESC/POS bytes as they are, with copies, then the cut and drawer the options ask for. */
function renderEscpos(job: RenderableJob): Uint8Array {
  const cut = job.options.cut;
  const tail = cut && cut !== 'none' ? [FEED_TO_CUTTER, CUT[cut]] : [];
  return withDrawer(
    repeat([contentBytes(job), ...tail], job.options.copies ?? 1),
    job.options.openDrawer === true,
  );
}

/**
 * Turns a queued job into the bytes its printer receives: receipts through the receipt engine
 * with the printer's profile and defaults, text as ESC/POS text in the codepage, escpos and raw
 * bytes as they are, ZPL and EPL as text. Options copies, cut, openDrawer and codepage are
 * applied where the printer's language has them. Throws PrintwireError INVALID_JOB or
 * UNSUPPORTED_JOB (neither retryable).
 */
export function renderJob(
  job: RenderableJob,
  target: RenderTarget,
  encoder: ReceiptEncoder = encodeReceipt,
): Uint8Array {
  if (job.encoding === 'url') {
    throw unsupported('encoding url: the content must be downloaded before rendering');
  }
  const copies = job.options.copies ?? 1;
  switch (job.type) {
    case 'receipt':
    case 'text':
    case 'escpos':
      if (target.language !== 'escpos') {
        throw unsupported(`a ${job.type} job cannot print on a ${target.language} printer`);
      }
      if (target.connection === 'system' && target.kind === 'office') {
        throw unsupported(
          `a ${job.type} job cannot print on an office printer (a system queue that is not a ` +
            'receipt printer); send pdf, image or html, or use a receipt printer',
        );
      }
      if (job.type === 'receipt') return renderReceipt(job, target, encoder);
      return job.type === 'text' ? renderText(job, target) : renderEscpos(job);
    case 'raw':
      return target.language === 'escpos' ? renderEscpos(job) : repeat([contentBytes(job)], copies);
    case 'zpl':
    case 'epl':
      if (target.language !== job.type) {
        throw unsupported(
          `a ${job.type} job cannot print on a ${target.language} printer (set lang=${job.type} in its URI)`,
        );
      }
      return job.type === 'zpl'
        ? zplWithCopies(contentBytes(job), copies)
        : eplWithCopies(contentBytes(job), copies);
    default:
      throw unsupported(`this agent cannot print ${job.type} jobs yet`);
  }
}
