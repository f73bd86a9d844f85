/** The virtual printer's picture: the interpreted page as a PNG. */
import { interpretEscpos } from './interpreter.js';
import { encodePng1Bit } from './png.js';
import type { InterpretOptions } from './types.js';

export interface EscposPreview {
  /** A 1-bit grayscale PNG, black on white. */
  png: Buffer;
  width: number;
  height: number;
  warnings: string[];
}

/** Renders ESC/POS bytes to a PNG with the page's size and the interpreter's warnings. */
export async function renderEscposPreview(
  bytes: Uint8Array,
  options: InterpretOptions,
): Promise<EscposPreview> {
  const page = interpretEscpos(bytes, options);
  const png = encodePng1Bit(page.pixels, page.width, page.height);
  return { png, width: page.width, height: page.height, warnings: page.warnings };
}

/** Renders ESC/POS bytes to a PNG exactly as a thermal printer prints them: the virtual printer. */
export async function renderEscposToPng(
  bytes: Uint8Array,
  options: InterpretOptions,
): Promise<Buffer> {
  return (await renderEscposPreview(bytes, options)).png;
}
