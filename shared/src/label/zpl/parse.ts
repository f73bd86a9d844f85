/**
 * ZPL II as a list of commands. A command is its prefix (^ or ~, changeable with ^CC, ~CC, ^CT,
 * ~CT), a two-letter name (`^A` takes one letter and the font's name as the second), and its
 * parameters up to the next prefix. Field data (^FD, ^FV) and comments (^FX) end at the next
 * format prefix only, so a `~` inside them is data. CR and LF between commands are ignored, as the
 * printer ignores them.
 *
 * Two places where a prefix character is not a command, as the printer (and Labelary) reads them:
 * - `^BX`'s seventh parameter is its escape character (`^BXN,6,200,18,18,1,~^FD…`): the control
 *   prefix written there is that parameter's value. A format prefix there still ends the command
 *   (six commas and then a command is far likelier than `^` as an escape character).
 * - A prefix followed at once by another (`^FS^^FT213,175`, a stray `^` from a generator) names no
 *   command: the first is dropped and the second starts the command.
 * `^FH`'s indicator may not be a prefix (the manual excludes them), so `^FH^FD` is `^FH` with its
 * default `_`, then `^FD`.
 */

export interface ZplCommand {
  /** `^XA`, `~DG`, `^A0`: the prefix as written normalised to ^ or ~, the name upper-cased. */
  name: string;
  /** Everything after the name up to the next command. */
  params: string;
}

/** Commands whose parameter text ends only at the next format prefix (^). */
const DATA_COMMANDS = new Set(['FD', 'FV', 'FX']);

export function parseZpl(content: string): ZplCommand[] {
  const commands: ZplCommand[] = [];
  let caret = '^';
  let tilde = '~';
  let i = content.indexOf(caret) < 0 && content.indexOf(tilde) < 0 ? content.length : 0;
  const isPrefix = (c: string | undefined) => c === caret || c === tilde;
  while (i < content.length && !isPrefix(content[i])) i++;
  while (i < content.length) {
    const prefix = content[i] === caret ? '^' : '~';
    i++;
    if (isPrefix(content[i])) continue; // a stray prefix: the next one starts the command
    // Names may be split by line breaks in hand-written files; skip them.
    const nameChars: string[] = [];
    while (i < content.length && nameChars.length < 2) {
      const c = content[i]!;
      if (c === '\r' || c === '\n') {
        i++;
        continue;
      }
      if (nameChars.length === 0 || !(nameChars[0] === 'A' || nameChars[0] === 'a')) {
        nameChars.push(c.toUpperCase());
      } else {
        nameChars.push(c === '@' ? '@' : c.toUpperCase());
      }
      i++;
    }
    const code = nameChars.join('');
    if (prefix === '^' && code === 'GF') {
      const binary = binaryGraphic(content, i);
      if (binary) {
        commands.push({ name: '^GF', params: binary.params });
        i = binary.end;
        while (i < content.length && !isPrefix(content[i])) i++;
        continue;
      }
    }
    if (code === 'CC' || code === 'CT' || code === 'CD') {
      // One character: the new prefix (or delimiter), in force from the next character on.
      while (i < content.length && (content[i] === '\r' || content[i] === '\n')) i++;
      const next = content[i] ?? '';
      i++;
      commands.push({ name: prefix + code, params: next });
      if (code === 'CC' && next) caret = next;
      if (code === 'CT' && next) tilde = next;
      while (i < content.length && !isPrefix(content[i])) i++;
      continue;
    }
    const dataOnly = prefix === '^' && DATA_COMMANDS.has(code);
    const escapeAt = prefix === '^' && code === 'BX' ? BX_ESCAPE_PARAM : -1;
    let end = i;
    while (end < content.length) {
      const c = content[end];
      if (c === tilde && escapeAt >= 0 && isParamStart(content, i, end, escapeAt)) {
        end++;
        continue;
      }
      if (c === caret || (!dataOnly && c === tilde)) break;
      end++;
    }
    let params = content.slice(i, end);
    if (params.includes('\n') || params.includes('\r')) params = params.replace(/[\r\n]/g, '');
    i = end;
    // ^A is one letter; its font name is the next character and part of the name (^A0, ^AB, ^A@).
    commands.push({ name: prefix + code, params });
  }
  return commands;
}

/** ^BX's escape character is its seventh parameter (0-based 6). */
const BX_ESCAPE_PARAM = 6;

/** Whether `at` is the first character of parameter `n` (0-based) of the text from `start`. */
function isParamStart(content: string, start: number, at: number, n: number): boolean {
  if (n === 0) return at === start;
  if (content[at - 1] !== ',') return false;
  let commas = 0;
  for (let k = start; k < at; k++) if (content[k] === ',') commas++;
  return commas === n;
}

/**
 * ^GFB (and C): the data is `b` raw bytes that may hold any character, the prefixes included,
 * unless the count would swallow the end of the format (see below).
 */
function binaryGraphic(
  content: string,
  start: number,
): { params: string; end: number } | undefined {
  const m = /^\s*([BC])\s*,\s*(\d+)\s*,[^,^~]*,[^,^~]*,/.exec(content.slice(start, start + 64));
  if (!m) return undefined;
  const dataStart = start + m[0].length;
  let end = Math.min(content.length, dataStart + Number(m[2]));
  // A count running past the end of the format (the data's bytes were lost on the way): the
  // printer would wait for bytes that never come and print nothing. Labelary ends the data at
  // `^FS` and draws the rest of the label; so do we, only there (a count that ends inside the
  // format is kept, whatever the bytes are).
  if (end === content.length || /\^XZ/i.test(content.slice(dataStart, end))) {
    const fs = content.slice(dataStart, end).search(/\^FS/i);
    if (fs >= 0) end = dataStart + fs;
  }
  return { params: content.slice(start, end), end };
}

/** Splits a parameter list on commas (empty strings for parameters left out). */
export function splitParams(params: string): string[] {
  return params.split(',').map((p) => p.trim());
}
