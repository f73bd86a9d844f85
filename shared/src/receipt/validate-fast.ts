/**
 * The receipt schema checked by hand, for documents that are valid (nearly all of them): about
 * ten times faster than the zod schema, which costs more than rendering a receipt template. It
 * only ever says yes or "ask zod": any document it does not accept, for whatever reason, goes
 * to the zod schema (schema.ts), which alone words the issues. What it accepts it must return
 * exactly as zod would (defaults filled in, the codepage's canonical name, keys in the schema's
 * order); validate-fast.test.ts compares the two on valid, invalid and random documents.
 */
import { parseCodepageName } from '../codepage/index.js';
import { BARCODE_FORMATS, type BarcodeFormat } from '../printers/schema.js';
import { barcodeValueProblem } from './barcode.js';
import { decodeBase64, imageSrcProblem, MAX_RAW_CHARS, RECEIPT_LIMITS as L } from './limits.js';
import { qrMaxBytes, type QrErrorLevel } from './qr-capacity.js';

type Plain = Record<string, unknown>;
type Block = Record<string, unknown>;

/** Thrown inside the fast check to hand the document to zod; never escapes this file. */
const ASK_ZOD = Symbol('ask zod');

function no(): never {
  throw ASK_ZOD;
}

/** A plain object (as JSON.parse makes them) whose keys are all in `known` and none undefined. */
function plain(v: unknown, known: ReadonlySet<string>): Plain {
  if (typeof v !== 'object' || v === null || Object.getPrototypeOf(v) !== Object.prototype) no();
  for (const key in v) {
    if (!known.has(key) || (v as Plain)[key] === undefined) no();
  }
  return v as Plain;
}

function list(v: unknown): unknown[] {
  if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype) no();
  return v;
}

/** `each` of every element, holes included (they are undefined, which no check accepts). */
function mapAll<T>(items: unknown[], each: (item: unknown) => T): T[] {
  const out = new Array<T>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = each(items[i]);
  return out;
}

function text(v: unknown, max: number): string {
  if (typeof v !== 'string' || v.length > max) no();
  return v;
}

function int(v: unknown, min: number, max: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) no();
  return v;
}

function bool(v: unknown): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') no();
  return v;
}

function oneOf<T extends string>(v: unknown, values: ReadonlySet<string>, fallback: T): T {
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !values.has(v)) no();
  return v as T;
}

const keys = (...names: string[]) => new Set(names);
const ALIGN = keys('left', 'center', 'right');
const COLUMN = keys('width', 'align');
const DOCUMENT = keys('width', 'codepage', 'blocks');

const LINE_STYLES = keys('solid', 'dashed', 'double');
const FONTS = keys('a', 'b');
const LEVELS = keys('L', 'M', 'Q', 'H');
const FORMATS = keys(...BARCODE_FORMATS);
const HRI = keys('none', 'above', 'below', 'both');
const DITHERING = keys('floyd-steinberg', 'threshold');
const CUT_MODES = keys('full', 'partial');
const WIDTHS = keys('58mm', '80mm');

function table(columnsIn: unknown, rowsIn: unknown, bold: unknown): Block {
  const columns = list(columnsIn);
  if (columns.length < 1 || columns.length > L.maxTableColumns) no();
  let total = 0;
  const cols = mapAll(columns, (c) => {
    const col = plain(c, COLUMN);
    const width = col.width;
    if (typeof width !== 'number' || !(width > 0) || width > 1) no();
    total += width;
    return { width, align: oneOf(col.align, ALIGN, 'left') };
  });
  if (total > 1 + 1e-9) no();
  const rows = list(rowsIn);
  if (rows.length > L.maxTableRows) no();
  return {
    type: 'table',
    columns: cols,
    rows: mapAll(rows, (row) => {
      const cells = list(row);
      if (cells.length > cols.length) no();
      return mapAll(cells, (cell) => text(cell, L.maxCellLength));
    }),
    bold: bool(bold),
  };
}

function qr(valueIn: unknown, size: unknown, level: unknown, align: unknown): Block {
  const value = text(valueIn, Infinity);
  if (value.length === 0) no();
  const errorLevel = oneOf<QrErrorLevel>(level, LEVELS, 'M');
  // Each UTF-16 unit is at most 3 UTF-8 bytes: count the bytes only when that could be too many.
  const max = qrMaxBytes(errorLevel);
  if (value.length * 3 > max && Buffer.byteLength(value, 'utf8') > max) no();
  return {
    type: 'qr',
    value,
    size: int(size, L.minQrSize, L.maxQrSize, 6),
    errorLevel,
    align: oneOf(align, ALIGN, 'center'),
  };
}

