/**
 * The 1D symbologies of GS k, encoded from the bytes a printer receives into bars and spaces.
 * Tables are the standards' (ISO/IEC 15417, 15420, 16388, 16390, AIM USS Code 93 and Codabar).
 */

export type Symbology =
  'UPC-A' | 'UPC-E' | 'EAN13' | 'EAN8' | 'CODE39' | 'ITF' | 'CODABAR' | 'CODE93' | 'CODE128';

/**
 * `modules`: a string of '1' (bar) and '0' (space) modules, each the GS w module width.
 * `ratio`: alternating bar/space elements starting with a bar, 'n' narrow or 'w' wide.
 */
export type Bars = { kind: 'modules'; modules: string } | { kind: 'ratio'; elements: string };

export type Encoded = { ok: true; bars: Bars; hri: string } | { ok: false; reason: string };

const fail = (reason: string): Encoded => ({ ok: false, reason });
const latin1 = (data: Uint8Array) => String.fromCharCode(...data);

// ---- EAN / UPC -------------------------------------------------------------------------------

const L_CODES = [
  '0001101',
  '0011001',
  '0010011',
  '0111101',
  '0100011',
  '0110001',
  '0101111',
  '0111011',
  '0110111',
  '0001011',
];
const R_CODES = L_CODES.map((c) => [...c].map((b) => (b === '1' ? '0' : '1')).join(''));
const G_CODES = R_CODES.map((c) => [...c].reverse().join(''));
/** EAN-13: the first digit chooses which of the left six digits use the G (even) set. */
const EAN13_PARITY = [
  'LLLLLL',
  'LLGLGG',
  'LLGGLG',
  'LLGGGL',
  'LGLLGG',
  'LGGLLG',
  'LGGGLL',
  'LGLGLG',
  'LGLGGL',
  'LGGLGL',
];
/** UPC-E with number system 0: the check digit chooses the parity (E even, O odd). */
const UPCE_PARITY = [
  'EEEOOO',
  'EEOEOO',
  'EEOOEO',
  'EEOOOE',
  'EOEEOO',
  'EOOEEO',
  'EOOOEE',
  'EOEOEO',
  'EOEOOE',
  'EOOEOE',
];

