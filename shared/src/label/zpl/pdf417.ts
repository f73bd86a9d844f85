/**
 * PDF417's data codewords as a Zebra printer (and Labelary) compacts the field's data, for
 * bwip-js to lay out (`raw`): bwip-js's own compaction is as valid but other, so the symbol
 * differed from Labelary's in most of its modules.
 *
 * - The data is cut into runs of digits, of text (printable ASCII, tab, CR, LF) and of other
 *   bytes; a digit run joins the text around it when shorter than 8 between text (7 at the end,
 *   8 at the start before text), 5 between text and bytes, 4 between bytes, and a lone digit
 *   joins bytes; then a text run of 1-2 characters next to bytes (1-4 between bytes, 1 at the
 *   end after bytes) joins the bytes.
 * - Text compaction (900, implied first) starts in upper case; a character not in the current
 *   submode is shifted to (punctuation from any, upper from lower) when the next one is not in
 *   the same submode as it, else latched to, preferring upper, then lower, then mixed.
 * - Numeric compaction (902): groups of 44 digits, each "1" + digits in base 900.
 * - Byte compaction: one byte after text 913 + byte (a shift); else 924 (a multiple of 6 bytes) or 901, six bytes in
 *   five base-900 codewords, the rest one codeword each.
 */
const T_ALPHA = 1;
const T_LOWER = 2;
const T_MIXED = 4;
const T_PUNCT = 8;

// The four text submodes' 30 values (ISO 15438 table 2); '' where the value is a latch or shift.
const SUBMODES: [number, string][] = [
  [T_ALPHA, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ '],
  [T_LOWER, 'abcdefghijklmnopqrstuvwxyz '],
  [T_MIXED, '0123456789&\r\t,:#-.$/+%*=^\u0000 '],
  [T_PUNCT, ';<>@[\\]_`~!\r\t,:\n-.$/"|*()?{}\''],
];
const TEXT = new Map<string, { tables: number; value: number }>();
for (const [table, chars] of SUBMODES) {
  [...chars].forEach((c, value) => {
    if (c === '\u0000') return;
    const known = TEXT.get(c);
    if (known) known.tables |= table;
    else TEXT.set(c, { tables: table, value });
  });
}

type Run = { mode: 'T' | 'N' | 'B'; length: number };

const modeOf = (code: number): 'T' | 'N' | 'B' => {
  if (code >= 48 && code <= 57) return 'N';
  return TEXT.has(String.fromCharCode(code)) ? 'T' : 'B';
};

function regroup(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    const last = out[out.length - 1];
    if (last && last.mode === run.mode) last.length += run.length;
    else out.push({ ...run });
  }
  return out;
}

function runsOf(bytes: number[]): Run[] {
  let runs: Run[] = [];
  for (const b of bytes) {
    const mode = modeOf(b);
    const last = runs[runs.length - 1];
    if (last && last.mode === mode) last.length++;
    else runs.push({ mode, length: 1 });
  }
  const n = runs.length;
  runs.forEach((run, i) => {
    if (run.mode !== 'N') return;
    const last = i > 0 ? runs[i - 1]!.mode : undefined;
    const next = i < n - 1 ? runs[i + 1]!.mode : undefined;
    const len = run.length;
    if (i === 0) {
      if (n > 1) {
        if (next === 'T' && len < 8) run.mode = 'T';
        if (next === 'B' && len === 1) run.mode = 'B';
      }
    } else if (i === n - 1) {
      if (last === 'T' && len < 7) run.mode = 'T';
      if (last === 'B' && len === 1) run.mode = 'B';
    } else {
      if (last === 'B' && next === 'B' && len < 4) run.mode = 'B';
      if (last === 'B' && next === 'T' && len < 4) run.mode = 'T';
      if (last === 'T' && next === 'B' && len < 5) run.mode = 'T';
      if (last === 'T' && next === 'T' && len < 8) run.mode = 'T';
    }
  });
  runs = regroup(runs);
  const m = runs.length;
  runs.forEach((run, i) => {
    if (run.mode !== 'T' || i === 0) return;
    const last = runs[i - 1]!.mode;
    const next = i < m - 1 ? runs[i + 1]!.mode : undefined;
    const len = run.length;
    if (i === m - 1) {
      if (last === 'B' && len === 1) run.mode = 'B';
    } else {
      if (last === 'B' && next === 'B' && len < 5) run.mode = 'B';
      if (((last === 'B' && next !== 'B') || (last !== 'B' && next === 'B')) && len < 3)
        run.mode = 'B';
    }
  });
  return regroup(runs);
}

