import sharp from 'sharp';
import { PrintwireError } from '@printwire/shared/errors/index';
import { PAPER_DOTS } from '@printwire/shared/escpos/index';
import { grayToBitmap, rasterJob, type GrayImage, type RasterOptions } from './raster.js';

/** Limits of image jobs. */
export const IMAGE_LIMITS = {
  /** Largest picture decoded (width × height), so that a small file cannot exhaust memory. */
  maxInputPixels: 50_000_000,
  /** Longest printed picture in dots (about 2.5 m at 203 dpi). */
  maxHeightDots: 20_000,
} as const;

export interface ThermalImageOptions extends RasterOptions {
  paper: '58mm' | '80mm';
  /** Printable dots per line; default the paper's (384 or 576). */
  dots?: number;
  copies?: number;
  /** Default `IMAGE_LIMITS.maxInputPixels`. */
  maxInputPixels?: number;
  /** Default `IMAGE_LIMITS.maxHeightDots`. */
  maxHeightDots?: number;
}

/** The kinds of picture an image job may carry. */
export function isSupportedImage(bytes: Uint8Array): boolean {
  const b = bytes;
  const png = b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
  const jpeg = b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  return png || jpeg;
}

/**
 * A PNG or JPEG as grayscale `dots` wide at most (wider pictures are scaled down, narrower ones
 * kept at their size, 1 pixel a dot), turned by its EXIF orientation and laid on white paper.
 */
export async function imageToGray(
  bytes: Uint8Array,
  dots: number,
  limits: { maxInputPixels?: number; maxHeightDots?: number } = {},
): Promise<GrayImage> {
  if (!isSupportedImage(bytes)) {
    throw new PrintwireError('INVALID_JOB', 'image content is not a PNG or JPEG');
  }
  const maxHeight = limits.maxHeightDots ?? IMAGE_LIMITS.maxHeightDots;
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: limits.maxInputPixels ?? IMAGE_LIMITS.maxInputPixels,
    })
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: dots, withoutEnlargement: true, kernel: 'lanczos3' })
      .grayscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.height > maxHeight) {
      throw new PrintwireError(
        'INVALID_JOB',
        `the image is ${info.height} dots long at this paper width; at most ${maxHeight} are printed`,
      );
    }
    // grayscale() still yields one channel per pixel only after flatten; take the first.
    const pixels =
      info.channels === 1
        ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
        : Uint8Array.from({ length: info.width * info.height }, (_, i) => data[i * info.channels]!);
    return { width: info.width, height: info.height, pixels };
  } catch (error) {
    if (error instanceof PrintwireError) throw error;
    throw new PrintwireError(
      'INVALID_JOB',
      `the image cannot be decoded: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * An image job for a thermal printer: the picture scaled to the paper, dithered like the
 * receipt engine's images, printed as ESC/POS raster, then fed and cut. For system printers the
 * image goes to the spooler as it is.
 */
export async function renderImageForThermal(
  bytes: Uint8Array,
  options: ThermalImageOptions,
): Promise<Uint8Array> {
  const dots = options.dots ?? PAPER_DOTS[options.paper];
  const gray = await imageToGray(bytes, dots, options);
  return rasterJob([grayToBitmap(gray, dots, options.dithering)], options);
}
