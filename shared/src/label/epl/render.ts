/**
 * EPL2 as a state machine over its lines: N clears the image buffer, q and Q set the label's
 * width and length, A B b LO LE LW X GW draw, I picks the code page, and P prints the buffer
 * (p1 sets of p2 copies, each one label). GW's data is raw bytes (a 0 bit prints black, as EPL2
 * has it), read by count, so it may hold line breaks. Variables, counters, stored forms and `?`
 * data lines: forms.ts.
 */
import iconv from 'iconv-lite';
import { Bitmap, rotatePoint, TooLargeError, type Orientation } from '../bitmap.js';
import {
  BarcodeDataError,
  drawLinear,
  drawMatrixSymbol,
  drawMaxicode,
  drawQr,
} from '../barcodes.js';
import { drawCellFont, type CellFont } from '../fonts.js';
import { gs1CheckDigit, withInterpretation } from '../interpretation.js';
import { drawBox } from '../shapes.js';
import { bitmapFromRows } from '../zpl/graphics.js';
import {
  dataOrder,
  defineVariable,
  resolveData,
  variableKey,
  type EplFieldValues,
  type EplVariable,
} from './forms.js';

export interface EplCommand {
  name: string;
  args: string[];
  /** GW's raw bytes. */
  bytes?: string;
  /** The line after the name, as written (for data fields that refer to variables). */
  rest?: string;
  /** The whole line, as written (a `?` data line). */
  line?: string;
}

export interface EplLabel {
  commands: EplCommand[];
  width?: number;
  length?: number;
  /** Variables and counters (V, C) with the `?` data they were given, and the set printed. */
  fields?: EplFieldValues;
}

export interface EplPlan {
  labelCount: number;
  labelAt(index: number): EplLabel;
}

/** Splits an EPL line's parameters on commas outside quotes; quoted strings keep their escapes undone. */
function splitArgs(text: string): string[] {
  const args: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '\\' && i + 1 < text.length) cur += text[++i];
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      args.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  args.push(quoted ? cur : cur.trim());
  return args;
}

const TWO_LETTER = new Set([
  'LO',
  'LE',
  'LW',
  'GW',
  'GG',
  'GK',
  'GI',
  'GM',
  'ZT',
  'ZB',
  'JF',
  'JB',
  'OD',
  'EI',
  'ES',
  'FK',
  'FE',
  'FI',
  'FR',
  'FS',
  'US',
  'UN',
  'UP',
  'UI',
  'UB',
  'UQ',
  'UA',
]);

export function parseEpl(content: string): EplCommand[] {
  const commands: EplCommand[] = [];
  let i = 0;
  while (i < content.length) {
    while (i < content.length && (content[i] === '\r' || content[i] === '\n')) i++;
    if (i >= content.length) break;
    const start = i;
    const two = content.slice(i, i + 2).toUpperCase();
    const name = TWO_LETTER.has(two)
      ? two
      : content[i]!.toUpperCase() === content[i]
        ? content[i]!
        : content[i]!;
    i += name.length;
    if (name === 'GW') {
      const m = /^(\d+),(\d+),(\d+),(\d+),/.exec(content.slice(i, i + 40));
      if (m) {
        const count = Number(m[3]) * Number(m[4]);
        const start = i + m[0].length;
        commands.push({ name, args: m.slice(1, 5), bytes: content.slice(start, start + count) });
        i = start + count;
        continue;
      }
    }
    let end = content.indexOf('\n', i);
    if (end < 0) end = content.length;
    const rest = content.slice(i, end).replace(/\r$/, '');
    i = end + 1;
    if (name === ';') continue; // a comment line
    const line = content.slice(start, end).replace(/\r$/, '');
    commands.push({ name, args: rest === '' ? [] : splitArgs(rest), rest, line });
  }
  return commands;
}