/** The GS1 check digit of the digits (without it). */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const fromRight = digits.length - i;
    sum += Number(digits[i]) * (fromRight % 2 === 1 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** Digits with the check digit appended, or checked when present. */
function withCheck(data: string, lengths: [number, number], name: string): string | Encoded {
  if (!/^\d+$/.test(data)) return fail(`${name} takes digits only`);
  if (data.length === lengths[0]) return data + String(gs1CheckDigit(data));
  if (data.length === lengths[1]) {
    const body = data.slice(0, -1);
    if (gs1CheckDigit(body) !== Number(data.at(-1))) return fail(`${name} check digit is wrong`);
    return data;
  }
  return fail(`${name} takes ${lengths[0]} or ${lengths[1]} digits, not ${data.length}`);
}

function ean13Modules(digits: string): string {
  const parity = EAN13_PARITY[Number(digits[0])]!;
  let m = '101';
  for (let i = 1; i <= 6; i++) {
    const d = Number(digits[i]);
    m += parity[i - 1] === 'L' ? L_CODES[d] : G_CODES[d];
  }
  m += '01010';
  for (let i = 7; i <= 12; i++) m += R_CODES[Number(digits[i])];
  return m + '101';
}

function encodeEan13(data: string): Encoded {
  const digits = withCheck(data, [12, 13], 'EAN13');
  if (typeof digits !== 'string') return digits;
  return { ok: true, bars: { kind: 'modules', modules: ean13Modules(digits) }, hri: digits };
}

function encodeUpcA(data: string): Encoded {
  const digits = withCheck(data, [11, 12], 'UPC-A');
  if (typeof digits !== 'string') return digits;
  return { ok: true, bars: { kind: 'modules', modules: ean13Modules('0' + digits) }, hri: digits };
}

function encodeEan8(data: string): Encoded {
  const digits = withCheck(data, [7, 8], 'EAN8');
  if (typeof digits !== 'string') return digits;
  let m = '101';
  for (let i = 0; i < 4; i++) m += L_CODES[Number(digits[i])];
  m += '01010';
  for (let i = 4; i < 8; i++) m += R_CODES[Number(digits[i])];
  return { ok: true, bars: { kind: 'modules', modules: m + '101' }, hri: digits };
}

/** The UPC-A (11 digits, no check) that a UPC-E number system and six digits stand for. */
export function expandUpcE(ns: string, six: string): string {
  const [d1, d2, d3, d4, d5, d6] = [...six];
  switch (d6) {
    case '0':
    case '1':
    case '2':
      return `${ns}${d1}${d2}${d6}0000${d3}${d4}${d5}`;
    case '3':
      return `${ns}${d1}${d2}${d3}00000${d4}${d5}`;
    case '4':
      return `${ns}${d1}${d2}${d3}${d4}00000${d5}`;
    default:
      return `${ns}${d1}${d2}${d3}${d4}${d5}0000${d6}`;
  }
}

/** The six UPC-E digits of an 11-digit UPC-A (no check), when it can be zero-suppressed. */
function compressUpcA(upcA: string): string | undefined {
  for (let d6 = 0; d6 <= 9; d6++) {
    const m = upcA.slice(1);
    let six: string;
    if (d6 <= 2) six = m.slice(0, 2) + m.slice(7, 10) + d6;
    else if (d6 === 3) six = m.slice(0, 3) + m.slice(8, 10) + '3';
    else if (d6 === 4) six = m.slice(0, 4) + m.slice(9, 10) + '4';
    else six = m.slice(0, 5) + String(d6);
    if (expandUpcE(upcA[0]!, six) === upcA) return six;
  }
  return undefined;
}

function encodeUpcE(data: string): Encoded {
  if (!/^\d+$/.test(data)) return fail('UPC-E takes digits only');
  let ns = '0';
  let six: string | undefined;
  let given: string | undefined;
  if (data.length === 6) six = data;
  else if (data.length === 7 || data.length === 8) {
    ns = data[0]!;
    six = data.slice(1, 7);
    given = data[7];
  } else if (data.length === 11 || data.length === 12) {
    ns = data[0]!;
    six = compressUpcA(data.slice(0, 11));
    given = data[11];
    if (six === undefined) return fail('UPC-E: this UPC-A number cannot be zero-suppressed');
  } else return fail(`UPC-E takes 6, 7, 8, 11 or 12 digits, not ${data.length}`);
  if (ns !== '0' && ns !== '1') return fail('UPC-E number system must be 0 or 1');
  const check = gs1CheckDigit(expandUpcE(ns, six));
  if (given !== undefined && Number(given) !== check) return fail('UPC-E check digit is wrong');
  let parity = UPCE_PARITY[check]!;
  if (ns === '1') parity = [...parity].map((p) => (p === 'E' ? 'O' : 'E')).join('');
  let m = '101';
  for (let i = 0; i < 6; i++) {
    const d = Number(six[i]);
    m += parity[i] === 'E' ? G_CODES[d] : L_CODES[d];
  }
  m += '010101';
  return { ok: true, bars: { kind: 'modules', modules: m }, hri: `${ns}${six}${check}` };
}

// ---- Two-width symbologies ---------------------------------------------------------------------

const CODE39_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%*';
const CODE39_ELEMENTS = (
  'nnnwwnwnn wnnwnnnnw nnwwnnnnw wnwwnnnnn nnnwwnnnw wnnwwnnnn nnwwwnnnn nnnwnnwnw wnnwnnwnn ' +
  'nnwwnnwnn wnnnnwnnw nnwnnwnnw wnwnnwnnn nnnnwwnnw wnnnwwnnn nnwnwwnnn nnnnnwwnw wnnnnwwnn ' +
  'nnwnnwwnn nnnnwwwnn wnnnnnnww nnwnnnnww wnwnnnnwn nnnnwnnww wnnnwnnwn nnwnwnnwn nnnnnnwww ' +
  'wnnnnnwwn nnwnnnwwn nnnnwnwwn wwnnnnnnw nwwnnnnnw wwwnnnnnn nwnnwnnnw wwnnwnnnn nwwnwnnnn ' +
  'nwnnnnwnw wwnnnnwnn nwwnnnwnn nwnwnwnnn nwnwnnnwn nwnnnwnwn nnnwnwnwn nwnnwnwnn'
).split(' ');

function encodeCode39(data: string): Encoded {
  let text = data;
  if (text.startsWith('*')) text = text.slice(1);
  if (text.endsWith('*')) text = text.slice(0, -1);
  if (text.length === 0) return fail('CODE39 needs at least one character');
  for (const ch of text) {
    if (ch === '*' || !CODE39_CHARS.includes(ch)) return fail(`CODE39 cannot encode "${ch}"`);
  }
  const full = `*${text}*`;
  const elements = [...full].map((ch) => CODE39_ELEMENTS[CODE39_CHARS.indexOf(ch)]).join('n');
  return { ok: true, bars: { kind: 'ratio', elements }, hri: full };
}

const ITF_DIGITS = [
  'nnwwn',
  'wnnnw',
  'nwnnw',
  'wwnnn',
  'nnwnw',
  'wnwnn',
  'nwwnn',
  'nnnww',
  'wnnwn',
  'nwnwn',
];

function encodeItf(data: string): Encoded {
  if (!/^\d+$/.test(data)) return fail('ITF takes digits only');
  if (data.length === 0 || data.length % 2 !== 0) return fail('ITF takes an even number of digits');
  let elements = 'nnnn';
  for (let i = 0; i < data.length; i += 2) {
    const bars = ITF_DIGITS[Number(data[i])]!;
    const spaces = ITF_DIGITS[Number(data[i + 1])]!;
    for (let k = 0; k < 5; k++) elements += bars[k]! + spaces[k]!;
  }
  return { ok: true, bars: { kind: 'ratio', elements: elements + 'wnn' }, hri: data };
}

const CODABAR_CHARS = '0123456789-$:/.+ABCD';
const CODABAR_ELEMENTS = (
  'nnnnnww nnnnwwn nnnwnnw wwnnnnn nnwnnwn wnnnnwn nwnnnnw nwnnwnn nwwnnnn wnnwnnn nnnwwnn ' +
  'nnwwnnn wnnnwnw wnwnnnw wnwnwnn nnwnwnw nnwwnwn nwnwnnw nnnwnww nnnwwwn'
).split(' ');

function encodeCodabar(data: string): Encoded {
  const text = data.toUpperCase();
  if (!/^[A-D][0-9\-$:/.+]*[A-D]$/.test(text)) {
    return fail('CODABAR must start and end with A-D and hold 0-9 - $ : / . +');
  }
  const elements = [...text].map((ch) => CODABAR_ELEMENTS[CODABAR_CHARS.indexOf(ch)]).join('n');
  return { ok: true, bars: { kind: 'ratio', elements }, hri: text };
}

// ---- CODE93 -----------------------------------------------------------------------------------

/** 43 characters, then the four shift characters ($) (%) (/) (+), then the start/stop. */
const CODE93_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%';
const CODE93_PATTERNS = (
  '114 148 144 142 128 124 122 150 112 10a 1a8 1a4 1a2 194 192 18a 168 164 162 134 11a 158 14c ' +
  '146 12c 116 1b4 1b2 1ac 1a6 196 19a 16c 166 136 13a 12e 1d4 1d2 1ca 16e 176 1ae 126 1da 1d6 ' +
  '132 15e'
)
  .split(' ')
  .map((h) => parseInt(h, 16).toString(2).padStart(9, '0'));
const [SHIFT_DOLLAR, SHIFT_PERCENT, SHIFT_SLASH, SHIFT_PLUS, CODE93_START] = [43, 44, 45, 46, 47];

/** Full ASCII: a character outside the 43 is a shift character and a letter. */
function code93Values(code: number): number[] | undefined {
  const letter = (i: number) => 10 + i; // value of 'A' + i
  const ch = String.fromCharCode(code);
  if (CODE93_CHARS.includes(ch)) return [CODE93_CHARS.indexOf(ch)];
  if (code === 0) return [SHIFT_PERCENT, letter(20)];
  if (code <= 26) return [SHIFT_DOLLAR, letter(code - 1)];
  if (code <= 31) return [SHIFT_PERCENT, letter(code - 27)];
  if (code <= 58) return [SHIFT_SLASH, letter(code - 33)];
  if (code <= 63) return [SHIFT_PERCENT, letter(code - 59 + 5)];
  if (code === 64) return [SHIFT_PERCENT, letter(21)];
  if (code >= 91 && code <= 95) return [SHIFT_PERCENT, letter(code - 91 + 10)];
  if (code === 96) return [SHIFT_PERCENT, letter(22)];
  if (code >= 97 && code <= 122) return [SHIFT_PLUS, letter(code - 97)];
  if (code >= 123 && code <= 127) return [SHIFT_PERCENT, letter(code - 123 + 15)];
  return undefined;
}

function code93Check(values: number[], maxWeight: number): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[values.length - 1 - i]! * ((i % maxWeight) + 1);
  }
  return sum % 47;
}

