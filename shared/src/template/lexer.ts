/**
 * Turns template text into tokens: literal text and tags. Applies mustache's standalone-line
 * rule: a line holding only whitespace and one section, inverted, close or comment tag leaves no
 * trace (its indentation and line break go), so ZPL and receipt templates come out clean.
 */
import { TemplateError, positionAt } from './errors.js';

export type TagKind = 'var' | 'raw' | 'open' | 'inverted' | 'close' | 'comment';

export interface TextToken {
  kind: 'text';
  text: string;
  offset: number;
}

export interface TagToken {
  kind: TagKind;
  /** The name as written, trimmed (`customer.name`, `.`, `@index`); empty for comments. */
  name: string;
  /** Offset of the opening `{{` in the template. */
  offset: number;
}

export type Token = TextToken | TagToken;

const NAME = /^(?:\.|@index|@first|@last|[^\s.{}#^/!&=>][^\s{}]*)$/;

function fail(source: string, offset: number, reason: string): never {
  throw new TemplateError(reason, positionAt(source, offset));
}

function readTag(source: string, start: number): { token: TagToken; end: number } {
  if (source.charCodeAt(start + 2) === 123 /* { */) {
    const close = source.indexOf('}}}', start + 3);
    if (close === -1) fail(source, start, 'unclosed tag "{{{": no "}}}" follows');
    return { token: tag(source, start, 'raw', source.slice(start + 3, close)), end: close + 3 };
  }
  const close = source.indexOf('}}', start + 2);
  if (close === -1) fail(source, start, 'unclosed tag "{{": no "}}" follows');
  const body = source.slice(start + 2, close);
  const end = close + 2;
  const sigil = body.trimStart().charAt(0);
  const rest = body.trimStart().slice(1);
  switch (sigil) {
    case '!':
      return { token: { kind: 'comment', name: '', offset: start }, end };
    case '#':
      return { token: tag(source, start, 'open', rest), end };
    case '^':
      return { token: tag(source, start, 'inverted', rest), end };
    case '/':
      return { token: tag(source, start, 'close', rest), end };
    case '&':
      return { token: tag(source, start, 'raw', rest), end };
    case '>':
      return fail(source, start, 'partials ({{> name}}) are not supported');
    case '=':
      return fail(source, start, 'changing delimiters ({{=<% %>=}}) is not supported');
    default:
      return { token: tag(source, start, 'var', body), end };
  }
}

function tag(source: string, offset: number, kind: TagKind, body: string): TagToken {
  const name = body.trim();
  if (name === '') fail(source, offset, 'empty tag: a name is missing between the braces');
  if (!NAME.test(name) || (name !== '.' && name.split('.').includes(''))) {
    fail(source, offset, `invalid name "${name}" in tag`);
  }
  return { kind, name, offset };
}

/** Splits `source` into text and tag tokens, applying the standalone-line rule. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < source.length) {
    const open = source.indexOf('{{', pos);
    const textEnd = open === -1 ? source.length : open;
    pushText(tokens, source, pos, textEnd);
    if (open === -1) break;
    const { token, end } = readTag(source, open);
    tokens.push(token);
    pos = end;
  }
  return mergeText(stripStandalone(tokens));
}

/** Text tokens are split after each line break so that lines can be judged token by token. */
function pushText(tokens: Token[], source: string, from: number, to: number): void {
  let start = from;
  while (start < to) {
    const nl = source.indexOf('\n', start);
    const end = nl === -1 || nl >= to ? to : nl + 1;
    tokens.push({ kind: 'text', text: source.slice(start, end), offset: start });
    start = end;
  }
}

const STANDALONE = new Set<TagKind>(['open', 'inverted', 'close', 'comment']);
const BLANK = /^[ \t]*(?:\r?\n)?$/;

function stripStandalone(tokens: Token[]): Token[] {
  const out: Token[] = [];
  let lineStart = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const endsLine = i === tokens.length - 1 || (t.kind === 'text' && t.text.endsWith('\n'));
    if (!endsLine) continue;
    const line = tokens.slice(lineStart, i + 1);
    const tags = line.filter((x) => x.kind !== 'text');
    const standalone =
      tags.length === 1 &&
      STANDALONE.has(tags[0]!.kind) &&
      line.every((x) => x.kind !== 'text' || BLANK.test(x.text));
    if (standalone) out.push(tags[0]!);
    else out.push(...line);
    lineStart = i + 1;
  }
  return out;
}

function mergeText(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (t.kind === 'text' && last?.kind === 'text') last.text += t.text;
    else out.push(t.kind === 'text' ? { ...t } : t);
  }
  return out;
}
