/**
 * The receipt document (spec: "Receipt document"): a zod schema with every limit, and
 * `validateReceiptDocument`, whose issues name the block and field (`blocks[12].size: must be 1-8`).
 */
import { z } from 'zod';
import type { FieldIssue } from '../errors/index.js';
import { CODEPAGES, parseCodepageName } from '../codepage/index.js';
import { BARCODE_FORMATS } from '../printers/schema.js';
import { barcodeValueProblem } from './barcode.js';
import { qrMaxBytes, type QrErrorLevel } from './qr-capacity.js';
import { BLOCK_TYPES, issueMessage, toFieldIssue } from './issues.js';
import {
  decodeBase64,
  IMAGE_SRC_MESSAGE,
  imageSrcProblem,
  MAX_RAW_CHARS,
  RECEIPT_LIMITS,
} from './limits.js';
import { validatePlainDocument } from './validate-fast.js';

export { decodeBase64, imageSource, RECEIPT_LIMITS } from './limits.js';

const L = RECEIPT_LIMITS;

function intIn(min: number, max: number) {
  const error = `must be ${min}-${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

const align = z.enum(['left', 'center', 'right']);

const textBlock = z.strictObject({
  type: z.literal('text'),
  value: z.string().max(L.maxTextLength),
  /** Unset: left, or right when the first strong character is right-to-left. */
  align: align.optional(),
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
 * (`blocks[12].size: must be 1-8`). A valid plain document (as JSON.parse makes them) is checked
 * by hand (validate-fast.ts, the same rules); anything else, and every issue, by the zod schema.
 */
export function validateReceiptDocument(
  input: unknown,
): { ok: true; document: ReceiptDocument } | { ok: false; issues: FieldIssue[] } {
  const fast = validatePlainDocument(input);
  if (fast !== undefined) return { ok: true, document: fast as ReceiptDocument };
  const result = receiptDocumentSchema.safeParse(input, { error: issueMessage });
  if (result.success) return { ok: true, document: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => toFieldIssue(issue, input)),
  };
}