function encodeCode93(data: Uint8Array): Encoded {
  if (data.length === 0) return fail('CODE93 needs at least one character');
  const values: number[] = [];
  for (const byte of data) {
    const v = code93Values(byte);
    if (!v) return fail(`CODE93 cannot encode byte 0x${byte.toString(16)}`);
    values.push(...v);
  }
  values.push(code93Check(values, 20));
  values.push(code93Check(values, 15));
  const all = [CODE93_START, ...values, CODE93_START];
  const modules = all.map((v) => CODE93_PATTERNS[v]).join('') + '1';
  const hri = latin1(data).replace(/[\x00-\x1f\x7f]/g, ' ');
  return { ok: true, bars: { kind: 'modules', modules }, hri };
}

// ---- CODE128 ----------------------------------------------------------------------------------

const CODE128_PATTERNS = (
  '6cc 66c 666 498 48c 44c 4c8 4c4 464 648 644 624 59c 4dc 4ce 5cc 4ec 4e6 672 65c 64e 6e4 674 ' +
  '76e 74c 72c 726 764 734 732 6d8 6c6 636 518 458 446 588 468 462 688 628 622 5b8 58e 46e 5d8 ' +
  '5c6 476 776 68e 62e 6e8 6e2 6ee 758 746 716 768 762 71a 77a 642 78a 530 50c 4b0 486 42c 426 ' +
  '590 584 4d0 4c2 434 432 612 650 7ba 614 47a 53c 4bc 49e 5e4 4f4 4f2 7a4 794 792 6de 6f6 7b6 ' +
  '578 51e 45e 5e8 5e2 7a8 7a2 5de 5ee 75e 7ae 684 690 69c'
)
  .split(' ')
  .map((h) => parseInt(h, 16).toString(2).padStart(11, '0'));