export function planEpl(content: string): EplPlan {
  const labels: { label: EplLabel; count: number; copies: number; firstSet: number }[] = [];
  let buffer: EplCommand[] = [];
  let width: number | undefined;
  let length: number | undefined;
  // Forms (FS"name"…FE), variables and counters with their ? data: see forms.ts.
  const forms = new Map<string, EplCommand[]>();
  let storing: { name: string; commands: EplCommand[] } | undefined;
  let values = new Map<string, string>();
  let sets = 0; // sets printed since the data was given (counters advance on each)
  let pendingData: EplVariable[] = [];
  const fieldsOf = (commands: EplCommand[]) => {
    const fields = new Map<string, EplVariable>();
    for (const c of commands) {
      const v = c.name === 'V' || c.name === 'C' ? defineVariable(c.name, c.args) : undefined;
      if (v) fields.set(variableKey(v), v);
    }
    return fields;
  };
  for (const c of parseEpl(content)) {
    if (pendingData.length > 0) {
      // A ? data line: the line as written, whatever letter it starts with.
      values.set(variableKey(pendingData.shift()!), c.line ?? c.name + (c.rest ?? ''));
      continue;
    }
    if (storing) {
      if (c.name === 'FE') {
        forms.set(storing.name, storing.commands);
        storing = undefined;
      } else storing.commands.push(c);
      continue;
    }
    if (c.name === 'FS') storing = { name: c.args[0] ?? '', commands: [] };
    else if (c.name === 'FK') forms.delete(c.args[0] ?? '');
    else if (c.name === 'FR') {
      buffer = [...(forms.get(c.args[0] ?? '') ?? [])];
      values = new Map();
      sets = 0;
    } else if (c.name === '?') {
      pendingData = dataOrder(fieldsOf(buffer));
      values = new Map();
      sets = 0;
    } else if (c.name === 'N') buffer = [];
    else if (c.name === 'q') width = Number(c.args[0]) || width;
    else if (c.name === 'Q') length = Number(c.args[0]) || length;
    else if (c.name === 'P') {
      const setCount = Math.max(1, Number(c.args[0]) || 1);
      const copies = Math.max(1, Number(c.args[1]) || 1);
      const fields = fieldsOf(buffer);
      const label: EplLabel = { commands: buffer, width, length };
      if (fields.size > 0) label.fields = { values, fields, set: 0 };
      labels.push({ label, count: setCount * copies, copies, firstSet: sets });
      sets += setCount;
      buffer = [...buffer];
    } else buffer.push(c);
  }
  // Content with drawings and no P prints nothing on the printer; the preview shows the buffer.
  if (labels.length === 0 && buffer.some((c) => DRAWN.has(c.name))) {
    const fields = fieldsOf(buffer);
    const label: EplLabel = { commands: buffer, width, length };
    if (fields.size > 0) label.fields = { values, fields, set: 0 };
    labels.push({ label, count: 1, copies: 1, firstSet: 0 });
  }
  const labelCount = labels.reduce((n, l) => n + l.count, 0);
  return {
    labelCount,
    labelAt(index) {
      for (const l of labels) {
        if (index < l.count) {
          const fields = l.label.fields;
          if (!fields) return l.label;
          const set = l.firstSet + Math.floor(index / l.copies);
          return { ...l.label, fields: { ...fields, set } };
        }
        index -= l.count;
      }
      throw new RangeError(`index: label ${index} asked for, the content prints ${labelCount}`);
    },
  };
}

const DRAWN = new Set(['A', 'B', 'b', 'LO', 'LE', 'LW', 'X', 'GW']);
/** Printer settings that print nothing: accepted silently. */
const NOT_DRAWN = new Set([
  'N',
  'q',
  'Q',
  'P',
  'I',
  'R',
  'S',
  'D',
  'ZT',
  'ZB',
  'O',
  'JF',
  'JB',
  'OD',
  'EI',
  'ES',
  'US',
  'UN',
  'r',
  'Y',
  'U',
  'W',
  'o',
  'C',
  'V',
  'FK',
  'FE',
  'FI',
  'FR',
  'FS',
  '?',
  'GK',
  'GI',
  'GM',
  'UP',
  'UI',
  'UB',
  'UQ',
  'UA',
  'M',
  'TS',
  'TT',
  'T',
]);

/** EPL2 fonts 1-5: cell height × width and gap in dots, at 203 dpi and at 300 dpi. */
const FONTS_203: Record<string, CellFont> = {
  '1': { h: 12, w: 6, gap: 2, baseline: 10 },
  '2': { h: 16, w: 8, gap: 2, baseline: 13 },
  '3': { h: 20, w: 10, gap: 2, baseline: 16 },
  '4': { h: 24, w: 12, gap: 2, baseline: 20 },
  '5': { h: 48, w: 28, gap: 4, baseline: 40 },
};
const FONTS_300: Record<string, CellFont> = {
  '1': { h: 20, w: 10, gap: 2, baseline: 16 },
  '2': { h: 28, w: 14, gap: 2, baseline: 23 },
  '3': { h: 36, w: 18, gap: 2, baseline: 29 },
  '4': { h: 44, w: 22, gap: 2, baseline: 36 },
  '5': { h: 80, w: 44, gap: 4, baseline: 66 },
};

