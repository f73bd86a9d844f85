/** Encoders of the blocks the printer draws: QR codes, barcodes and images. */
import { barcodeData, barcodeModules } from './barcode.js';
import type { EncodeContext } from './context.js';
import {
  crossedBox,
  decodeImage,
  placeBitmap,
  resizeGray,
  toBitmap,
  ImageDecodeError,
  type Bitmap,
} from './image.js';
import { qrModules } from './qr-capacity.js';
import { decodeBase64, imageSource, RECEIPT_LIMITS, type ReceiptBlock } from './schema.js';
import { wrapText } from './text-blocks.js';
import { InvalidBlockError } from './errors.js';

type Block<T extends ReceiptBlock['type']> = Extract<ReceiptBlock, { type: T }>;

/** Rows of one GS v 0 command: small enough for the receive buffer of cheap printers. */
export const RASTER_BAND_ROWS = 256;

/** Prints a value as plain text when the printer cannot draw its symbol. */
function fallbackText(ctx: EncodeContext, value: string, align: 'left' | 'center' | 'right'): void {
  const { out } = ctx;
  if (align !== 'left') out.align(align);
  for (const line of wrapText(ctx, value, ctx.page.charsA)) out.line(line);
  if (align !== 'left') out.align('left');
}

export function encodeQr(ctx: EncodeContext, b: Block<'qr'>, index: number): void {
  const { out } = ctx;
  if (!ctx.profile.qr) {
    ctx.warn(
      `blocks[${index}]: ${ctx.profile.name} cannot print QR codes; the value is printed as text`,
    );
    fallbackText(ctx, b.value, b.align);
    return;
  }
  const data = Buffer.from(b.value, 'utf8');
  const modules = qrModules(data.length, b.errorLevel) ?? 177;
  let size = b.size;
  if (modules * size > ctx.page.dots) {
    size = Math.max(1, Math.floor(ctx.page.dots / modules));
    ctx.warn(
      `blocks[${index}].size: a QR code of ${modules} modules at size ${b.size} is wider than ${ctx.page.dots} dots; printed at size ${size}`,
    );
  }
  if (b.align !== 'left') out.align(b.align);
  out.push({ op: 'qr', data, size, errorLevel: b.errorLevel });
  if (b.align !== 'left') out.align('left');
}

export function encodeBarcode(ctx: EncodeContext, b: Block<'barcode'>, index: number): void {
  const { out } = ctx;
  if (!ctx.profile.symbologies.includes(b.format)) {
    ctx.warn(
      `blocks[${index}]: ${ctx.profile.name} cannot print ${b.format} barcodes; the value is printed as text`,
    );
    fallbackText(ctx, b.value, b.align);
    return;
  }
  const data = barcodeData(b.format, b.value);
  const modules = barcodeModules(b.format, data);
  let width = b.width;
  if (modules * width > ctx.page.dots) {
    width = Math.floor(ctx.page.dots / modules);
    if (width < 1) {
      ctx.warn(
        `blocks[${index}]: the ${b.format} barcode is wider than ${ctx.page.dots} dots; the value is printed as text`,
      );
      fallbackText(ctx, b.value, b.align);
      return;
    }
    ctx.warn(
      `blocks[${index}].width: the ${b.format} barcode is wider than ${ctx.page.dots} dots at width ${b.width}; printed at width ${width}`,
    );
  }
  if (b.align !== 'left') out.align(b.align);
  out.push({
    op: 'barcode',
    format: b.format,
    value: b.value,
    data,
    height: b.height,
    width,
    hri: b.hri,
  });
  if (b.align !== 'left') out.align('left');
}

export function encodeImage(ctx: EncodeContext, b: Block<'image'>, index: number): void {
  const dots = ctx.page.dots;
  let width = b.width;
  if (width !== undefined && width > dots) {
    ctx.warn(
      `blocks[${index}].width: ${width} dots is wider than the ${ctx.page.paper} paper; printed ${dots} dots wide`,
    );
    width = dots;
  }
  const source = imageSource(b.src);
  let bytes: Uint8Array | undefined;
  if ('url' in source) {
    bytes = ctx.resolveImage?.(source.url);
    if (bytes === undefined) {
      ctx.warn(
        `blocks[${index}].src: image ${source.url} was not fetched; a crossed box stands in for it`,
      );
      writePlaceholder(ctx, width, b.align);
      return;
    }
  } else {
    bytes = decodeBase64(source.base64);
    if (bytes === undefined) throw new InvalidBlockError(`blocks[${index}].src`, 'must be base64');
  }
  let bitmap: Bitmap;
  try {
    const gray = decodeImage(bytes, RECEIPT_LIMITS.maxImagePixels);
    const w = width ?? Math.min(gray.width, dots);
    const h = Math.max(1, Math.round((gray.height * w) / gray.width));
    if (h > RECEIPT_LIMITS.maxImageHeight) {
      throw new ImageDecodeError(
        `is ${h} dots tall at ${w} dots wide; at most ${RECEIPT_LIMITS.maxImageHeight} dots are printed`,
      );
    }
    bitmap = toBitmap(resizeGray(gray, w, h), b.dithering);
  } catch (err) {
    if (!(err instanceof ImageDecodeError)) throw err;
    // A downloaded file that is not an image (an error page) should not lose the receipt;
    // inline data that does not decode is a mistake in the document.
    if (!('url' in source)) throw new InvalidBlockError(`blocks[${index}].src`, err.message);
    ctx.warn(
      `blocks[${index}].src: image ${source.url} ${err.message}; a crossed box stands in for it`,
    );
    writePlaceholder(ctx, width, b.align);
    return;
  }
  writeRaster(ctx, placeBitmap(bitmap, offsetFor(b.align, bitmap.width, dots)));
}

function writePlaceholder(
  ctx: EncodeContext,
  width: number | undefined,
  align: 'left' | 'center' | 'right',
): void {
  const size = width ?? Math.round(ctx.page.dots / 2);
  writeRaster(ctx, placeBitmap(crossedBox(size), offsetFor(align, size, ctx.page.dots)));
}

function offsetFor(align: 'left' | 'center' | 'right', width: number, dots: number): number {
  if (align === 'left' || width >= dots) return 0;
  return align === 'center' ? (dots - width) >> 1 : dots - width;
}

/** Bands of at most RASTER_BAND_ROWS rows. Alignment is in the bitmap (left padding). */
function writeRaster(ctx: EncodeContext, bitmap: Bitmap): void {
  for (let y = 0; y < bitmap.height; y += RASTER_BAND_ROWS) {
    const rows = Math.min(RASTER_BAND_ROWS, bitmap.height - y);
    const data = bitmap.data.subarray(y * bitmap.rowBytes, (y + rows) * bitmap.rowBytes);
    ctx.out.raster({ width: bitmap.width, height: rows, rowBytes: bitmap.rowBytes, data });
  }
}
