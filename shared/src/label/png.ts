/**
 * The label's PNG: 1-bit grayscale, black on white, by the one 1-bit PNG writer
 * (`escpos/png.ts`, which the virtual printer and the receipt previews use too).
 */
import { encodePng1Bit } from '../escpos/png.js';
import type { Bitmap } from './bitmap.js';

/** Encodes the label (1 = black) as a 1-bit grayscale PNG (PNG gray 1 is white). */
export function encodeLabelPng(bitmap: Bitmap): Buffer {
  return encodePng1Bit(bitmap.data, bitmap.width, bitmap.height);
}
