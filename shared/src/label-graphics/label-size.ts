/**
 * A label printer's paper: the label's size (`4x6in`, `100x150mm`) and the printer's resolution.
 * The contract's "Labels as pictures": `paper=WxHmm|WxHin` (default 4x6in) and `dpi=203|300|600`
 * (default 203), in a printer's URI or its defaults.
 */

/** The resolutions label printers are made with, in dots per inch. */
export const LABEL_DPIS = [203, 300, 600] as const;
export type LabelDpi = (typeof LABEL_DPIS)[number];

/** 203 dpi: the printers of most shops and carriers. */
export const DEFAULT_LABEL_DPI: LabelDpi = 203;
/** 4 × 6 in: the shipping label of the common carriers. */
export const DEFAULT_LABEL_SIZE = '4x6in';

/** Dots per millimetre as ZPL counts them (203 dpi is 8 dpmm), for the label renderer. */
export const DPMM_OF_DPI: Record<LabelDpi, 8 | 12 | 24> = { 203: 8, 300: 12, 600: 24 };

/** Bounds of a label size, in millimetres: wide-format printers print 8.5 in, liners run long. */
export const LABEL_SIZE_LIMITS = {
  minMm: 5,
  maxWidthMm: 220,
  maxHeightMm: 1000,
} as const;

/** A label's size as written (`4x6in`) and in millimetres. */
export interface LabelSize {
  /** The size as given, lower case: `4x6in`, `100x150mm`. */
  text: string;
  widthMm: number;
  heightMm: number;
  /** The unit it was given in: inches count dots as the printer does (4 in at 203 dpi is 812). */
  unit: 'mm' | 'in';
  width: number;
  height: number;
}

const SIZE = /^(\d{1,4}(?:\.\d{1,3})?)x(\d{1,4}(?:\.\d{1,3})?)(mm|in)$/;

/** The pattern a label size matches, for schemas and form fields. */
export const LABEL_SIZE_PATTERN = SIZE;

/** Why `text` is not a label size, or null when it is one. */
export function labelSizeProblem(text: string): string | null {
  const m = SIZE.exec(text.trim().toLowerCase());
  if (!m) return `a label size is WIDTHxHEIGHT in mm or in (100x150mm, 4x6in), got '${text}'`;
  const factor = m[3] === 'in' ? 25.4 : 1;
  const widthMm = Number(m[1]) * factor;
  const heightMm = Number(m[2]) * factor;
  const { minMm, maxWidthMm, maxHeightMm } = LABEL_SIZE_LIMITS;
  if (widthMm < minMm || heightMm < minMm) return `a label is at least ${minMm} mm on each side`;
  if (widthMm > maxWidthMm) return `a label is at most ${maxWidthMm} mm wide`;
  if (heightMm > maxHeightMm) return `a label is at most ${maxHeightMm} mm long`;
  return null;
}

/** True when `text` is a label size (`4x6in`, `100x150mm`) within LABEL_SIZE_LIMITS. */
export function isLabelSize(text: string): boolean {
  return labelSizeProblem(text) === null;
}

/** Parses `4x6in` or `100x150mm`. Throws RangeError naming the rule it breaks. */
export function parseLabelSize(text: string): LabelSize {
  const problem = labelSizeProblem(text);
  if (problem) throw new RangeError(problem);
  const m = SIZE.exec(text.trim().toLowerCase())!;
  const unit = m[3] as 'mm' | 'in';
  const factor = unit === 'in' ? 25.4 : 1;
  const width = Number(m[1]);
  const height = Number(m[2]);
  return {
    text: `${m[1]}x${m[2]}${unit}`,
    widthMm: width * factor,
    heightMm: height * factor,
    unit,
    width,
    height,
  };
}

/** True for 203, 300 and 600. */
export function isLabelDpi(value: unknown): value is LabelDpi {
  return (LABEL_DPIS as readonly unknown[]).includes(value);
}

/**
 * The label in printer dots: a length in inches times the dpi (a 4 × 6 in label at 203 dpi is
 * 812 × 1218, as the printer counts), millimetres through 25.4 mm an inch, rounded.
 */
export function labelDots(size: LabelSize, dpi: LabelDpi): { width: number; height: number } {
  const perUnit = size.unit === 'in' ? dpi : dpi / 25.4;
  return {
    width: Math.max(1, Math.round(size.width * perUnit)),
    height: Math.max(1, Math.round(size.height * perUnit)),
  };
}
