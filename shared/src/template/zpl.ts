/**
 * ZPL: a scanner that reads the template's own commands to know, for each tag, whether it sits in
 * field data (after ^FD or ^FV, before ^FS) and whether that field's ^FD followed ^FH (and with
 * which indicator). It follows ^CC/~CC (new caret) and ^CT/~CT (new tilde). The decision is made
 * once per tag at compile time; rendering only runs the chosen escaper.
 *
 * Rule 2: inside a ^FH field, ^, ~ (and the current caret and tilde), the indicator and control
 * characters become hex codes (`_5E`); anywhere else those characters are removed.
 */

type Mode =
  | 'params' // after a command, outside field data: parameters or free text
  | 'name' // after a prefix, reading the two letters of a command name
  | 'fh' // after ^FH: the next character is the indicator
  | 'cc' // after ^CC / ~CC: the next character is the new caret
  | 'ct' // after ^CT / ~CT: the next character is the new tilde
  | 'data'; // field data after ^FD / ^FV

export interface ZplState {
  mode: Mode;
  caret: string;
  tilde: string;
  /** The pending command's prefix and the letters read so far (mode 'name'). */
  name: string;
  /** ^FH's indicator when ^FH was given in the current field (reset by ^FS). */
  fh: string | null;
  /** In field data: the indicator if the data is hex-escaped. */
  hex: string | null;
  /** When present, every command met is appended (`^XA`, `^FO`, …). */
  commands?: string[];
}

export function initialZplState(): ZplState {
  return { mode: 'params', caret: '^', tilde: '~', name: '', fh: null, hex: null };
}

export function sameZplState(a: ZplState, b: ZplState): boolean {
  return (
    a.mode === b.mode &&
    a.caret === b.caret &&
    a.tilde === b.tilde &&
    a.name === b.name &&
    a.fh === b.fh &&
    a.hex === b.hex
  );
}

/** Advances the scanner over literal template text. */
export function scanZpl(state: ZplState, text: string): void {
  // Between commands only the next caret or tilde matters: jump to it. The positions found are
  // kept until passed, so text without one of the two is not searched again and again.
  let nextCaret = -2;
  let nextTilde = -2;
  let caret = '';
  let tilde = '';
  for (let i = 0; i < text.length; i++) {
    if (state.mode === 'params' || state.mode === 'data') {
      if (caret !== state.caret || tilde !== state.tilde) {
        [caret, tilde, nextCaret, nextTilde] = [state.caret, state.tilde, -2, -2];
      }
      if (nextCaret !== -1 && nextCaret < i) nextCaret = text.indexOf(caret, i);
      if (nextTilde !== -1 && nextTilde < i) nextTilde = text.indexOf(tilde, i);
      if (nextCaret === -1 && nextTilde === -1) return;
      i =
        nextCaret === -1
          ? nextTilde
          : nextTilde === -1
            ? nextCaret
            : Math.min(nextCaret, nextTilde);
    }
    step(state, text.charAt(i));
  }
}

function step(s: ZplState, ch: string): void {
  switch (s.mode) {
    case 'params':
    case 'data':
      if (ch === s.caret || ch === s.tilde) {
        s.mode = 'name';
        s.name = ch === s.caret ? '^' : '~';
        s.hex = null;
      }
      return;
    case 'name':
      // ZPL ignores line breaks in the command stream.
      if (ch === '\r' || ch === '\n') return;
      s.name += ch.toUpperCase();
      if (s.name.length === 3) command(s, s.name);
      return;
    case 'fh':
      if (ch === '\r' || ch === '\n') return;
      s.fh = ch === s.caret || ch === s.tilde ? '_' : ch;
      s.mode = 'params';
      if (ch === s.caret || ch === s.tilde) step(s, ch);
      return;
    case 'cc':
    case 'ct':
      if (ch === '\r' || ch === '\n') return;
      if (s.mode === 'cc') s.caret = ch;
      else s.tilde = ch;
      s.mode = 'params';
      return;
  }
}

function command(s: ZplState, name: string): void {
  const code = name.slice(1);
  s.commands?.push(name);
  s.name = '';
  s.mode = 'params';
  if (name === '^FD' || name === '^FV') {
    s.mode = 'data';
    s.hex = s.fh;
  } else if (name === '^FS') {
    s.fh = null;
  } else if (name === '^FH') {
    s.mode = 'fh';
  } else if (code === 'CC') {
    s.mode = 'cc';
  } else if (code === 'CT') {
    s.mode = 'ct';
  } else if (name === '^XZ') {
    s.fh = null;
  }
}

/** Why a value cannot stand at this point, or undefined when it can. */
export function zplValueProblem(s: ZplState): string | undefined {
  switch (s.mode) {
    case 'name':
      return 'a value cannot be part of a ZPL command name; write the command in the template';
    case 'fh':
      return 'a value cannot be the ^FH indicator; write the indicator in the template';
    case 'cc':
    case 'ct':
      return 'a value cannot set the ZPL caret or tilde; write ^CC/^CT in the template';
    default:
      return undefined;
  }
}

function charClass(chars: string[]): string {
  return [...new Set(chars)]
    .map((c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
    .join('');
}

function hexOf(ch: string, indicator: string): string {
  let out = '';
  for (const byte of Buffer.from(ch, 'utf8')) {
    out += indicator + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

const escapers = new Map<string, (text: string) => string>();

/**
 * The escaper for a value at scanner state `s`: hex codes in ^FH field data, removal elsewhere.
 * Escapers are shared between tags with the same caret, tilde and indicator.
 */
export function zplEscaper(s: ZplState): (text: string) => string {
  const hex = s.mode === 'data' ? s.hex : null;
  const key = `${s.caret}${s.tilde}${hex ?? ''}`;
  let escaper = escapers.get(key);
  if (escaper !== undefined) return escaper;
  const special = ['^', '~', s.caret, s.tilde, ...(hex === null ? [] : [hex])];
  const source = `[\\u0000-\\u001f\\u007f${charClass(special)}]`;
  const test = new RegExp(source);
  const all = new RegExp(source, 'g');
  escaper =
    hex === null
      ? (text) => (test.test(text) ? text.replace(all, '') : text)
      : (text) => (test.test(text) ? text.replace(all, (c) => hexOf(c, hex)) : text);
  escapers.set(key, escaper);
  return escaper;
}

/**
 * The command names of ZPL text in order (`^XA`, `^FO`, `^FD`, …), following ^CC/^CT. Tests use
 * it to check that values did not add commands.
 */
export function zplCommands(text: string): string[] {
  const commands: string[] = [];
  scanZpl({ ...initialZplState(), commands }, text);
  return commands;
}
