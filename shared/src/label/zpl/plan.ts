/**
 * The first pass over ZPL: which labels the content prints. Stored graphics (~DG) and formats
 * (^DF) go into the printer's memory, a ^XF recalls a format into the label that names it, and each
 * ^XA…^XZ prints ^PQ copies (a format definition prints nothing).
 */
import { Bitmap, TooLargeError } from '../bitmap.js';
import { bitmapFromRows, decodeAsciiGraphic } from './graphics.js';
import { splitParams, type ZplCommand } from './parse.js';

export interface ZplBlock {
  commands: ZplCommand[];
  copies: number;
  /** The label's width and length in dots (^PW, ^LL), as in force when it printed. */
  width?: number;
  length?: number;
  /** The ^LH parameters in force when the format began (^LH stays set from format to format). */
  home?: string;
  /** ^CW's font names by letter, from earlier formats (they stay assigned until power-off). */
  fonts?: [string, string][];
}

export interface ZplPlan {
  blocks: ZplBlock[];
  graphics: Map<string, Bitmap>;
  labelCount: number;
  warnings: string[];
}

/** A stored object's name without its drive (R:, E:, B:, A:) and upper-cased. */
export function objectName(name: string): string {
  return name
    .trim()
    .replace(/^[A-Z]:/i, '')
    .toUpperCase();
}

/** Commands that put something on the label (a field's data, a graphic, a recalled image). */
const DRAWING = new Set([
  '^FD',
  '^FV',
  '^SN',
  '^GB',
  '^GC',
  '^GD',
  '^GE',
  '^GF',
  '^GS',
  '^XG',
  '^IL',
]);

/** Dots per ^MU unit: D (dots, or a dpi conversion `^MUD,150,300`), M (mm) or I (inches). */
export function unitDots(params: string, dpmm: number): number {
  const p = splitParams(params);
  const u = (p[0] || 'D').toUpperCase();
  if (u === 'I') return dpmm * 25.4;
  if (u === 'M') return dpmm;
  const from = Number(p[1]);
  const to = Number(p[2]);
  return from > 0 && to > 0 ? to / from : 1;
}

export function planZpl(commands: ZplCommand[], dpmm = 8): ZplPlan {
  const graphics = new Map<string, Bitmap>();
  const formats = new Map<string, ZplCommand[]>();
  let blocks: ZplBlock[] = [];
  const warnings: string[] = [];
  let block: ZplCommand[] | undefined;
  let format: { name: string; commands: ZplCommand[] } | undefined;
  let copies = 1;
  let width: number | undefined;
  let length: number | undefined;
  let home: string | undefined;
  let unit = 1; // dots per ^MU unit: ^PW and ^LL are in the format's units
  let homeAtStart: string | undefined;
  const fonts = new Map<string, string>();
  let fontsAtStart: [string, string][] = [];
  for (const command of commands) {
    const name = command.name;
    if (name === '~DG') {
      const p = splitParams(command.params);
      const total = Number(p[1]);
      const perRow = Number(p[2]);
      if (perRow > 0 && total > 0) {
        const data = command.params.split(',').slice(3).join(',');
        try {
          const { bytes, warning } = decodeAsciiGraphic(data, perRow, total);
          if (warning) warnings.push(warning.replace('^GF', '~DG'));
          graphics.set(objectName(p[0]!), bitmapFromRows(bytes, perRow, Math.ceil(total / perRow)));
        } catch (error) {
          if (!(error instanceof TooLargeError)) throw error;
          warnings.push(`~DG ${p[0]} not stored: ${error.message}`);
        }
      }
      continue;
    }
    if (name === '^XA') {
      homeAtStart = home;
      fontsAtStart = [...fonts];
      unit = 1;
      block = [];
      format = undefined;
      copies = 1;
      continue;
    }
    if (!block) continue;
    if (name === '^XZ') {
      if (format) formats.set(format.name, format.commands);
      else
        blocks.push({
          commands: block,
          copies,
          ...(width ? { width } : {}),
          ...(length ? { length } : {}),
          ...(homeAtStart !== undefined ? { home: homeAtStart } : {}),
          ...(fontsAtStart.length > 0 ? { fonts: fontsAtStart } : {}),
        });
      block = undefined;
      format = undefined;
      continue;
    }
    if (name === '^DF') {
      format = { name: objectName(command.params), commands: [] };
      continue;
    }
    if (format) {
      format.commands.push(command);
      continue;
    }
    if (name === '^XF') {
      const stored = formats.get(objectName(command.params));
      if (stored) block.push(...stored);
      else warnings.push(`^XF ${command.params}: no such format`);
      continue;
    }
    if (name === '^PQ') {
      const q = Number(splitParams(command.params)[0]);
      if (Number.isFinite(q) && q >= 1) copies = Math.min(Math.floor(q), 99_999_999);
    }
    if (name === '^MU') unit = unitDots(command.params, dpmm);
    if (name === '^PW') width = Math.round(Number(splitParams(command.params)[0]) * unit) || width;
    if (name === '^LH') home = command.params;
    if (name === '^CW') {
      const p = splitParams(command.params);
      const file = p.slice(1).join(',').trim();
      if (/^[A-Z0-9]$/i.test(p[0] ?? '') && file) fonts.set(p[0]!.toUpperCase(), file);
    }
    if (name === '^LL')
      length = Math.round(Number(splitParams(command.params)[0]) * unit) || length;
    block.push(command);
  }
  // A format of settings only (^XA^PON^LH0,20^JUS^XZ before the label) feeds no label, as on the
  // printer (and in Labelary); content that draws nothing at all still shows one blank label.
  const printing = blocks.filter((b) => b.commands.some((c) => DRAWING.has(c.name)));
  if (printing.length > 0 && printing.length < blocks.length) blocks = printing;
  return {
    blocks,
    graphics,
    labelCount: blocks.reduce((n, b) => n + b.copies, 0),
    warnings,
  };
}
