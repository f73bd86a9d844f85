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
const TEXT = keys('type', 'value', 'align', 'bold', 'underline', 'size', 'invert', 'font');
const LINE = keys('type', 'style');
const PAIR = keys('type', 'left', 'right', 'bold');
const TABLE = keys('type', 'columns', 'rows', 'bold');
const COLUMN = keys('width', 'align');
const QR = keys('type', 'value', 'size', 'errorLevel', 'align');
const BARCODE = keys('type', 'format', 'value', 'height', 'width', 'hri', 'align');
const IMAGE = keys('type', 'src', 'width', 'align', 'dithering');
const FEED = keys('type', 'lines');
const CUT = keys('type', 'mode');
const DRAWER = keys('type', 'pin');
const RAW = keys('type', 'data');
const DOCUMENT = keys('width', 'codepage', 'blocks');

const LINE_STYLES = keys('solid', 'dashed', 'double');
const FONTS = keys('a', 'b');
const LEVELS = keys('L', 'M', 'Q', 'H');
const FORMATS = keys(...BARCODE_FORMATS);
const HRI = keys('none', 'above', 'below', 'both');
const DITHERING = keys('floyd-steinberg', 'threshold');
const CUT_MODES = keys('full', 'partial');
const WIDTHS = keys('58mm', '80mm');

function table(b: Plain): Block {
  const columns = list(b.columns);
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
  const rows = list(b.rows);
  if (rows.length > L.maxTableRows) no();
  return {
    type: 'table',
    columns: cols,
    rows: mapAll(rows, (row) => {
      const cells = list(row);
      if (cells.length > cols.length) no();
      return mapAll(cells, (cell) => text(cell, L.maxCellLength));
    }),
    bold: bool(b.bold),
  };
}

function qr(b: Plain): Block {
  const value = text(b.value, Infinity);
  if (value.length === 0) no();
  const size = int(b.size, L.minQrSize, L.maxQrSize, 6);
  const errorLevel = oneOf<QrErrorLevel>(b.errorLevel, LEVELS, 'M');
  // Each UTF-16 unit is at most 3 UTF-8 bytes: count the bytes only when that could be too many.
  const max = qrMaxBytes(errorLevel);
  if (value.length * 3 > max && Buffer.byteLength(value, 'utf8') > max) no();
  return { type: 'qr', value, size, errorLevel, align: oneOf(b.align, ALIGN, 'center') };
}

function barcode(b: Plain): Block {
  const format = b.format;
  if (typeof format !== 'string' || !FORMATS.has(format)) no();
  const value = text(b.value, Infinity);
  const block = {
    type: 'barcode',
    format,
    value,
    height: int(b.height, L.minBarcodeHeight, L.maxBarcodeHeight, 80),
    width: int(b.width, L.minBarcodeWidth, L.maxBarcodeWidth, 3),
    hri: oneOf(b.hri, HRI, 'below'),
    align: oneOf(b.align, ALIGN, 'center'),
  };
  if (barcodeValueProblem(format as BarcodeFormat, value) !== undefined) no();
  return block;
}

function image(b: Plain): Block {
  const src = text(b.src, Infinity);
  if (src.length === 0) no();
  const block: Block = { type: 'image', src };
  if (b.width !== undefined) block.width = int(b.width, 1, L.maxImageWidth, 0);
  block.align = oneOf(b.align, ALIGN, 'center');
  block.dithering = oneOf(b.dithering, DITHERING, 'floyd-steinberg');
  if (imageSrcProblem(src) !== undefined) no();
  return block;
}

function raw(b: Plain): Block {
  const data = text(b.data, MAX_RAW_CHARS);
  const bytes = decodeBase64(data);
  if (bytes === undefined || bytes.length > L.maxRawBytes) no();
  return { type: 'raw', data };
}

function block(v: unknown): Block {
  const type =
    typeof v === 'object' && v !== null ? (v as Plain).type : (undefined as unknown as string);
  switch (type) {
    case 'text': {
      const b = plain(v, TEXT);
      return {
        type,
        value: text(b.value, L.maxTextLength),
        align: oneOf(b.align, ALIGN, 'left'),
        bold: bool(b.bold),
        underline: bool(b.underline),
        size: int(b.size, L.minTextSize, L.maxTextSize, 1),
        invert: bool(b.invert),
        font: oneOf(b.font, FONTS, 'a'),
      };
    }
    case 'line':
      return { type, style: oneOf(plain(v, LINE).style, LINE_STYLES, 'solid') };
    case 'pair': {
      const b = plain(v, PAIR);
      return {
        type,
        left: text(b.left, L.maxPairSideLength),
        right: text(b.right, L.maxPairSideLength),
        bold: bool(b.bold),
      };
    }
    case 'table':
      return table(plain(v, TABLE));
    case 'qr':
      return qr(plain(v, QR));
    case 'barcode':
      return barcode(plain(v, BARCODE));
    case 'image':
      return image(plain(v, IMAGE));
    case 'feed':
      return { type, lines: int(plain(v, FEED).lines, L.minFeedLines, L.maxFeedLines, 1) };
    case 'cut':
      return { type, mode: oneOf(plain(v, CUT).mode, CUT_MODES, 'full') };
    case 'drawer': {
      const pin = plain(v, DRAWER).pin ?? 2;
      if (pin !== 2 && pin !== 5) no();
      return { type, pin };
    }
    case 'raw':
      return raw(plain(v, RAW));
    default:
      return no();
  }
}

/**
 * The receipt document `input` is, with defaults filled in as the zod schema returns it, or
 * undefined when the zod schema must decide (an invalid document, or anything unusual).
 */
export function validatePlainDocument(input: unknown): Plain | undefined {
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
    out.blocks = mapAll(blocks, block);
    return out;
  } catch (error) {
    if (error === ASK_ZOD) return undefined;
    throw error;
  }
}