function textCodewords(chars: string[], out: number[]): void {
  const values: number[] = [];
  let table = T_ALPHA;
  const latch: Record<number, Record<number, number[]>> = {
    [T_ALPHA]: { [T_LOWER]: [27], [T_MIXED]: [28], [T_PUNCT]: [28, 25] },
    [T_LOWER]: { [T_ALPHA]: [28, 28], [T_MIXED]: [28], [T_PUNCT]: [28, 25] },
    [T_MIXED]: { [T_ALPHA]: [28], [T_LOWER]: [27], [T_PUNCT]: [25] },
    [T_PUNCT]: { [T_ALPHA]: [29], [T_LOWER]: [29, 27], [T_MIXED]: [29, 28] },
  };
  chars.forEach((c, j) => {
    const { tables, value } = TEXT.get(c)!;
    if (tables & table) {
      values.push(value);
      return;
    }
    const nextTables = j + 1 < chars.length ? TEXT.get(chars[j + 1]!)!.tables : 0;
    const alone = j === chars.length - 1 || !(tables & nextTables);
    if (alone && tables & T_ALPHA && table === T_LOWER) {
      values.push(27, value);
      return;
    }
    if (alone && tables & T_PUNCT) {
      values.push(29, value);
      return;
    }
    const wanted = alone ? tables : tables & nextTables;
    const target =
      wanted & T_ALPHA
        ? T_ALPHA
        : wanted & T_LOWER
          ? T_LOWER
          : wanted & T_MIXED
            ? T_MIXED
            : T_PUNCT;
    values.push(...latch[table]![target]!, value);
    table = target;
  });
  if (values.length % 2) values.push(29);
  for (let i = 0; i < values.length; i += 2) out.push(30 * values[i]! + values[i + 1]!);
}

function numericCodewords(digits: string, out: number[]): void {
  out.push(902);
  for (let i = 0; i < digits.length; i += 44) {
    let n = BigInt(`1${digits.slice(i, i + 44)}`);
    const group: number[] = [];
    while (n > 0n) {
      group.unshift(Number(n % 900n));
      n /= 900n;
    }
    out.push(...group);
  }
}

function byteCodewords(bytes: number[], afterText: boolean, out: number[]): void {
  if (bytes.length === 1 && afterText) {
    out.push(913, bytes[0]!);
    return;
  }
  out.push(bytes.length % 6 === 0 ? 924 : 901);
  let i = 0;
  for (; i + 6 <= bytes.length; i += 6) {
    let n = 0n;
    for (let k = 0; k < 6; k++) n = n * 256n + BigInt(bytes[i + k]!);
    const group: number[] = [];
    for (let k = 0; k < 5; k++) {
      group.unshift(Number(n % 900n));
      n /= 900n;
    }
    out.push(...group);
  }
  for (; i < bytes.length; i++) out.push(bytes[i]!);
}

/** The data codewords (no length descriptor, padding or error correction) for `data`'s bytes. */
export function pdf417Codewords(data: string): number[] {
  const bytes = [...Buffer.from(data, 'latin1')];
  const out: number[] = [];
  let at = 0;
  const runs = runsOf(bytes);
  runs.forEach((run, i) => {
    const part = bytes.slice(at, at + run.length);
    at += run.length;
    if (run.mode === 'T') {
      if (i > 0) out.push(900);
      textCodewords(
        part.map((b) => String.fromCharCode(b)),
        out,
      );
    } else if (run.mode === 'N') numericCodewords(String.fromCharCode(...part), out);
    else byteCodewords(part, i === 0 || runs[i - 1]!.mode === 'T', out);
  });
  return out;
}
