/**
 * EPL2 variables (V), counters (C), stored forms (FS…FE, FR, FK) and the `?` data lines that fill
 * them. A form or the image buffer defines `Vnn,max,just,"prompt"` and `Cn,max,just,±step,"prompt"`;
 * after `?` come one line of data for each variable (V00 up) and then each counter (C0 up), and
 * text and barcode data refer to them as `V00` or `C0` between quoted strings
 * (`A50,50,0,3,1,1,N,"SN "C0`). A counter adds its step on each set a `P` prints (copies of a set
 * are the same label), keeping its leading zeros.
 */

export interface EplVariable {
  kind: 'V' | 'C';
  number: number;
  max: number;
  justify: string;
  step: number;
}

/** The values given after `?`, and which set of the batch a label is. */
export interface EplFieldValues {
  values: Map<string, string>;
  fields: Map<string, EplVariable>;
  set: number;
}

/** A V or C definition, or undefined when it is not one (a bad number). */
export function defineVariable(name: string, args: string[]): EplVariable | undefined {
  const number = Number(args[0]);
  if (!Number.isInteger(number) || number < 0 || number > (name === 'V' ? 99 : 9)) return undefined;
  const max = Math.max(1, Math.min(99, Number(args[1]) || 99));
  const justify = (args[2] || 'N').toUpperCase();
  const step = name === 'C' ? Number((args[3] ?? '+1').replace(/\s/g, '')) || 0 : 0;
  return { kind: name === 'V' ? 'V' : 'C', number, max, justify, step };
}

export const variableKey = (v: Pick<EplVariable, 'kind' | 'number'>) =>
  v.kind === 'V' ? `V${String(v.number).padStart(2, '0')}` : `C${v.number}`;

/** The order `?` data lines fill the fields in: variables by number, then counters by number. */
export function dataOrder(fields: Map<string, EplVariable>): EplVariable[] {
  return [...fields.values()].sort(
    (a, b) => Number(a.kind === 'C') - Number(b.kind === 'C') || a.number - b.number,
  );
}

function justified(text: string, v: EplVariable): string {
  const t = text.slice(0, v.max);
  const room = v.max - t.length;
  if (v.justify === 'R') return ' '.repeat(room) + t;
  if (v.justify === 'L') return t + ' '.repeat(room);
  if (v.justify === 'C') return ' '.repeat(room >> 1) + t + ' '.repeat(room - (room >> 1));
  return t;
}

/** A counter's value on set `set`: its start plus `step × set`, as wide as the start was. */
export function counterValue(start: string, step: number, set: number): string {
  const m = /^(\s*)(-?)(\d+)(\s*)$/.exec(start);
  if (!m) return start;
  const n = Number(m[2]! + m[3]!) + step * set;
  const digits = String(Math.abs(n)).padStart(m[3]!.length, '0');
  return (n < 0 ? '-' : '') + digits;
}

/**
 * The data field of a line (the text after its `fixed` leading parameters) with its `Vnn` and
 * `Cn` references replaced; quoted strings are literal (`\"` a quote, `\\` a backslash).
 * Undefined when the field holds no reference (the caller keeps its own parse).
 */
export function resolveData(
  rest: string,
  fixed: number,
  state: EplFieldValues,
): string | undefined {
  let i = 0;
  let commas = 0;
  let quoted = false;
  while (i < rest.length && commas < fixed) {
    const c = rest[i]!;
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) commas++;
    i++;
  }
  if (commas < fixed) return undefined;
  const field = rest.slice(i);
  let out = '';
  let referred = false;
  for (let k = 0; k < field.length; k++) {
    const c = field[k]!;
    if (c === '"') {
      for (k++; k < field.length && field[k] !== '"'; k++) {
        if (field[k] === '\\' && k + 1 < field.length) k++;
        out += field[k];
      }
      continue;
    }
    const ref = /^(V\d\d|C\d)/.exec(field.slice(k));
    const v = ref ? state.fields.get(ref[1]!) : undefined;
    if (ref && v) {
      referred = true;
      const given = state.values.get(ref[1]!) ?? '';
      out += justified(v.kind === 'C' ? counterValue(given, v.step, state.set) : given, v);
      k += ref[1]!.length - 1;
      continue;
    }
    out += c;
  }
  return referred ? out : undefined;
}
