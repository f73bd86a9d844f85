/**
 * ZPL's barcode commands (^BC ^BE ^B8 ^BU ^B9 ^B3 ^BA ^B2 ^BK ^BQ ^BX ^B7 ^BO ^BD ^BR ^BF ^B4
 * ^BB …): their parameters and field data turned into bwip-js's symbology and options, drawn
 * upright.
 */
import type { Bitmap } from '../bitmap.js';
import {
  BarcodeDataError,
  drawLinear,
  drawMatrixSymbol,
  drawMaxicode,
  drawZplQr,
  type ZplQrMode,
  drawStacked,
} from '../barcodes.js';
import {
  gs1CheckDigit,
  upcaToUpce,
  upcEanInterpretation,
  withInterpretation,
  zplInterpretation,
} from '../interpretation.js';
import { drawZplAztec } from './aztec.js';
import { drawDataBar, drawTlc39 } from './gs1.js';
import { pdf417Codewords } from './pdf417.js';

export interface BarcodeDefaults {
  /** ^BY module width, wide-to-narrow ratio and height. */
  module: number;
  ratio: number;
  height: number;
  dpmm: number;
}

export interface DrawnBarcode {
  bitmap: Bitmap;
  /** The row just below the bars: where ^FT puts its y. */
  barsBottom: number;
  /** The row the bars start at (below an interpretation line above them): where ^FO puts its y. */
  barsTop?: number;
  /** Data the symbol leaves out as the printer does (said in the preview's warnings). */
  warnings?: string[];
  /**
   * The bars' own rectangle, where digits reach outside it (EAN and UPC): ^FO puts its corner,
   * turned with the field, at the field origin.
   */
  box?: { x: number; y: number; w: number; h: number };
}

/** The barcode commands this module draws. */
export const ZPL_BARCODES = new Set([
  'BC',
  'BE',
  'B8',
  'BU',
  'B9',
  'B3',
  'BA',
  'B2',
  'BK',
  'BQ',
  'BX',
  'B7',
  'BO',
  'B0',
  'BD',
  'BR',
  'BF',
  'B1',
  'BI',
  'BJ',
  'BM',
  'BP',
  'BZ',
  'B5',
  'BL',
  'BS',
  'B4',
  'BB',
  'BT',
]);

const yes = (v: string | undefined, fallback: boolean) =>
  v === undefined || v === '' ? fallback : v.toUpperCase() === 'Y';
const num = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v === undefined || v === '' || !Number.isFinite(n) ? fallback : n;
};

/** bwip-js's parse syntax for control characters (^NNN) and a literal caret. */
function escapeForParse(text: string): string {
  return text.replace(/[\x00-\x1f^]/g, (c) => `^${String(c.charCodeAt(0)).padStart(3, '0')}`);
}

/**
 * ^BX quality 200 data with its escape sequences (the manual's, with `e` the escape character
 * ^BX names): `ee` is `e` itself, `e@` to `e_` the control characters NUL to US, `e1` FNC1 (first,
 * it makes a GS1 symbol), `edNNN` the byte NNN. Anything else after `e` stays as written. Returned
 * in bwip-js's parse syntax (`^FNC1`, `^NNN`).
 */
export function dataMatrixText(data: string, escape: string): string {
  let text = '';
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    const next = data[i + 1];
    if (c !== escape || next === undefined) {
      text += escapeForParse(c);
      continue;
    }
    const decimal = /^d(\d{3})/.exec(data.slice(i + 1, i + 5));
    if (next === escape) text += escapeForParse(escape);
    else if (next === '1') text += '^FNC1';
    else if (next >= '@' && next <= '_')
      text += escapeForParse(String.fromCharCode(next.charCodeAt(0) - 64));
    else if (decimal && Number(decimal[1]) < 256) {
      text += `^${decimal[1]}`;
      i += 3;
    } else {
      text += escapeForParse(c);
      continue;
    }
    i++;
  }
  return text;
}