function barcode(
  format: unknown,
  valueIn: unknown,
  height: unknown,
  width: unknown,
  hri: unknown,
  align: unknown,
): Block {
  if (typeof format !== 'string' || !FORMATS.has(format)) no();
  const value = text(valueIn, Infinity);
  const block = {
    type: 'barcode',
    format,
    value,
    height: int(height, L.minBarcodeHeight, L.maxBarcodeHeight, 80),
    width: int(width, L.minBarcodeWidth, L.maxBarcodeWidth, 3),
    hri: oneOf(hri, HRI, 'below'),
    align: oneOf(align, ALIGN, 'center'),
  };
  if (barcodeValueProblem(format as BarcodeFormat, value) !== undefined) no();
  return block;
}

function image(srcIn: unknown, width: unknown, align: unknown, dithering: unknown): Block {
  const src = text(srcIn, Infinity);
  if (src.length === 0) no();
  const block: Block = { type: 'image', src };
  if (width !== undefined) block.width = int(width, 1, L.maxImageWidth, 0);
  block.align = oneOf(align, ALIGN, 'center');
  block.dithering = oneOf(dithering, DITHERING, 'floyd-steinberg');
  if (imageSrcProblem(src) !== undefined) no();
  return block;
}

function raw(dataIn: unknown): Block {
  const data = text(dataIn, MAX_RAW_CHARS);
  const bytes = decodeBase64(data);
  if (bytes === undefined || bytes.length > L.maxRawBytes) no();
  return { type: 'raw', data };
}

function drawer(pinIn: unknown): Block {
  const pin = pinIn ?? 2;
  if (pin !== 2 && pin !== 5) no();
  return { type: 'drawer', pin };
}

/**
 * How each block type is checked: its fields besides `type`, and the block made from their
 * values given as an object's properties (`fromObject`) or in the order of `fields`
 * (`fromList`, for a receipt template that builds its blocks, receipt-build.ts). Both throw
 * ASK_ZOD for anything they do not accept.
 */
interface BlockRule {
  readonly fields: readonly string[];
  readonly known: ReadonlySet<string>;
  readonly fromObject: (b: Plain) => Block;
  readonly fromList: (f: ArrayLike<unknown>) => Block;
}

function rule(
  fields: string[],
  fromObject: (b: Plain) => Block,
  fromList: (f: ArrayLike<unknown>) => Block,
): BlockRule {
  return { fields, known: keys('type', ...fields), fromObject, fromList };
}

const textBlock = (
  value: unknown,
  align: unknown,
  bold: unknown,
  underline: unknown,
  size: unknown,
  invert: unknown,
  font: unknown,
): Block => ({
  type: 'text',
  value: text(value, L.maxTextLength),
  ...(align === undefined ? {} : { align: oneOf(align, ALIGN, 'left') }),
  bold: bool(bold),
  underline: bool(underline),
  size: int(size, L.minTextSize, L.maxTextSize, 1),
  invert: bool(invert),
  font: oneOf(font, FONTS, 'a'),
});

const pairBlock = (left: unknown, right: unknown, bold: unknown): Block => ({
  type: 'pair',
  left: text(left, L.maxPairSideLength),
  right: text(right, L.maxPairSideLength),
  bold: bool(bold),
});