/** EPL I command's second parameter → the table that decodes bytes. */
const CODE_PAGES: Record<string, string> = {
  '0': 'cp437',
  '1': 'cp850',
  '2': 'cp852',
  '3': 'cp860',
  '4': 'cp863',
  '5': 'cp865',
  '6': 'cp857',
  '7': 'cp861',
  '8': 'cp862',
  '9': 'cp855',
  '10': 'cp866',
  '11': 'cp737',
  '12': 'cp851',
  '13': 'cp869',
  A: 'windows-1252',
  B: 'windows-1250',
  C: 'windows-1251',
  D: 'windows-1253',
  E: 'windows-1254',
  F: 'windows-1255',
};

const ROTATIONS: Orientation[] = ['N', 'R', 'I', 'B'];

/** EPL B's barcode selectors → bwip-js symbology, whether it has a wide ratio, and a data rule. */
function eplSymbology(
  type: string,
): { bcid: string; options?: Record<string, unknown>; data?: (d: string) => string } | undefined {
  const t = type.toUpperCase();
  if (t === '0' || t === '1E')
    return { bcid: 'gs1-128', data: (d) => (d.includes('(') ? d : `(00)${d}`) };
  if (t.startsWith('1')) return { bcid: 'code128' };
  if (t === '2' || t === '2U' || t === '2G')
    return { bcid: 'interleaved2of5', data: (d) => (d.length % 2 ? '0' + d : d) };
  if (t === '2C' || t === '2D') return { bcid: 'interleaved2of5', options: { includecheck: true } };
  if (t === '3') return { bcid: 'code39' };
  if (t === '3C') return { bcid: 'code39', options: { includecheck: true } };
  if (t === '9') return { bcid: 'code93', options: { includecheck: true } };
  if (t.startsWith('E30'))
    return { bcid: 'ean13', data: (d) => d.slice(0, 12) + gs1CheckDigit(d.slice(0, 12)) };
  if (t.startsWith('E80'))
    return { bcid: 'ean8', data: (d) => d.slice(0, 7) + gs1CheckDigit(d.slice(0, 7)) };
  if (t.startsWith('UA'))
    return { bcid: 'upca', data: (d) => d.slice(0, 11) + gs1CheckDigit(d.slice(0, 11)) };
  if (t.startsWith('UE')) return { bcid: 'upce' };
  if (t === 'K') return { bcid: 'rationalizedCodabar' };
  if (t === 'P') return { bcid: 'postnet' };
  if (t === 'L') return { bcid: 'plessey' };
  if (t === 'M') return { bcid: 'msi' };
  return undefined;
}