/** ^BC data with its invocation codes (>9 >: >; start codes, >5 >6 >7 switches, >8 FNC1, >0 '>'). */
function code128Text(data: string): { text: string; fnc1: boolean; readable: string } {
  let text = '';
  let readable = '';
  let fnc1 = false;
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === '>' && i + 1 < data.length) {
      const n = data[++i]!;
      if (n === '8') {
        text += '^FNC1';
        fnc1 = true;
      } else if (n === '0') {
        text += '>';
        readable += '>';
      } else if (n === '=') {
        text += '~';
        readable += '~';
      }
      // start codes and subset switches: bwip-js picks the subsets itself (same decoded data)
      continue;
    }
    text += c === '^' ? '^094' : c;
    readable += c;
  }
  return { text, fnc1: fnc1 || text.includes('^094'), readable };
}

/**
 * ^BC mode N data as Code 128 codewords (bwip-js's raw form, `^NNN` each), with the subsets the
 * data asks for: the start code (>9 A, >: B, >; C; B when none is given, as the printer starts)
 * and the switches (>5 C, >6 B, >7 A), FNC1 (>8). In subset C a lone digit or a character that
 * is not a digit switches to B. Undefined when a character has no codeword in its subset (the
 * symbol is then left to bwip-js's own choice of subsets).
 */
export function code128Codewords(data: string): string | undefined {
  let set: 'A' | 'B' | 'C' = 'B';
  let i = 0;
  const start = /^>([9:;])/.exec(data);
  if (start) {
    set = start[1] === '9' ? 'A' : start[1] === ':' ? 'B' : 'C';
    i = 2;
  }
  const words: number[] = [set === 'A' ? 103 : set === 'B' ? 104 : 105];
  const literal = (c: string): boolean => {
    const code = c.charCodeAt(0);
    if (set === 'C') {
      words.push(100);
      set = 'B';
    }
    if (set === 'A' && code < 96) words.push(code < 32 ? code + 64 : code - 32);
    else if (set === 'B' && code >= 32 && code < 128) words.push(code - 32);
    else return false;
    return true;
  };
  while (i < data.length) {
    const c = data[i]!;
    if (c === '>' && i + 1 < data.length) {
      const n = data[i + 1]!;
      i += 2;
      const switches: Record<string, ['A' | 'B' | 'C', number]> = {
        '5': ['C', 99],
        '6': ['B', 100],
        '7': ['A', 101],
      };
      if (switches[n] && switches[n][0] !== set) {
        words.push(switches[n][1]);
        set = switches[n][0];
      } else if (n === '8') words.push(102);
      else if (n === '0' || n === '<') {
        if (!literal('>')) return undefined;
      } else if (n === '=') {
        if (!literal('~')) return undefined;
      }
      continue;
    }
    if (set === 'C' && /^\d\d$/.test(data.slice(i, i + 2))) {
      words.push(Number(data.slice(i, i + 2)));
      i += 2;
      continue;
    }
    if (!literal(c)) return undefined;
    i++;
  }
  return words.map((w) => `^${String(w).padStart(3, '0')}`).join('');
}

/**
 * ^B4 field data in ASCII: ZPL writes Code 49's shifted characters as `<` (Shift 1) or `>`
 * (Shift 2) before a character of its set (ZPL II Programming Guide, ^B4's table): Shift 2 and a
 * letter is the lower-case letter, Shift 1 and a letter the control character SOH … SUB. Other
 * shifted characters are refused (not drawn, with a warning) rather than guessed.
 */
export function code49Text(data: string): string {
  let out = '';
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c !== '<' && c !== '>') {
      out += c;
      continue;
    }
    const next = data[++i];
    if (next === undefined || !/[A-Z]/.test(next)) {
      throw new BarcodeDataError(`code49: ${c}${next ?? ''} is a shifted character not drawn`);
    }
    out += c === '>' ? next.toLowerCase() : String.fromCharCode(next.charCodeAt(0) - 64);
  }
  return out;
}

/** Text in a warning: quoted, control characters escaped, cut after 40 characters. */
function quoted(text: string): string {
  const chars = [...text];
  const shown = chars.length > 40 ? chars.slice(0, 40).join('') + '…' : text;
  return JSON.stringify(shown);
}

