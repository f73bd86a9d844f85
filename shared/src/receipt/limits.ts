/**
 * The limits of a receipt document and the checks of its image and raw data, shared by the zod
 * schema (schema.ts) and its fast twin (validate-fast.ts).
 */
import { MAX_BARCODE_LENGTH } from './barcode.js';
import { qrMaxBytes } from './qr-capacity.js';

/** Every limit of a receipt document. */
export const RECEIPT_LIMITS = {
  /** Spec "Limits": at most 2000 blocks. */
  maxBlocks: 2000,
  /** Characters of a text block's value. */
  maxTextLength: 4096,
  minTextSize: 1,
  maxTextSize: 8,
  /** Characters of each side of a pair. */
  maxPairSideLength: 512,
  maxTableColumns: 16,
  maxTableRows: 500,
  maxCellLength: 1024,
  minQrSize: 1,
  maxQrSize: 16,
  /** QR data is UTF-8; version 40 holds at most this many bytes at each error level. */
  maxQrBytes: { L: qrMaxBytes('L'), M: qrMaxBytes('M'), Q: qrMaxBytes('Q'), H: qrMaxBytes('H') },
  maxBarcodeLength: MAX_BARCODE_LENGTH,
  minBarcodeHeight: 1,
  maxBarcodeHeight: 255,
  minBarcodeWidth: 1,
  maxBarcodeWidth: 6,
  /** Image width in dots: at most the 80 mm paper's 576 (clamped to narrower paper). */
  maxImageWidth: 576,
  /** Bytes of an inline image once base64-decoded (the agent's download limit, 2 MB). */
  maxImageBytes: 2 * 1024 * 1024,
  /** Pixels of the source image (width × height) decoded at most. */
  maxImagePixels: 4096 * 4096,
  /** Rows of the printed image, after resizing to its width in dots. */
  maxImageHeight: 4096,
  maxUrlLength: 2048,
  minFeedLines: 1,
  maxFeedLines: 255,
  /** Bytes of a raw block once base64-decoded. */
  maxRawBytes: 1024 * 1024,
} as const;

const L = RECEIPT_LIMITS;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL = /^data:image\/(png|jpeg|jpg);base64,/i;

/** Decodes strict base64 (whitespace allowed), or returns undefined when it is not base64. */
export function decodeBase64(text: string): Buffer | undefined {
  const compact = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) return undefined;
  return Buffer.from(compact, 'base64');
}

/** Where an image comes from: a URL for the resolver, or the inline base64 text. */
export function imageSource(src: string): { url: string } | { base64: string } {
  if (/^https?:\/\//i.test(src)) return { url: src };
  const m = DATA_URL.exec(src);
  return { base64: m === null ? src : src.slice(m[0].length) };
}

export const IMAGE_SRC_MESSAGE =
  'must be an https URL, base64 PNG or JPEG, or a data:image/png or data:image/jpeg base64 URL';
const MAX_BASE64_CHARS = Math.ceil(L.maxImageBytes / 3) * 4 + 4096;

/** Why `src` cannot be an image block's source, or undefined when it can. */
export function imageSrcProblem(src: string): string | undefined {
  const source = imageSource(src);
  if ('url' in source) {
    if (src.length > L.maxUrlLength) return `URL must be at most ${L.maxUrlLength} characters`;
    try {
      new URL(src);
    } catch {
      return IMAGE_SRC_MESSAGE;
    }
    return undefined;
  }
  if (source.base64.length > MAX_BASE64_CHARS) {
    return `image must be at most ${L.maxImageBytes} bytes`;
  }
  const bytes = decodeBase64(source.base64);
  if (bytes === undefined) return IMAGE_SRC_MESSAGE;
  if (bytes.length > L.maxImageBytes) return `image must be at most ${L.maxImageBytes} bytes`;
  const png = bytes.length > 8 && bytes.readUInt32BE(0) === 0x89504e47;
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  return png || jpeg ? undefined : 'is not a PNG or JPEG image';
}

/** Longest base64 text of a raw block's data that can decode to at most `maxRawBytes`. */
export const MAX_RAW_CHARS = Math.ceil(L.maxRawBytes / 3) * 4 + 4096;