const CODE128_STOP = '1100011101011';
const START = { A: 103, B: 104, C: 105 } as const;
const SWITCH = { A: 101, B: 100, C: 99 } as const;
const FNC = { '1': 102, '2': 97, '3': 96 } as const;
const SHIFT = 98;

/**
 * Epson's CODE128 data: `{A`, `{B`, `{C` select the code set (the data must start with one),
 * `{S` shifts one character, `{1`..`{4` are FNC1-4 and `{{` is a literal `{`. In code set C each
 * byte is a value 0-99 standing for two digits.
 */
function encodeCode128(data: Uint8Array): Encoded {
  if (data.length < 2 || data[0] !== 0x7b || !'ABC'.includes(String.fromCharCode(data[1]!))) {
    return fail('CODE128 data must start with a code set selector {A, {B or {C');
  }
  let set = String.fromCharCode(data[1]!) as 'A' | 'B' | 'C';
  const values: number[] = [START[set]];
  let hri = '';
  let shifted = false;
  for (let i = 2; i < data.length; i++) {
    const byte = data[i]!;
    const current: 'A' | 'B' | 'C' = shifted ? (set === 'A' ? 'B' : 'A') : set;
    shifted = false;
    if (byte === 0x7b) {
      const next = String.fromCharCode(data[++i] ?? 0);
      if (next === 'A' || next === 'B' || next === 'C') {
        if (next !== set) values.push(SWITCH[next]);
        set = next;
      } else if (next === '1' || next === '2' || next === '3') values.push(FNC[next]);
      else if (next === '4') {
        if (set === 'C') return fail('CODE128 FNC4 is not available in code set C');
        values.push(set === 'A' ? 101 : 100);
      } else if (next === 'S') {
        if (set === 'C') return fail('CODE128 shift is not available in code set C');
        values.push(SHIFT);
        shifted = true;
      } else if (next === '{' && current === 'B') {
        values.push(0x7b - 32);
        hri += '{';
      } else return fail(`CODE128 unknown selector {${next}`);
      continue;
    }
    if (current === 'C') {
      if (byte > 99) return fail(`CODE128 code set C takes values 0-99, not ${byte}`);
      values.push(byte);
      hri += String(byte).padStart(2, '0');
    } else if (current === 'A') {
      if (byte > 0x5f) return fail(`CODE128 code set A cannot encode byte 0x${byte.toString(16)}`);
      values.push(byte >= 0x20 ? byte - 32 : byte + 64);
      hri += byte >= 0x20 ? String.fromCharCode(byte) : ' ';
    } else {
      if (byte < 0x20 || byte > 0x7f)
        return fail(`CODE128 code set B cannot encode byte 0x${byte.toString(16)}`);
      values.push(byte - 32);
      hri += byte === 0x7f ? ' ' : String.fromCharCode(byte);
    }
  }
  if (values.length < 2) return fail('CODE128 needs at least one character');
  let sum = values[0]!;
  for (let i = 1; i < values.length; i++) sum += values[i]! * i;
  values.push(sum % 103);
  const modules = values.map((v) => CODE128_PATTERNS[v]).join('') + CODE128_STOP;
  return { ok: true, bars: { kind: 'modules', modules }, hri };
}

/** Encodes GS k data for a symbology; `ok: false` says why a printer would refuse it. */
export function encodeSymbology(symbology: Symbology, data: Uint8Array): Encoded {
  const text = latin1(data);
  switch (symbology) {
    case 'UPC-A':
      return encodeUpcA(text);
    case 'UPC-E':
      return encodeUpcE(text);
    case 'EAN13':
      return encodeEan13(text);
    case 'EAN8':
      return encodeEan8(text);
    case 'CODE39':
      return encodeCode39(text);
    case 'ITF':
      return encodeItf(text);
    case 'CODABAR':
      return encodeCodabar(text);
    case 'CODE93':
      return encodeCode93(data);
    case 'CODE128':
      return encodeCode128(data);
  }
}
