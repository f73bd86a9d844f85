/**
 * Whole labels of pictures in a label printer's language: one ZPL format (`^XA … ^XZ`) or one
 * EPL form (`N … P`) a picture, each picture the size of the label. Pure.
 */
import type { Bitmap } from '../receipt/image.js';
import { eplGraphicWrite } from './epl-graphic.js';
import { zplGraphicField, type ZplGraphicCompression } from './zpl-graphic.js';

export interface PictureLabelOptions {
  language: 'zpl' | 'epl';
  /** How many of each label: ZPL `^PQ`, EPL `P`. Default 1. */
  copies?: number;
  /** ZPL only: the `^GF` data form. Default `acs`, which every ZPL II printer reads. */
  compression?: ZplGraphicCompression;
  /** EPL only: the gap between labels, in dots. Default 3 mm at `dpi`. */
  gapDots?: number;
  /** EPL only, for the default gap. Default 203. */
  dpi?: number;
}

function checkCopies(copies: number): void {
  if (!Number.isInteger(copies) || copies < 1 || copies > 99_999_999) {
    throw new RangeError(`copies must be an integer from 1 to 99999999, got ${copies}`);
  }
}

/**
 * One ZPL format a picture: the label's width and length (`^PW`, `^LL`), the picture at the
 * label's origin as `^GFA`, and `^PQ` copies of it.
 */
export function zplPictureLabels(
  bitmaps: readonly Bitmap[],
  options: Omit<PictureLabelOptions, 'language'> = {},
): Uint8Array {
  const copies = options.copies ?? 1;
  checkCopies(copies);
  const formats = bitmaps.map(
    (b) =>
      `^XA^PW${b.width}^LL${b.height}^LH0,0^FO0,0` +
      `${zplGraphicField(b, options.compression)}^FS^PQ${copies}^XZ\n`,
  );
  return Buffer.from(formats.join(''), 'latin1');
}

/**
 * One EPL form a picture: clear the buffer (`N`), the label's width and length with its gap
 * (`q`, `Q`), the picture at the origin (`GW`), and print `P` copies of it.
 */
export function eplPictureLabels(
  bitmaps: readonly Bitmap[],
  options: Omit<PictureLabelOptions, 'language'> = {},
): Uint8Array {
  const copies = options.copies ?? 1;
  checkCopies(copies);
  const gap = options.gapDots ?? Math.round((3 * (options.dpi ?? 203)) / 25.4);
  const parts: Buffer[] = [];
  for (const b of bitmaps) {
    parts.push(Buffer.from(`\nN\nq${b.width}\nQ${b.height},${gap}\n`, 'latin1'));
    parts.push(eplGraphicWrite(b));
    parts.push(Buffer.from(`P${copies}\n`, 'latin1'));
  }
  return Buffer.concat(parts);
}

/** The labels of `bitmaps` in the printer's language (see zplPictureLabels, eplPictureLabels). */
export function pictureLabels(
  bitmaps: readonly Bitmap[],
  options: PictureLabelOptions,
): Uint8Array {
  const { language, ...rest } = options;
  return language === 'zpl' ? zplPictureLabels(bitmaps, rest) : eplPictureLabels(bitmaps, rest);
}
