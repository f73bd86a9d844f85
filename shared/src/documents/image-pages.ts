/**
 * Pictures (PNG, JPEG) in grey with sharp (native libvips), turned by their EXIF orientation and
 * laid on white: the kinds an image job may carry, and the limits of decoding them.
 */
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { PrintwireError } from '../errors/index.js';
import type { GrayImage } from '../receipt/image.js';

/** Limits of image jobs. */
export const IMAGE_LIMITS = {
  /** Largest picture decoded (width × height), so that a small file cannot exhaust memory. */
  maxInputPixels: 50_000_000,
  /** Longest printed picture in dots (about 2.5 m at 203 dpi). */
  maxHeightDots: 20_000,
} as const;

/** The kinds of picture an image job may carry. */
export function isSupportedImage(bytes: Uint8Array): boolean {
  const b = bytes;
  const png = b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
  const jpeg = b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  return png || jpeg;
}

/** sharp's raw output (one or more channels) as one grey byte a pixel. */
export function firstChannel(data: Buffer, info: OutputInfo): GrayImage {
  const pixels =
    info.channels === 1
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : Uint8Array.from({ length: info.width * info.height }, (_, i) => data[i * info.channels]!);
  return { width: info.width, height: info.height, pixels };
}

/**
 * How far a picture is enlarged to fit `box`: EXIF orientations 5 to 8 turn it a quarter, so its
 * sides swap.
 */
function enlargement(meta: Metadata, box: { width: number; height: number }): number {
  const turned = (meta.orientation ?? 1) >= 5;
  const width = (turned ? meta.height : meta.width) ?? box.width;
  const height = (turned ? meta.width : meta.height) ?? box.height;
  return Math.min(box.width / width, box.height / height);
}

/**
 * A PNG or JPEG scaled to fit `box` whole, centred on white, in grey. A picture enlarged twice or
 * more (a small QR code or logo on a whole label) is scaled by nearest dot: a smooth filter would
 * blur its edges into ramps of grey wide enough to be dithered, and a barcode's edges then no
 * longer read.
 */
export async function imageOnLabel(
  bytes: Uint8Array,
  box: { width: number; height: number },
): Promise<GrayImage> {
  if (!isSupportedImage(bytes)) {
    throw new PrintwireError('INVALID_JOB', 'image content is not a PNG or JPEG');
  }
  try {
    const image = sharp(bytes, { limitInputPixels: IMAGE_LIMITS.maxInputPixels });
    const kernel = enlargement(await image.metadata(), box) >= 2 ? 'nearest' : 'lanczos3';
    const { data, info } = await image
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({
        width: box.width,
        height: box.height,
        fit: 'contain',
        background: '#ffffff',
        kernel,
      })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return firstChannel(data, info);
  } catch (error) {
    throw new PrintwireError(
      'INVALID_JOB',
      `the image cannot be decoded: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