/**
 * Manual modes A and N keep only the characters they can hold (Labelary drops the rest, and so
 * does drawZplQr): what was dropped, said as a warning, or undefined when nothing was.
 */
function qrDropped(text: string, mode: ZplQrMode): string | undefined {
  if (mode !== 'A' && mode !== 'N') return undefined;
  const holds = mode === 'A' ? /^[0-9A-Z $%*+\-./:]$/ : /^[0-9]$/;
  const dropped = [...text].filter((c) => !holds.test(c));
  if (dropped.length === 0) return undefined;
  const what = mode === 'A' ? 'alphanumeric (A' : 'numeric (N';
  const holdsWhat = mode === 'A' ? 'digits, capitals, space and $ % * + - . / :' : 'digits';
  const n = dropped.length;
  return `manual ${what}) mode holds only ${holdsWhat}: ${n} character${n === 1 ? '' : 's'} dropped, ${quoted(dropped.join(''))}`;
}

/** Draws one barcode field upright (orientation is applied by the caller). */
export function drawZplBarcode(
  command: string,
  p: string[],
  data: string,
  d: BarcodeDefaults,
): DrawnBarcode {
  const linear = (
    bcid: string,
    text: string,
    readable: string,
    heightParam: string | undefined,
    printLine: string | undefined,
    above: string | undefined,
    options: Record<string, unknown> = {},
    lineDefault = true,
  ): DrawnBarcode => {
    const bars = drawLinear(bcid, text, options, {
      module: d.module,
      ratio: d.ratio,
      height: num(heightParam, d.height),
    });
    if (bcid === 'ean13' || bcid === 'ean8' || bcid === 'upca' || bcid === 'upce') {
      const line = !yes(printLine, lineDefault) ? 'none' : yes(above, false) ? 'above' : 'below';
      return upcEanInterpretation(bars, bcid, readable, d.module, line);
    }
    if (!yes(printLine, lineDefault)) return { bitmap: bars, barsBottom: bars.height };
    // The add-ons (^BS) print their digits above the bars, centred: not this line.
    if (!/^ean/.test(bcid)) return zplInterpretation(bars, readable, d.module, yes(above, false));
    return withInterpretation(bars, readable, d.module, yes(above, false));
  };
  switch (command) {
    case 'BC': {
      const mode = (p[5] || 'N').toUpperCase();
      if (mode === 'U') {
        const digits = data.replace(/\D/g, '').padStart(19, '0').slice(0, 19);
        const full = digits + gs1CheckDigit(digits);
        return linear('code128', `^FNC1${full}`, full, p[1], p[2], p[3], { parsefnc: true });
      }
      if (mode === 'D' && data.includes('(')) {
        const readable = data.replace(/>8/g, '');
        return linear('gs1-128', readable.replace(/\s/g, ''), readable, p[1], p[2], p[3]);
      }
      const c = code128Text(data);
      const words = mode === 'N' ? code128Codewords(data) : undefined;
      if (words) return linear('code128', words, c.readable, p[1], p[2], p[3], { raw: true });
      const text = mode === 'D' && !c.text.startsWith('^FNC1') ? `^FNC1${c.text}` : c.text;
      return linear('code128', text, c.readable, p[1], p[2], p[3], {
        parsefnc: c.fnc1 || mode === 'D',
      });
    }
    case 'BE': {
      const digits = data.replace(/\D/g, '').padStart(12, '0').slice(0, 12);
      const full = digits + gs1CheckDigit(digits);
      return linear('ean13', full, full, p[1], p[2], p[3]);
    }
    case 'B8': {
      const digits = data.replace(/\D/g, '').padStart(7, '0').slice(0, 7);
      const full = digits + gs1CheckDigit(digits);
      return linear('ean8', full, full, p[1], p[2], p[3]);
    }
    case 'BU': {
      const digits = data.replace(/\D/g, '').padStart(11, '0').slice(0, 11);
      const full = digits + gs1CheckDigit(digits);
      // e: the check digit printed after the bars (Y) or not.
      const shown = yes(p[4], true) ? full : full.slice(0, -1);
      return linear('upca', full, shown, p[1], p[2], p[3]);
    }
    case 'B9': {
      const digits = data.replace(/\D/g, '');
      // ^B9 takes the UPC-A form (10 digits of manufacturer and product, number system 0).
      const upca = digits.length >= 10 ? ('0' + digits).slice(-11) : undefined;
      const upce = upca ? upcaToUpce(upca) : digits.padStart(7, '0').slice(0, 7);
      if (!upce) throw new Error(`^B9: ${data} cannot be zero-suppressed to UPC-E`);
      const expanded = upca ?? digits;
      const full = upce + gs1CheckDigit(upca ?? expanded);
      const shown = yes(p[4], true) ? full : full.slice(0, -1);
      return linear('upce', full, shown, p[1], p[2], p[3]);
    }
    case 'B3': {
      const check = yes(p[1], false);
      return linear('code39', data, `*${data}*`, p[2], p[3], p[4], { includecheck: check });
    }
    case 'BA':
      return linear('code93', data, data, p[1], p[2], p[3], { includecheck: true });
    case 'B2': {
      const check = yes(p[4], false);
      let digits = data.replace(/\D/g, '');
      if ((digits.length + (check ? 1 : 0)) % 2 === 1) digits = '0' + digits;
      return linear('interleaved2of5', digits, digits, p[1], p[2], p[3], { includecheck: check });
    }
    case 'BK': {
      const start = (p[5] || 'A').toUpperCase();
      const stop = (p[6] || 'A').toUpperCase();
      const text = `${start}${data}${stop}`;
      return linear('rationalizedCodabar', text, text, p[2], p[3], p[4]);
    }
    case 'BQ': {
      const mag = num(p[2], d.dpmm >= 24 ? 6 : d.dpmm >= 12 ? 3 : 2);
      // "<ecc><input>,<data>"; without that shape the first three characters are read as it
      // anyway (Labelary: "EXAMPLE" is an unknown level, so H, and the data "MPLE").
      const m = /^([HQML])?([AM])?,(.*)$/s.exec(data);
      let ecc = m?.[1] ?? (p[3] || 'Q');
      let text = m ? m[3]! : data;
      let manual = m?.[2] === 'M';
      const warnings: string[] = [];
      if (!m && data.length >= 3) {
        ecc = 'HQML'.includes(data[0]!) ? data[0]! : 'H';
        manual = data[1] === 'M';
        text = data.slice(3);
        warnings.push(
          `the data does not start with <level><input>, (such as "QA,"): its first three characters ${quoted(data.slice(0, 3))} were read as that and not encoded`,
        );
      }
      let mode: ZplQrMode = 'auto';
      if (manual) {
        const b = /^B\d{4}/.exec(text);
        const letter = /^[NAK]/.exec(text);
        if (b) mode = 'B';
        else if (letter) mode = letter[0] as ZplQrMode;
        text = text.replace(/^(B\d{4}|[NAK])/, '');
      }
      const lost = qrDropped(text, mode);
      if (lost) warnings.push(lost);
      const bitmap = drawZplQr(text, ecc, mag, mode);
      // ^FT: Labelary ends the symbol above the baseline, by as many modules as its side falls
      // short of a multiple of 8 (3 for version 1's 21, 7 for version 2's 25), as if the field
      // were a byte-aligned square: measured on versions 1 and 2 only (docs/labels.md).
      const side = Math.round(bitmap.height / mag);
      const short = (8 - (side % 8)) % 8;
      return {
        bitmap,
        barsBottom: bitmap.height + short * mag,
        ...(warnings.length ? { warnings } : {}),
      };
    }
    case 'B4': {
      // ^B4o,h,f,m: rows h × module dots tall (h defaults to ^BY's height), interpretation line
      // N (none), A (above) or B (below); m, the starting mode, is bwip-js's own choice.
      const text = code49Text(data);
      const rowDots = Math.max(1, num(p[1], d.height)) * d.module;
      const { bitmap } = drawStacked('code49', text, {}, d.module, rowDots);
      const line = (p[2] || 'N').toUpperCase();
      if (line !== 'A' && line !== 'B') return { bitmap, barsBottom: bitmap.height };
      return withInterpretation(bitmap, text, d.module, line === 'A');
    }
    case 'BB': {
      // ^BBo,h,s,c,r,m: CODABLOCK F (default) or E (F with FNC1 first); A, on Code 39, is not in
      // bwip-js. Rows h × module dots tall, else the rows share ^BY's height; c characters a row,
      // r rows; s (check characters) is always on in bwip-js. Rows are at least 8 modules tall
      // (the symbology's rule, which bwip-js keeps).
      const mode = (p[5] || 'F').toUpperCase();
      if (mode === 'A') throw new BarcodeDataError('CODABLOCK A (^BB mode A) is not drawn');
      const text = (mode === 'E' ? '^FNC1' : '') + escapeForParse(data);
      const options: Record<string, unknown> = { parse: true, parsefnc: mode === 'E' };
      if (num(p[3], 0) > 0) options.columns = num(p[3], 0);
      if (num(p[4], 0) > 0) options.rows = num(p[4], 0);
      const given = num(p[1], 0);
      let rowDots = given * d.module;
      if (given <= 0) {
        const { rows } = drawStacked('codablockf', text, options, 1, 1);
        rowDots = Math.floor((d.height - (rows + 1) * d.module) / Math.max(1, rows));
      }
      const { bitmap } = drawStacked(
        'codablockf',
        text,
        options,
        d.module,
        Math.max(8 * d.module, rowDots),
      );
      return { bitmap, barsBottom: bitmap.height };
    }
    case 'BX': {
      const module = num(p[1], Math.max(1, Math.round(d.height / 20)));
      const options: Record<string, unknown> = { parse: true, parsefnc: true };
      if (num(p[3], 0) > 0) options.columns = num(p[3], 0);
      if (num(p[4], 0) > 0) options.rows = num(p[4], 0);
      // g, the escape character, counts for quality 200 (the symbol drawn here): `_` unless
      // given, as the current ZPL manual says (older firmware used ~).
      const escape = p[6]?.[0] || '_';
      const quality = num(p[2], 200);
      const text = quality === 200 ? dataMatrixText(data, escape) : escapeForParse(data);
      const bitmap = drawMatrixSymbol('datamatrix', text, options, module);
      return { bitmap, barsBottom: bitmap.height };
    }
    case 'B7':
    case 'BF': {
      const micro = command === 'BF';
      const options: Record<string, unknown> = { rowmult: 1 };
      if (!micro) {
        const security = num(p[2], -1);
        if (security >= 0 && security <= 8) options.eclevel = security;
        if (num(p[3], 0) > 0) options.columns = num(p[3], 0);
        if (num(p[4], 0) > 0) options.rows = num(p[4], 0);
      }
      const bcid = micro ? 'micropdf417' : yes(p[5], false) ? 'pdf417compact' : 'pdf417';
      // ^B7: the printer's own compaction, handed to bwip-js as codewords.
      let text = data;
      if (!micro) {
        options.raw = true;
        text = pdf417Codewords(data)
          .map((cw) => `^${String(cw).padStart(3, '0')}`)
          .join('');
      }
      const probe = drawMatrixSymbol(bcid, text, options, 1, 1);
      const rowHeight = num(p[1], Math.max(2, Math.round(d.height / Math.max(1, probe.height))));
      const bitmap = drawMatrixSymbol(bcid, text, options, d.module, rowHeight);
      return { bitmap, barsBottom: bitmap.height };
    }
    case 'BO': {
      const mag = num(p[1], d.dpmm >= 12 ? 6 : 4);
      const bitmap = drawZplAztec(data, num(p[3], 0), mag);
      return { bitmap, barsBottom: bitmap.height };
    }
    case 'BD': {
      const mode = num(p[0], 2);
      let text = escapeForParse(data);
      if (mode === 2 || mode === 3) {
        // ZPL's primary message: class of service (3), country (3), postal code (9 or 6).
        const postalLength = mode === 2 ? 9 : 6;
        const cls = data.slice(0, 3);
        const country = data.slice(3, 6);
        const postal = data.slice(6, 6 + postalLength);
        let rest = data.slice(6 + postalLength);
        let header = '';
        const h = /^\[\)>\x1e01\x1d(\d\d)/.exec(rest);
        if (h) {
          header = `[)>^03001^029${h[1]}`;
          rest = rest.slice(h[0].length);
        }
        text = `${header}${postal}^029${country}^029${cls}^029${escapeForParse(rest)}`;
      }
      const bitmap = drawMaxicode(text, { mode, parse: true }, d.dpmm);
      return { bitmap, barsBottom: bitmap.height };
    }
    case 'BT':
      return drawTlc39(p, data, d);
    case 'BR': {
      const type = num(p[1], 1);
      // The 2D component (data after `|`) and Expanded Stacked (type 6's segment width): gs1.ts.
      if (data.includes('|') || type === 6) return drawDataBar(p, data, d);
      const module = num(p[2], d.dpmm >= 12 ? 3 : 2);
      const height = num(p[4], 25);
      const linearPart = data.split('|')[0]!;
      const gtin = () => {
        const digits = linearPart.replace(/\D/g, '').padStart(13, '0').slice(0, 13);
        return `(01)${digits}${gs1CheckDigit(digits)}`;
      };
      const kinds: Record<number, string> = {
        1: 'databaromni',
        2: 'databartruncated',
        3: 'databarstacked',
        4: 'databarstackedomni',
        5: 'databarlimited',
        6: 'databarexpanded',
      };
      const sized = { ...d, module };
      if (kinds[type]) {
        const text = type === 6 ? linearPart : gtin();
        const bars = drawLinear(kinds[type]!, text, {}, { module, ratio: 3, height });
        return { bitmap: bars, barsBottom: bars.height };
      }
      // 7-12 without a 2D component (no `|` in the data): their linear part.
      const upc = { 7: ['BU', 11], 8: ['B9', 10], 9: ['BE', 12], 10: ['B8', 7] } as const;
      const linearCmd = upc[type as keyof typeof upc];
      if (linearCmd) {
        return drawZplBarcode(linearCmd[0], ['N', String(height), 'Y', 'N'], linearPart, sized);
      }
      return drawZplBarcode('BC', ['N', String(height), 'Y', 'N', 'N', 'D'], linearPart, sized);
    }
  }
  // Zebra's other linear symbologies, all drawn by bwip-js.
  switch (command) {
    case 'B0':
      return drawZplBarcode('BO', p, data, d);
    case 'B1':
      // Code 11: e = one (Y) or two (N) check digits
      return linear('code11', data, data, p[2], p[3], p[4], { includecheck: true });
    case 'BI':
      return linear('industrial2of5', data, data, p[1], p[2], p[3]);
    case 'BJ':
      return linear('code2of5', data, data, p[1], p[2], p[3]);
    case 'BM': {
      const check = (p[1] || 'B').toUpperCase();
      return linear(
        'msi',
        data,
        data,
        p[2],
        p[3],
        p[4],
        check === 'A' ? {} : { includecheck: true },
      );
    }
    case 'BP':
      return linear('plessey', data, data, p[2], p[3], p[4]);
    case 'BZ':
      return linear('postnet', data.replace(/\D/g, ''), data, p[1], p[2], p[3], {}, false);
    case 'B5':
      return linear('planet', data.replace(/\D/g, ''), data, p[1], p[2], p[3], {}, false);
    case 'BL':
      // LOGMARS: Code 39 with its mod 43 check digit always
      return linear('code39', data, data, p[1], 'N', p[2], { includecheck: true }, false);
    case 'BS': {
      const digits = data.replace(/\D/g, '');
      const bcid = digits.length <= 2 ? 'ean2' : 'ean5';
      return linear(
        bcid,
        digits.padStart(bcid === 'ean2' ? 2 : 5, '0').slice(0, 5),
        digits,
        p[1],
        p[2],
        p[3],
        {},
        true,
      );
    }
  }
  throw new Error(`^${command} is not a barcode`);
}
