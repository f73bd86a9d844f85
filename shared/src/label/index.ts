/**
 * Labels as pictures: ZPL II and EPL2 drawn as the label printer would print them, as pure code
 * (content in, PNG out). `renderLabel` also says how many labels the content prints and which
 * commands it did not draw.
 */
import { Bitmap, LABEL_MAX_DOTS } from './bitmap.js';
import { drawEplLabel, planEpl } from './epl/render.js';
import { encodeLabelPng } from './png.js';
import { parseZpl } from './zpl/parse.js';
import { planZpl } from './zpl/plan.js';
import { drawZplLabel } from './zpl/render.js';

export type LabelLanguage = 'zpl' | 'epl';

export interface LabelRenderOptions {
  /** The printer language; default: what the content looks like (ZPL when it has ^XA or ~DG). */
  language?: LabelLanguage;
  /** Dots per millimetre: 6, 8 (default, 203 dpi), 12 (300 dpi) or 24 (600 dpi). */
  dpmm?: 6 | 8 | 12 | 24;
  /** The label's width in mm; default: the content's ^PW (EPL q), else 101.6 (4 in). */
  widthMm?: number;
  /** The label's length in mm; default: the content's ^LL (EPL Q), else 152.4 (6 in). */
  heightMm?: number;
  /** Which label to draw, from 0 (each ^XA…^XZ and each copy ^PQ asks for is one). Default 0. */
  index?: number;
}

export interface RenderedLabel {
  /** A 1-bit grayscale PNG: white paper, black print. */
  png: Buffer;
  width: number;
  height: number;
  /** How many labels the content prints. */
  labelCount: number;
  /** The commands that were not drawn (unknown or not supported), each named once, e.g. `^XY`. */
  skipped: string[];
  /** What was drawn differently from what the content asked (barcode data refused, a bad CRC). */
  warnings: string[];
}

/** Dots per inch of each resolution, as printers count them (8 dots/mm is 203 dpi). */
const DPI: Record<number, number> = { 6: 152, 8: 203, 12: 300, 24: 600 };

/** The language the content is written in, judged by its commands. */
export function detectLabelLanguage(content: string): LabelLanguage {
  return /[\^~](XA|DG|XZ|FO|DF)/i.test(content) ? 'zpl' : 'epl';
}

function checkOptions(options: LabelRenderOptions): { dpmm: number; index: number } {
  const dpmm = options.dpmm ?? 8;
  if (!(dpmm in DPI)) throw new RangeError(`dpmm: must be 6, 8, 12 or 24 (got ${dpmm})`);
  const index = options.index ?? 0;
  if (!Number.isInteger(index) || index < 0)
    throw new RangeError(`index: must be a whole number from 0 (got ${index})`);
  for (const key of ['widthMm', 'heightMm'] as const) {
    const v = options[key];
    if (v !== undefined && !(v > 0 && v <= 1000))
      throw new RangeError(`${key}: must be more than 0 and at most 1000 mm (got ${v})`);
  }
  if (options.language !== undefined && options.language !== 'zpl' && options.language !== 'epl') {
    throw new RangeError(`language: must be 'zpl' or 'epl' (got ${String(options.language)})`);
  }
  return { dpmm, index };
}

function sizeInDots(
  mm: number | undefined,
  own: number | undefined,
  inches: number,
  dpmm: number,
): number {
  if (mm !== undefined) return Math.max(1, Math.round((mm / 25.4) * DPI[dpmm]!));
  if (own !== undefined && own > 0) return Math.min(Math.round(own), 40_000);
  return Math.round(inches * DPI[dpmm]!);
}

function checkSize(width: number, height: number): void {
  if (width * height > LABEL_MAX_DOTS) {
    throw new RangeError(
      `label size: ${width} x ${height} dots is more than the ${LABEL_MAX_DOTS} dots the renderer draws (^PW/^LL, q/Q, widthMm/heightMm)`,
    );
  }
}

/**
 * Draws one label of ZPL or EPL content. Throws RangeError for an index past the last label or an
 * option out of range; unknown commands are skipped and listed, never an error.
 */
export function renderLabel(
  content: string | Uint8Array,
  options: LabelRenderOptions = {},
): RenderedLabel {
  const { dpmm, index } = checkOptions(options);
  const fromBytes = typeof content !== 'string';
  const text = typeof content === 'string' ? content : Buffer.from(content).toString('latin1');
  const language = options.language ?? detectLabelLanguage(text);
  let bitmap: Bitmap;
  let labelCount: number;
  let skipped: string[];
  let warnings: string[];
  if (language === 'zpl') {
    const plan = planZpl(parseZpl(text), dpmm);
    labelCount = plan.labelCount;
    if (index >= labelCount)
      throw new RangeError(`index: label ${index} asked for, the content prints ${labelCount}`);
    let n = index;
    let b = 0;
    while (n >= plan.blocks[b]!.copies) n -= plan.blocks[b++]!.copies;
    const block = plan.blocks[b]!;
    const width = sizeInDots(options.widthMm, block.width, 4, dpmm);
    const height = sizeInDots(options.heightMm, block.length, 6, dpmm);
    checkSize(width, height);
    // A label wider than its ^PW: the printed width is centred on it, as Labelary draws it (^PO
    // I then turns the whole label, so the printed width lands on the other side of centre).
    const printed =
      block.width && options.widthMm !== undefined && block.width < width ? block.width : width;
    const drawn = drawZplLabel(block, n, {
      dpmm,
      width: printed,
      height,
      graphics: plan.graphics,
      fromBytes,
    });
    bitmap = drawn.bitmap;
    if (printed !== width) {
      const paper = new Bitmap(width, height);
      const left = Math.floor((width - printed) / 2);
      const po = block.commands.filter((c) => c.name === '^PO').pop();
      const turned = po?.params.trim().toUpperCase().startsWith('I');
      paper.draw(bitmap, turned ? width - printed - left : left, 0);
      bitmap = paper;
    }
    skipped = drawn.skipped;
    warnings = [...plan.warnings, ...drawn.warnings];
  } else {
    const plan = planEpl(text);
    labelCount = plan.labelCount;
    if (index >= labelCount)
      throw new RangeError(`index: label ${index} asked for, the content prints ${labelCount}`);
    const found = plan.labelAt(index);
    const width = sizeInDots(options.widthMm, found.width, 4, dpmm);
    const height = sizeInDots(options.heightMm, found.length, 6, dpmm);
    checkSize(width, height);
    const drawn = drawEplLabel(found, { dpmm, width, height, fromBytes });
    bitmap = drawn.bitmap;
    skipped = drawn.skipped;
    warnings = drawn.warnings;
  }
  const png = encodeLabelPng(bitmap);
  return { png, width: bitmap.width, height: bitmap.height, labelCount, skipped, warnings };
}

/** A PNG of one label (white paper, black print): the contract's entry point. */
export async function renderLabelToPng(
  content: string | Uint8Array,
  options: LabelRenderOptions = {},
): Promise<Buffer> {
  return renderLabel(content, options).png;
}

/** How many labels the content prints (each ^XA…^XZ times its ^PQ; EPL: each P's sets × copies). */
export function countLabels(content: string | Uint8Array, language?: LabelLanguage): number {
  const text = typeof content === 'string' ? content : Buffer.from(content).toString('latin1');
  const lang = language ?? detectLabelLanguage(text);
  return lang === 'zpl' ? planZpl(parseZpl(text)).labelCount : planEpl(text).labelCount;
}
