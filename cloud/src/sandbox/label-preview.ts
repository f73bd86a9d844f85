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
