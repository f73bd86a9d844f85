/** Bit images as the printer draws them: ESC * (column format) and GS v 0 (raster format). */
import type { Printer } from './printer.js';
import type { ByteReader } from './reader.js';

/** ESC * modes: dots per column and how many times each dot is repeated (at 203 dpi). */
const BIT_IMAGE_MODES: Record<number, { dots: 8 | 24; scaleX: number; scaleY: number }> = {
  0: { dots: 8, scaleX: 2, scaleY: 3 },
  1: { dots: 8, scaleX: 1, scaleY: 3 },
  32: { dots: 24, scaleX: 2, scaleY: 1 },
  33: { dots: 24, scaleX: 1, scaleY: 1 },
};

/** ESC * m nL nH d…: a bit image of nL + nH×256 columns in the line buffer. */
export function bitImage(r: ByteReader, printer: Printer): void {
  const head = r.take(3);
  if (!head) return;
  const [m, nL, nH] = head as unknown as [number, number, number];
  const mode = BIT_IMAGE_MODES[m];
  const columns = nL + nH * 256;
  if (!mode) {
    r.warn(`ESC * mode ${m} is not a bit image mode: command skipped`);
    return;
  }
  const bytesPerColumn = mode.dots / 8;
  const data = r.data(columns * bytesPerColumn);
  const cols = Math.floor(data.length / bytesPerColumn);
  const width = cols * mode.scaleX;
  const height = mode.dots * mode.scaleY;
  const bits = new Uint8Array(width * height);
  for (let col = 0; col < cols; col++) {
    for (let dot = 0; dot < mode.dots; dot++) {
      const byte = data[col * bytesPerColumn + (dot >> 3)]!;
      if (!((byte << (dot & 7)) & 0x80)) continue;
      for (let sy = 0; sy < mode.scaleY; sy++) {
        const row = (dot * mode.scaleY + sy) * width;
        for (let sx = 0; sx < mode.scaleX; sx++) bits[row + col * mode.scaleX + sx] = 1;
      }
    }
  }
  if (width > 0) printer.addImage(width, height, bits);
}

/** GS v 0 m xL xH yL yH d…: a raster image, (xL + xH×256) bytes by (yL + yH×256) rows. */
export function rasterImage(r: ByteReader, printer: Printer): void {
  const head = r.take(5);
  if (!head) return;
  const [m, xL, xH, yL, yH] = head as unknown as [number, number, number, number, number];
  const mode = m & 0x0f;
  if (m > 3 && (m < 48 || m > 51))
    r.warn(`GS v 0 mode ${m} is unknown: printed as mode ${mode & 3}`);
  const scaleX = mode & 1 ? 2 : 1;
  const scaleY = mode & 2 ? 2 : 1;
  const stride = xL + xH * 256;
  const declaredRows = yL + yH * 256;
  const data = r.data(stride * declaredRows);
  // Rows past the page's maximum height are never drawn: do not allocate them either.
  const fit = Math.ceil(printer.roomLeft / scaleY) + 1;
  const rows = stride === 0 ? 0 : Math.min(fit, Math.floor(data.length / stride));
  const width = stride * 8 * scaleX;
  const height = rows * scaleY;
  if (width === 0 || height === 0) return;
  if (width > printer.printArea().width) {
    r.warn(`GS v 0 image of ${width} dots is wider than the print area: cut at the right edge`);
  }
  const drawWidth = Math.min(width, printer.printArea().width);
  const bits = new Uint8Array(drawWidth * height);
  for (let row = 0; row < rows; row++) {
    for (let x = 0; x < drawWidth; x++) {
      const sx = Math.floor(x / scaleX);
      if (((data[row * stride + (sx >> 3)]! << (sx & 7)) & 0x80) === 0) continue;
      for (let sy = 0; sy < scaleY; sy++) bits[(row * scaleY + sy) * drawWidth + x] = 1;
    }
  }
  printer.printRaster(drawWidth, height, bits);
}

/**
 * GS ( L / GS 8 L function 112: stores a raster graphic in the print buffer (body: m fn a bx by
 * c xL xH yL yH d…; a = 48 monochrome, bx/by = 1 or 2 for double size, c = 49 or 50 the colour
 * plane, each OR-ed into the one black of a thermal printer).
 */
export function storeGraphics(r: ByteReader, printer: Printer, body: Uint8Array): void {
  if (body.length < 10) return r.warn(`${r.command} graphics data too short: skipped`);
  const [, , a, bx, by] = body as unknown as [number, number, number, number, number];
  if (a !== 48) r.warn(`${r.command} multi-tone graphics are drawn as monochrome`);
  const scaleX = bx === 2 ? 2 : 1;
  const scaleY = by === 2 ? 2 : 1;
  const w = body[6]! + body[7]! * 256;
  const h = body[8]! + body[9]! * 256;
  const data = body.subarray(10);
  const stride = Math.ceil(w / 8);
  const given = stride === 0 ? 0 : Math.min(h, Math.floor(data.length / stride));
  if (given < h) r.warn(`${r.command} graphics hold ${given} of ${h} rows`);
  const rows = Math.min(given, Math.ceil(printer.roomLeft / scaleY) + 1);
  const width = Math.min(w * scaleX, printer.paperWidth);
  const height = rows * scaleY;
  const previous = printer.storedGraphic;
  const same = previous && previous.width === width && previous.height === height;
  const bits = same ? previous.bits : new Uint8Array(width * height);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < width; x++) {
      const sx = Math.floor(x / scaleX);
      if (((data[y * stride + (sx >> 3)]! << (sx & 7)) & 0x80) === 0) continue;
      for (let sy = 0; sy < scaleY; sy++) bits[(y * scaleY + sy) * width + x] = 1;
    }
  }
  printer.storedGraphic = { width, height, bits };
}

/** GS ( L function 50: prints the stored graphic like a raster image, then forgets it. */
export function printStoredGraphics(r: ByteReader, printer: Printer): void {
  const graphic = printer.storedGraphic;
  if (!graphic) return r.warn(`${r.command} print with no stored graphics: nothing printed`);
  printer.storedGraphic = undefined;
  if (graphic.width > 0 && graphic.height > 0) {
    printer.printRaster(graphic.width, graphic.height, graphic.bits);
  }
}
