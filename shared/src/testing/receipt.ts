/** Helpers shared by the receipt tests (not part of the public surface). */
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import type { PrinterProfile } from '../printers/index.js';
import { getPrinterProfile } from '../printers/index.js';
import { encodeReceipt, type EncodeOptions, type ReceiptDocumentInput } from '../receipt/index.js';

/** Hex of bytes, no separators. */
export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** Golden hex, grouped with spaces for reading: h`1b40 1b7413` is `1b401b7413`. */
export function h(strings: TemplateStringsArray, ...values: unknown[]): string {
  return String.raw({ raw: strings }, ...values).replace(/\s+/g, '');
}

/** Hex of an ASCII string, for the text parts of golden bytes. */
export function ascii(text: string): string {
  return Buffer.from(text, 'latin1').toString('hex');
}

/** A PNG of `width`×`height` pixels; `black(x, y)` says which are black (the rest white). */
export function pngOf(
  width: number,
  height: number,
  black: (x: number, y: number) => boolean,
): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const v = black(x, y) ? 0 : 255;
      png.data[i] = v;
      png.data[i + 1] = v;
      png.data[i + 2] = v;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** A copy of a shipped profile with some fields changed. */
export function profileWith(id: string, changes: Partial<PrinterProfile>): PrinterProfile {
  return { ...getPrinterProfile(id), ...changes };
}

export type Blocks = ReceiptDocumentInput['blocks'];

/** ESC @, then ESC t 19 (CP858, the generic profiles' default). */
export const HEADER = h`1b40 1b7413`;

/** The bytes after the job header, checking the header on the way. */
export function body(
  blocks: Blocks,
  options: EncodeOptions = {},
  profile: string | PrinterProfile = 'generic-80mm',
  extra: Partial<ReceiptDocumentInput> = {},
): string {
  const out = hex(encodeReceipt({ ...extra, blocks }, profile, options));
  assert.equal(out.slice(0, HEADER.length), HEADER, 'starts with ESC @ and ESC t 19');
  return out.slice(HEADER.length);
}
