/**
 * Pictures for thermal printers: 8-bit grayscale → 1 bit with the receipt engine's dithering →
 * ESC/POS `GS v 0` raster in bands, as the receipt engine prints images. Pure.
 */
import {
  cut,
  feedLines,
  initialize,
  placeBitmap,
  rasterHeader,
  RASTER_BAND_ROWS,
  toBitmap,
  type Bitmap,
  type GrayImage,
} from '@printwire/shared/receipt/index';

export type { Bitmap, GrayImage };

/** How a picture is turned into dots. */
export interface RasterOptions {
  /** `floyd-steinberg` for photos and scans (default), `threshold` for line art and text. */
  dithering?: 'floyd-steinberg' | 'threshold';
  /** Cut after the picture (default `full`); `none` leaves the paper uncut. */
  cut?: 'full' | 'partial' | 'none';
}

/** Lines fed after the last picture so that it clears the cutter. */
const FEED_BEFORE_CUT = 4;

/** The 1-bit picture of a grayscale one, centred on a line of `lineDots`. */
export function grayToBitmap(
  image: GrayImage,
  lineDots: number,
  dithering: RasterOptions['dithering'] = 'floyd-steinberg',
): Bitmap {
  const bitmap = toBitmap(image, dithering);
  return placeBitmap(bitmap, Math.max(0, (lineDots - bitmap.width) >> 1));
}

/** `GS v 0` commands for a bitmap, in bands the cheapest printers' buffers take. */
export function bitmapRaster(bitmap: Bitmap): Buffer {
  const parts: Uint8Array[] = [];
  for (let y = 0; y < bitmap.height; y += RASTER_BAND_ROWS) {
    const rows = Math.min(RASTER_BAND_ROWS, bitmap.height - y);
    parts.push(Uint8Array.from(rasterHeader(bitmap.rowBytes, rows)));
    parts.push(bitmap.data.subarray(y * bitmap.rowBytes, (y + rows) * bitmap.rowBytes));
  }
  return Buffer.concat(parts);
}

/**
 * A print job of pictures (images, PDF pages): reset, each picture, then the feed and cut.
 * `copies` repeats the whole job.
 */
export function rasterJob(
  bitmaps: readonly Bitmap[],
  options: RasterOptions & { copies?: number } = {},
): Uint8Array {
  const mode = options.cut ?? 'full';
  const tail = mode === 'none' ? [] : [...feedLines(FEED_BEFORE_CUT), ...cut(mode)];
  const one = Buffer.concat([
    Uint8Array.from(initialize()),
    ...bitmaps.map(bitmapRaster),
    Uint8Array.from(tail),
  ]);
  const copies = Math.max(1, options.copies ?? 1);
  return copies === 1 ? one : Buffer.concat(Array.from({ length: copies }, () => one));
}
