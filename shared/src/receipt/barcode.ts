/**
 * Barcode values: what each symbology accepts, check digits, and the GS k data Printwire sends.
 */
import type { BarcodeFormat } from '../printers/schema.js';

/** Longest value of the variable-length symbologies (CODE128, CODE39, ITF). */
export const MAX_BARCODE_LENGTH = 64;

const CODE39_CHARS = /^[0-9A-Z .$/+%-]+$/;

/** The GS k `m` of each symbology (function B: data length byte follows). */
export const GS_K_FORMAT: Record<BarcodeFormat, number> = {
  'UPC-A': 65,
  EAN13: 67,
  EAN8: 68,
  CODE39: 69,
  ITF: 70,
  CODE128: 73,
};

/** The GS1 mod-10 check digit of the digits before it (EAN-13, EAN-8, UPC-A). */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

const GS1_LENGTHS: Partial<Record<BarcodeFormat, number>> = { EAN13: 13, EAN8: 8, 'UPC-A': 12 };

/** Why `value` cannot be printed as `format`, or undefined when it can. */
export function barcodeValueProblem(format: BarcodeFormat, value: string): string | undefined {
  const full = GS1_LENGTHS[format];
  if (full !== undefined) {
    if (!/^\d+$/.test(value) || (value.length !== full && value.length !== full - 1)) {
      return `must be ${full - 1} digits, or ${full} with the check digit`;
    }
    if (value.length === full) {
      const expected = gs1CheckDigit(value.slice(0, -1));
      if (value.charCodeAt(full - 1) - 48 !== expected) {
        return `check digit is wrong: expected ${expected}, got ${value[full - 1]}`;
      }
    }
    return undefined;
  }
  if (value.length < 1 || value.length > MAX_BARCODE_LENGTH) {
    return `must be 1-${MAX_BARCODE_LENGTH} characters`;
  }
  switch (format) {
    case 'CODE39':
      return CODE39_CHARS.test(value)
        ? undefined
        : 'CODE39 takes only 0-9, A-Z, space and - . $ / + %';
    case 'ITF':
      return /^\d+$/.test(value) && value.length % 2 === 0
        ? undefined
        : 'ITF takes an even number of digits';
    default:
      return /^[\x20-\x7e]+$/.test(value)
        ? undefined
        : 'CODE128 takes printable ASCII characters only';
  }
}

/**
 * The GS k data for a valid value. GS1 codes are sent without their check digit (the printer
 * computes it, and every ESC/POS firmware accepts that length). CODE128 gets code set B with
 * code set C for runs of digits, `{` escaped as `{{`.
 */
export function barcodeData(format: BarcodeFormat, value: string): string {
  const full = GS1_LENGTHS[format];
  if (full !== undefined) return value.length === full ? value.slice(0, -1) : value;
  if (format === 'CODE128') return code128Data(value);
  return value;
}

function code128Data(value: string): string {
  let out = '';
  let set: 'B' | 'C' | '' = '';
  let i = 0;
  while (i < value.length) {
    let run = 0;
    while (i + run < value.length && isDigit(value.charCodeAt(i + run))) run++;
    const atEdge = i === 0 || i + run === value.length;
    if (run >= (atEdge ? 4 : 6) || (run === value.length && run >= 2)) {
      const pairs = run - (run % 2);
      if (set !== 'C') out += '{C';
      set = 'C';
      for (let k = 0; k < pairs; k += 2) {
        out += String.fromCharCode(Number(value.slice(i + k, i + k + 2)));
      }
      i += pairs;
      continue;
    }
    if (set !== 'B') out += '{B';
    set = 'B';
    const end = run > 0 ? i + run : i + 1;
    for (; i < end; i++) out += value[i] === '{' ? '{{' : value[i];
  }
  return out;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Modules (narrow bar widths) across the symbol, quiet zones excluded, to check that it fits the
 * paper at a given GS w width. CODE39 and ITF assume a 1:3 wide-to-narrow ratio (the widest).
 */
export function barcodeModules(format: BarcodeFormat, data: string): number {
  switch (format) {
    case 'EAN13':
    case 'UPC-A':
      return 95;
    case 'EAN8':
      return 67;
    case 'CODE39':
      return (data.length + 2) * 16;
    case 'ITF':
      return data.length * 9 + 10;
    case 'CODE128': {
      // Each symbol is 11 modules: start, data and code switches, check; the stop is 13.
      let symbols = 0;
      for (let i = 0; i < data.length; i++) {
        if (data[i] === '{' && i + 1 < data.length) i++;
        symbols++;
      }
      return (symbols + 1) * 11 + 13;
    }
  }
}
