/**
 * A page or picture made into the 1-bit picture of a whole label: laid centred on white label
 * stock, then made black and white, dithered only where it has grey (photos, tints) so that text,
 * lines and barcodes keep sharp edges. Pure.
 */
import type { Bitmap, GrayImage } from '../receipt/image.js';

export type { Bitmap, GrayImage };

/** Side of the square tiles judged grey or not: 8 dots (a shift of 3). */
const TILE_SHIFT = 3;
const TILE = 1 << TILE_SHIFT;
/** A dot this far from black and white is grey (light tints included). */
const GREY_LOW = 24;
const GREY_HIGH = 239;
/**
 * A tile is dithered when at least half of its dots are grey: a photo or a tint is grey nearly
 * everywhere, the smoothed edges of text and bars only in a thin line.
 */
const GREY_SHARE = 0.5;

/**
 * `image` centred on a white `width` × `height` label. A picture larger than the label is cut
 * evenly on both sides (callers scale pages to fit first, so nothing is lost).
 */
export function centreOnLabel(image: GrayImage, width: number, height: number): GrayImage {
  const pixels = new Uint8Array(width * height).fill(255);
  const left = (width - image.width) >> 1;
  const top = (height - image.height) >> 1;
  for (let y = 0; y < image.height; y++) {
    const ly = top + y;
    if (ly < 0 || ly >= height) continue;
    const from = Math.max(0, -left);
    const to = Math.min(image.width, width - left);
    if (to <= from) continue;
    pixels.set(
      image.pixels.subarray(y * image.width + from, y * image.width + to),
      ly * width + left + from,
    );
  }
  return { width, height, pixels };
}

/** Which tiles of `image` are grey enough to dither (one flag per tile, rows of tiles). */
function greyTiles(image: GrayImage): { columns: number; grey: Uint8Array } {
  const { width, height, pixels } = image;
  const columns = Math.ceil(width / TILE);
  const rows = Math.ceil(height / TILE);
  const counts = new Uint16Array(columns * rows);
  for (let y = 0; y < height; y++) {
    const row = (y >> TILE_SHIFT) * columns;
    const start = y * width;
    for (let x = 0; x < width; x++) {
      const v = pixels[start + x]!;
      if (v >= GREY_LOW && v <= GREY_HIGH) counts[row + (x >> TILE_SHIFT)]!++;
    }
  }
  const grey = new Uint8Array(columns * rows);
  for (let t = 0; t < grey.length; t++) {
    const tx = t % columns;
    const ty = (t / columns) | 0;
    const area = (Math.min(TILE, width - tx * TILE) * Math.min(TILE, height - ty * TILE)) | 0;
    grey[t] = counts[t]! >= area * GREY_SHARE ? 1 : 0;
  }
  return { columns, grey };
}

/**
 * The 1-bit picture of `image` (1 = black): Floyd–Steinberg error diffusion inside the grey
 * tiles, a threshold at mid-grey elsewhere (no error crosses into a sharp tile, so a barcode
 * beside a photo keeps its bar widths).
 */
export function labelBitmap(image: GrayImage): Bitmap {
  const { width, height, pixels } = image;
  const rowBytes = (width + 7) >> 3;
  const data = new Uint8Array(rowBytes * height);
  const { columns, grey } = greyTiles(image);
  const dithered = (x: number, y: number): boolean =>
    grey[(y >> TILE_SHIFT) * columns + (x >> TILE_SHIFT)] === 1;
  // Error carried to the next row only: two rows of floats, not the whole page.
  let current = new Float32Array(width + 2);
  let next = new Float32Array(width + 2);
  for (let y = 0; y < height; y++) {
    const start = y * width;
    const out = y * rowBytes;
    const tileRow = (y >> TILE_SHIFT) * columns;
    const sharpRow = !grey.subarray(tileRow, tileRow + columns).includes(1);
    for (let x = 0; x < width; x++) {
      const v = pixels[start + x]!;
      if (sharpRow || grey[tileRow + (x >> TILE_SHIFT)] !== 1) {
        if (v < 128) data[out + (x >> 3)]! |= 0x80 >> (x & 7);
        continue;
      }
      const level = v + current[x + 1]!;
      const black = level < 128;
      if (black) data[out + (x >> 3)]! |= 0x80 >> (x & 7);
      const e = level - (black ? 0 : 255);
      if (x + 1 < width && dithered(x + 1, y)) current[x + 2]! += (e * 7) / 16;
      if (y + 1 < height) {
        if (x > 0 && dithered(x - 1, y + 1)) next[x]! += (e * 3) / 16;
        if (dithered(x, y + 1)) next[x + 1]! += (e * 5) / 16;
        if (x + 1 < width && dithered(x + 1, y + 1)) next[x + 2]! += e / 16;
      }
    }
    [current, next] = [next, current];
    next.fill(0);
  }
  return { width, height, rowBytes, data };
}