export function drawEplLabel(
  label: EplLabel,
  ctx: { dpmm: number; width: number; height: number; fromBytes?: boolean },
): { bitmap: Bitmap; skipped: string[]; warnings: string[] } {
  const out = new Bitmap(ctx.width, ctx.height);
  const skipped: string[] = [];
  const warnings: string[] = [];
  let charset = 'cp437';
  let ref = { x: 0, y: 0 };
  const n = (v: string | undefined, fallback = 0) => {
    const x = Number(v);
    return v === undefined || v === '' || !Number.isFinite(x) ? fallback : x;
  };
  const place = (bitmap: Bitmap, x: number, y: number, rotation: number, reverse = false) => {
    const o = ROTATIONS[rotation] ?? 'N';
    const [ax, ay] = rotatePoint(o, 0, 0, bitmap.width, bitmap.height);
    out.draw(bitmap.rotate(o), ref.x + x - ax, ref.y + y - ay, reverse);
  };
  const decode = (text: string) =>
    ctx.fromBytes ? iconv.decode(Buffer.from(text, 'latin1'), charset) : text;
  // Data that refers to variables and counters (V00, C0), with their values for this label.
  const dataOf = (c: EplCommand, fixed: number) =>
    label.fields && c.rest !== undefined ? resolveData(c.rest, fixed, label.fields) : undefined;
  for (const c of label.commands) {
    try {
      command(c);
    } catch (error) {
      if (!(error instanceof TooLargeError)) throw error;
      warnings.push(`${c.name} not drawn: ${error.message}`);
    }
  }
  return { bitmap: out, skipped, warnings };

  function command(c: EplCommand): void {
    const a = c.args;
    switch (c.name) {
      case 'I':
        charset = CODE_PAGES[(a[1] ?? '0').toUpperCase()] ?? 'cp437';
        break;
      case 'R':
        ref = { x: n(a[0]), y: n(a[1]) };
        break;
      case 'A': {
        const fonts = ctx.dpmm >= 12 ? FONTS_300 : FONTS_203;
        const font = fonts[a[3] ?? '1'];
        if (!font) {
          note(skipped, `A (font ${a[3]})`);
          break;
        }
        const text = drawCellFont(
          decode(dataOf(c, 7) ?? a[7] ?? ''),
          font,
          Math.max(1, n(a[4], 1)),
          Math.max(1, n(a[5], 1)),
        );
        // Reverse (R): white characters on a black box the size of the text.
        if ((a[6] ?? 'N').toUpperCase() === 'R') {
          const d = text.bitmap.data;
          for (let i = 0; i < d.length; i++) d[i] = d[i] ? 0 : 1;
        }
        place(text.bitmap, n(a[0]), n(a[1]), n(a[2]));
        break;
      }
      case 'B': {
        const sym = eplSymbology(a[3] ?? '');
        if (!sym) {
          note(skipped, `B (type ${a[3]})`);
          break;
        }
        const narrow = Math.max(1, n(a[4], 2));
        const wide = Math.max(narrow, n(a[5], narrow * 2));
        const data = decode(dataOf(c, 8) ?? a[8] ?? '');
        try {
          const text = sym.data ? sym.data(data) : data;
          const bars = drawLinear(sym.bcid, text, sym.options ?? {}, {
            module: narrow,
            ratio: wide / narrow,
            height: n(a[6], 50),
          });
          const bitmap =
            (a[7] ?? 'N').toUpperCase() === 'B'
              ? withInterpretation(bars, text, narrow, false).bitmap
              : bars;
          place(bitmap, n(a[0]), n(a[1]), n(a[2]));
        } catch (error) {
          if (!(error instanceof BarcodeDataError)) throw error;
          warnings.push(`B not drawn: ${error.message}`);
        }
        break;
      }
      case 'b': {
        const type = (a[2] ?? '').toUpperCase();
        const data = decode(dataOf(c, a.length - 1) ?? a[a.length - 1] ?? '');
        const opts = a.slice(3, -1);
        const opt = (letter: string) => opts.find((o) => o[0]?.toLowerCase() === letter)?.slice(1);
        try {
          let bitmap: Bitmap;
          if (type === 'Q') bitmap = drawQr(data, (opt('e') ?? 'M').toUpperCase(), n(opt('s'), 3));
          else if (type === 'D') bitmap = drawMatrixSymbol('datamatrix', data, {}, n(opt('s'), 4));
          else if (type === 'A') bitmap = drawMatrixSymbol('azteccode', data, {}, n(opt('s'), 4));
          else if (type === 'P')
            bitmap = drawMatrixSymbol(
              'pdf417',
              data,
              { rowmult: 1 },
              n(opt('x'), 2),
              n(opt('y'), 6),
            );
          else if (type === 'M') bitmap = drawMaxicode(data, { mode: 4 }, ctx.dpmm);
          else {
            note(skipped, `b (type ${type})`);
            break;
          }
          place(bitmap, n(a[0]), n(a[1]), 0);
        } catch (error) {
          if (!(error instanceof BarcodeDataError)) throw error;
          warnings.push(`b not drawn: ${error.message}`);
        }
        break;
      }
      case 'LO':
      case 'LE':
      case 'LW': {
        const box = new Bitmap(n(a[2], 1), n(a[3], 1));
        box.fill(0, 0, box.width, box.height);
        const x = ref.x + n(a[0]);
        const y = ref.y + n(a[1]);
        if (c.name === 'LW') {
          // white: clear the rectangle
          const clear = new Bitmap(out.width, out.height);
          clear.draw(box, x, y);
          for (let i = 0; i < out.data.length; i++) if (clear.data[i]) out.data[i] = 0;
        } else out.draw(box, x, y, c.name === 'LE');
        break;
      }
      case 'X': {
        const x = n(a[0]);
        const y = n(a[1]);
        const t = Math.max(1, n(a[2], 1));
        out.draw(drawBox(n(a[3]) - x, n(a[4]) - y, t), ref.x + x, ref.y + y);
        break;
      }
      case 'GW': {
        const perRow = n(a[2]);
        const rows = n(a[3]);
        const bytes = Buffer.from(c.bytes ?? '', 'latin1');
        if (perRow > 0 && rows > 0)
          out.draw(bitmapFromRows(bytes, perRow, rows, true), ref.x + n(a[0]), ref.y + n(a[1]));
        break;
      }
      default:
        if (!NOT_DRAWN.has(c.name)) note(skipped, c.name);
    }
  }
}

function note(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}