const RULES = new Map<string, BlockRule>([
  [
    'text',
    rule(
      ['value', 'align', 'bold', 'underline', 'size', 'invert', 'font'],
      (b) => textBlock(b.value, b.align, b.bold, b.underline, b.size, b.invert, b.font),
      (f) => textBlock(f[0], f[1], f[2], f[3], f[4], f[5], f[6]),
    ),
  ],
  [
    'line',
    rule(
      ['style'],
      (b) => ({ type: 'line', style: oneOf(b.style, LINE_STYLES, 'solid') }),
      (f) => ({ type: 'line', style: oneOf(f[0], LINE_STYLES, 'solid') }),
    ),
  ],
  [
    'pair',
    rule(
      ['left', 'right', 'bold'],
      (b) => pairBlock(b.left, b.right, b.bold),
      (f) => pairBlock(f[0], f[1], f[2]),
    ),
  ],
  [
    'table',
    rule(
      ['columns', 'rows', 'bold'],
      (b) => table(b.columns, b.rows, b.bold),
      (f) => table(f[0], f[1], f[2]),
    ),
  ],
  [
    'qr',
    rule(
      ['value', 'size', 'errorLevel', 'align'],
      (b) => qr(b.value, b.size, b.errorLevel, b.align),
      (f) => qr(f[0], f[1], f[2], f[3]),
    ),
  ],
  [
    'barcode',
    rule(
      ['format', 'value', 'height', 'width', 'hri', 'align'],
      (b) => barcode(b.format, b.value, b.height, b.width, b.hri, b.align),
      (f) => barcode(f[0], f[1], f[2], f[3], f[4], f[5]),
    ),
  ],
  [
    'image',
    rule(
      ['src', 'width', 'align', 'dithering'],
      (b) => image(b.src, b.width, b.align, b.dithering),
      (f) => image(f[0], f[1], f[2], f[3]),
    ),
  ],
  [
    'feed',
    rule(
      ['lines'],
      (b) => ({ type: 'feed', lines: int(b.lines, L.minFeedLines, L.maxFeedLines, 1) }),
      (f) => ({ type: 'feed', lines: int(f[0], L.minFeedLines, L.maxFeedLines, 1) }),
    ),
  ],
  [
    'cut',
    rule(
      ['mode'],
      (b) => ({ type: 'cut', mode: oneOf(b.mode, CUT_MODES, 'full') }),
      (f) => ({ type: 'cut', mode: oneOf(f[0], CUT_MODES, 'full') }),
    ),
  ],
  [
    'drawer',
    rule(
      ['pin'],
      (b) => drawer(b.pin),
      (f) => drawer(f[0]),
    ),
  ],
  [
    'raw',
    rule(
      ['data'],
      (b) => raw(b.data),
      (f) => raw(f[0]),
    ),
  ],
]);

function block(v: unknown): Block {
  const type = typeof v === 'object' && v !== null ? (v as Plain).type : undefined;
  const r = typeof type === 'string' ? RULES.get(type) : undefined;
  if (r === undefined) no();
  return r.fromObject(plain(v, r.known));
}

/** How a receipt template checks a block whose keys it writes itself (receipt-build.ts). */
export interface BlockFields {
  /** The fields a block of this type may have besides `type`, in the order `make` reads them. */
  readonly fields: readonly string[];
  /**
   * The block whose fields have `values` (in the order of `fields`; undefined for a field not
   * written), with defaults filled in as zod returns it. Throws what `refusedByFastCheck`
   * recognises when zod must decide.
   */
  readonly make: (values: ArrayLike<unknown>) => Plain;
}

/** The fields and check of blocks of `type`, or undefined when no block has that type. */
export function blockFields(type: string): BlockFields | undefined {
  const r = RULES.get(type);
  return r === undefined ? undefined : { fields: r.fields, make: r.fromList };
}

/** Whether `error` is BlockFields.make's refusal: zod must decide (validateReceiptDocument). */
export function refusedByFastCheck(error: unknown): boolean {
  return error === ASK_ZOD;
}

/**
 * The receipt document `input` is, with defaults filled in as the zod schema returns it, or
 * undefined when the zod schema must decide (an invalid document, or anything unusual).
 */
export function validatePlainDocument(
  input: unknown,
  /**
   * Blocks already checked by `blockFields` (as a receipt template builds them), in the order
   * they come in the document: taken as they are, not checked again. Only for a document made
   * for this call: when every block is one of them, its list of blocks is kept as it is.
   */
  checked?: readonly unknown[],
): Plain | undefined {
  try {
    const doc = plain(input, DOCUMENT);
    const out: Plain = {};
    if (doc.width !== undefined) out.width = oneOf(doc.width, WIDTHS, '80mm');
    if (doc.codepage !== undefined) {
      if (typeof doc.codepage !== 'string') no();
      out.codepage = parseCodepageName(doc.codepage) ?? no();
    }
    const blocks = list(doc.blocks);
    if (blocks.length > L.maxBlocks) no();
    let next = 0;
    if (checked !== undefined) {
      const n = Math.min(blocks.length, checked.length);
      while (next < n && blocks[next] === checked[next]) next++;
    }
    if (checked !== undefined && next === blocks.length) {
      out.blocks = blocks; // every block checked already, in a list the builder made
    } else if (checked === undefined || checked.length === 0) {
      out.blocks = mapAll(blocks, block);
    } else {
      next = 0;
      out.blocks = mapAll(blocks, (b) => {
        if (b !== checked![next]) return block(b);
        next++;
        return b as Block;
      });
    }
    return out;
  } catch (error) {
    if (error === ASK_ZOD) return undefined;
    throw error;
  }
}
