/**
 * Label previews: a ZPL or EPL job (or a ZPL or EPL template's output) drawn by the shared label
 * renderer. A label is sized by its own `^PW`/`^LL` (EPL `q`/`Q`), else by the printer's or the
 * template's label size, else 4 × 6 in; drawn at the printer's dpi (default 203).
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import { renderLabel, type LabelLanguage } from '@printwire/shared/label/index';
import {
  DPMM_OF_DPI,
  isLabelDpi,
  isLabelSize,
  parseLabelSize,
} from '@printwire/shared/label-graphics/label-size';
import type { Printer } from '../storage/types.js';

/** Job types whose preview is a label. */
export const LABEL_PREVIEW_TYPES: readonly string[] = ['zpl', 'epl'];

/**
 * Job types a label printer prints as pictures (contract: "Label printers take documents"):
 * their preview is the `^GF`/`GW` labels the printer gets, drawn back. HTML is laid out by a
 * browser first (html-labels.ts); without one it has no preview (HTML_LABEL_NO_PREVIEW).
 */
export const LABEL_DOCUMENT_TYPES: readonly string[] = ['pdf', 'image', 'html'];

export { HTML_LABEL_NO_PREVIEW } from './html-labels.js';

/** Why a document given by URL for a label printer has no sandbox preview. */
export const URL_LABEL_NO_PREVIEW =
  'a document given by URL is downloaded by the agent when it prints, and the sandbox fetches nothing; send its bytes (base64) to see its labels';

/**
 * The language a label printer is sent documents in: ZPL when it takes ZPL (the sandbox's label
 * printer takes both), else EPL; undefined for printers that are no label printer.
 */
export function labelLanguageOf(printer: Printer | undefined): 'zpl' | 'epl' | undefined {
  if (!printer || printer.kind !== 'label') return undefined;
  if (printer.capabilities.includes('zpl')) return 'zpl';
  return printer.capabilities.includes('epl') ? 'epl' : undefined;
}

/** The language a job's preview is a label in (ZPL, EPL, or a document for a label printer). */
export function labelPreviewLanguage(job: {
  type: string;
  options: Record<string, unknown>;
}): LabelLanguage | undefined {
  if (job.type === 'zpl' || job.type === 'epl') return job.type;
  const language = job.options.labelLanguage;
  return LABEL_DOCUMENT_TYPES.includes(job.type) && (language === 'zpl' || language === 'epl')
    ? language
    : undefined;
}

/** What a label preview needs besides the content: the label's size and the printer's dpi. */
export interface LabelPaperOptions {
  /** `4x6in`, `100x150mm`: used for the sides the content does not give itself. */
  labelSize?: string | undefined;
  dpi?: number | undefined;
}

/** One label drawn: the PNG, how many labels the content prints, what was not drawn. */
export interface LabelPreview {
  png: Buffer;
  labelCount: number;
  skipped: string[];
  warnings: string[];
}

/** Most characters of the `Printwire-Label-Warnings` header (encoded), well under the 8 KB many proxies allow a header. */
export const LABEL_WARNINGS_HEADER_MAX = 4096;

/**
 * The `Printwire-Label-Warnings` header's value: the warnings as a JSON array of strings,
 * percent-encoded (encodeURIComponent) so any data quoted in them is safe in a header. Whole
 * warnings only, up to LABEL_WARNINGS_HEADER_MAX characters; when some are left off, the last
 * entry says how many (`3 more warnings not listed`). Undefined when there are none.
 */
export function labelWarningsHeader(
  warnings: readonly string[],
  max = LABEL_WARNINGS_HEADER_MAX,
): string | undefined {
  if (warnings.length === 0) return undefined;
  const encode = (list: string[]) => encodeURIComponent(JSON.stringify(list));
  const note = (n: number) => `${n} more warning${n === 1 ? '' : 's'} not listed`;
  const full = encode([...warnings]);
  if (full.length <= max) return full;
  let kept = warnings.length - 1;
  while (
    kept > 0 &&
    encode([...warnings.slice(0, kept), note(warnings.length - kept)]).length > max
  )
    kept--;
  return encode([...warnings.slice(0, kept), note(warnings.length - kept)]);
}

/**
 * The label size and dpi a test job records for its preview: the size asked for (the job's
 * `paper` or its template's) when it is a label size, else the printer's; the printer's dpi.
 */
export function labelPaperOf(
  printer: Printer | undefined,
  requested: string | undefined,
): LabelPaperOptions {
  const own = printer?.settings.paper;
  const labelSize =
    requested && isLabelSize(requested) ? requested : own && isLabelSize(own) ? own : undefined;
  const dpi = printer?.settings.dpi;
  return {
    ...(labelSize ? { labelSize: parseLabelSize(labelSize).text } : {}),
    ...(dpi !== undefined && isLabelDpi(dpi) ? { dpi } : {}),
  };
}

/** Whether the content sets its own width and length (ZPL ^PW/^LL, EPL q/Q). */
function ownSides(text: string, language: LabelLanguage): { width: boolean; length: boolean } {
  return language === 'zpl'
    ? { width: /\^PW\d/i.test(text), length: /\^LL\d/i.test(text) }
    : { width: /^q\d/m.test(text), length: /^Q\d/m.test(text) };
}

/**
 * Label `index` (from 0) of ZPL or EPL content. Throws VALIDATION_FAILED naming `label` when the
 * content prints fewer labels.
 */
export function renderLabelPreview(
  content: string | Uint8Array,
  language: LabelLanguage,
  paper: LabelPaperOptions,
  index = 0,
): LabelPreview {
  const text = typeof content === 'string' ? content : Buffer.from(content).toString('latin1');
  const size = paper.labelSize ? parseLabelSize(paper.labelSize) : undefined;
  const own = ownSides(text, language);
  const dpi = paper.dpi !== undefined && isLabelDpi(paper.dpi) ? paper.dpi : 203;
  try {
    const drawn = renderLabel(content, {
      language,
      dpmm: DPMM_OF_DPI[dpi],
      index,
      ...(size && !own.width ? { widthMm: size.widthMm } : {}),
      ...(size && !own.length ? { heightMm: size.heightMm } : {}),
    });
    return {
      png: drawn.png,
      labelCount: drawn.labelCount,
      skipped: drawn.skipped,
      warnings: drawn.warnings,
    };
  } catch (error) {
    if (!(error instanceof RangeError) || !/^index:/.test(error.message)) throw error;
    const message = `label: ${error.message.replace(/^index: /, '')} (labels count from 0)`;
    throw new PrintwireError('VALIDATION_FAILED', message, {
      details: [{ path: 'label', message }],
    });
  }
}
