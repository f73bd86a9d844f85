/**
 * The receipt document (spec: "Receipt document"): a zod schema with every limit, and
 * `validateReceiptDocument`, whose issues name the block and field (`blocks[12].size: must be 1-8`).
 */
import { z } from 'zod';
import type { FieldIssue } from '../errors/index.js';
import { CODEPAGES, parseCodepageName } from '../codepage/index.js';
import { BARCODE_FORMATS } from '../printers/schema.js';
import { barcodeValueProblem, MAX_BARCODE_LENGTH } from './barcode.js';
import { qrMaxBytes, type QrErrorLevel } from './qr-capacity.js';
import { BLOCK_TYPES, issueMessage, toFieldIssue } from './issues.js';

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

function intIn(min: number, max: number) {
  const error = `must be ${min}-${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

const align = z.enum(['left', 'center', 'right']);

const textBlock = z.strictObject({
  type: z.literal('text'),
  value: z.string().max(L.maxTextLength),
  align: align.default('left'),
  bold: z.boolean().default(false),
  underline: z.boolean().default(false),
  size: intIn(L.minTextSize, L.maxTextSize).default(1),
  invert: z.boolean().default(false),
  font: z.enum(['a', 'b']).default('a'),
});

const lineBlock = z.strictObject({
  type: z.literal('line'),
  style: z.enum(['solid', 'dashed', 'double']).default('solid'),
});

const pairBlock = z.strictObject({
  type: z.literal('pair'),
  left: z.string().max(L.maxPairSideLength),
  right: z.string().max(L.maxPairSideLength),
  bold: z.boolean().default(false),
});

const tableBlock = z
  .strictObject({
    type: z.literal('table'),
    columns: z
      .array(
        z.strictObject({
          width: z
            .number({ error: 'must be a fraction of the line, more than 0 and at most 1' })
            .gt(0, { error: 'must be a fraction of the line, more than 0 and at most 1' })
            .max(1, { error: 'must be a fraction of the line, more than 0 and at most 1' }),
          align: align.default('left'),
        }),
      )
      .min(1)
      .max(L.maxTableColumns),
    rows: z.array(z.array(z.string().max(L.maxCellLength))).max(L.maxTableRows),
    bold: z.boolean().default(false),
  })
  .superRefine((t, ctx) => {
    const total = t.columns.reduce((sum, c) => sum + c.width, 0);
    if (total > 1 + 1e-9) {
      ctx.addIssue({
        code: 'custom',
        path: ['columns'],
        message: `widths add up to ${Math.round(total * 1000) / 1000}; they must add up to at most 1`,
      });
    }
    t.rows.forEach((row, r) => {
      if (row.length > t.columns.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['rows', r],
          message: `has ${row.length} cells but the table has ${t.columns.length} columns`,
        });
      }
    });
  });

const qrBlock = z
  .strictObject({
    type: z.literal('qr'),
    value: z.string().min(1),
    size: intIn(L.minQrSize, L.maxQrSize).default(6),
    errorLevel: z.enum(['L', 'M', 'Q', 'H']).default('M'),
    align: align.default('center'),
  })
  .superRefine((q, ctx) => {
    const bytes = Buffer.byteLength(q.value, 'utf8');
    const max = qrMaxBytes(q.errorLevel as QrErrorLevel);
    if (bytes > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `is ${bytes} bytes; a QR code at level ${q.errorLevel} holds at most ${max}`,
      });
    }
  });

const barcodeBlock = z
  .strictObject({
    type: z.literal('barcode'),
    format: z.enum(BARCODE_FORMATS),
    value: z.string(),
    height: intIn(L.minBarcodeHeight, L.maxBarcodeHeight).default(80),
    width: intIn(L.minBarcodeWidth, L.maxBarcodeWidth).default(3),
    hri: z.enum(['none', 'above', 'below', 'both']).default('below'),
    align: align.default('center'),
  })
  .superRefine((b, ctx) => {
    const problem = barcodeValueProblem(b.format, b.value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  });

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

const IMAGE_SRC_MESSAGE =
  'must be an https URL, base64 PNG or JPEG, or a data:image/png or data:image/jpeg base64 URL';
const MAX_BASE64_CHARS = Math.ceil(L.maxImageBytes / 3) * 4 + 4096;

const imageBlock = z
  .strictObject({
    type: z.literal('image'),
    src: z.string().min(1, { error: IMAGE_SRC_MESSAGE }),
    width: intIn(1, L.maxImageWidth).optional(),
    align: align.default('center'),
    dithering: z.enum(['floyd-steinberg', 'threshold']).default('floyd-steinberg'),
  })
  .superRefine((img, ctx) => {
    const problem = imageSrcProblem(img.src);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['src'], message: problem });
  });

function imageSrcProblem(src: string): string | undefined {
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

const feedBlock = z.strictObject({
  type: z.literal('feed'),
  lines: intIn(L.minFeedLines, L.maxFeedLines).default(1),
});

const cutBlock = z.strictObject({
  type: z.literal('cut'),
  mode: z.enum(['full', 'partial']).default('full'),
});

const drawerBlock = z.strictObject({
  type: z.literal('drawer'),
  pin: z.union([z.literal(2), z.literal(5)], { error: 'must be 2 or 5' }).default(2),
});

const MAX_RAW_CHARS = Math.ceil(L.maxRawBytes / 3) * 4 + 4096;

const rawBlock = z
  .strictObject({
    type: z.literal('raw'),
    data: z.string().max(MAX_RAW_CHARS, { error: `must be at most ${L.maxRawBytes} bytes` }),
  })
  .superRefine((r, ctx) => {
    const bytes = decodeBase64(r.data);
    if (bytes === undefined) {
      ctx.addIssue({ code: 'custom', path: ['data'], message: 'must be base64 printer bytes' });
    } else if (bytes.length > L.maxRawBytes) {
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: `must be at most ${L.maxRawBytes} bytes`,
      });
    }
  });

export { BLOCK_TYPES };

export const receiptBlockSchema = z.discriminatedUnion('type', [
  textBlock,
  lineBlock,
  pairBlock,
  tableBlock,
  qrBlock,
  barcodeBlock,
  imageBlock,
  feedBlock,
  cutBlock,
  drawerBlock,
  rawBlock,
]);

const codepageField = z.string().transform((name, ctx) => {
  const codepage = parseCodepageName(name);
  if (codepage === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be one of ${CODEPAGES.join(', ')}` });
    return z.NEVER;
  }
  return codepage;
});

export const receiptDocumentSchema = z.strictObject({
  width: z.enum(['58mm', '80mm']).optional(),
  codepage: codepageField.optional(),
  blocks: z
    .array(receiptBlockSchema)
    .max(L.maxBlocks, { error: `must have at most ${L.maxBlocks} blocks` }),
});

export type ReceiptDocument = z.output<typeof receiptDocumentSchema>;
export type ReceiptBlock = ReceiptDocument['blocks'][number];
export type ReceiptBlockType = ReceiptBlock['type'];
/** A document as written, before defaults apply. */
export type ReceiptDocumentInput = z.input<typeof receiptDocumentSchema>;

/**
 * Validates a receipt document. Each issue reads `path: rule`, with the path as a user writes it
 * (`blocks[12].size: must be 1-8`).
 */
export function validateReceiptDocument(
  input: unknown,
): { ok: true; document: ReceiptDocument } | { ok: false; issues: FieldIssue[] } {
  const result = receiptDocumentSchema.safeParse(input, { error: issueMessage });
  if (result.success) return { ok: true, document: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => toFieldIssue(issue, input)),
  };
}
