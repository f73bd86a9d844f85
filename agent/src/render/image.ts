import sharp from 'sharp';
import { PrintwireError } from '@printwire/shared/errors/index';
import { PAPER_DOTS } from '@printwire/shared/escpos/index';
import {
  firstChannel,
  IMAGE_LIMITS,
  isSupportedImage,
} from '@printwire/shared/documents/image-pages';
import { grayToBitmap, rasterJob, type GrayImage, type RasterOptions } from './raster.js';

export { IMAGE_LIMITS, isSupportedImage };

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
    return firstChannel(data, info);
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
