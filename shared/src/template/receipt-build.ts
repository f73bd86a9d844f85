/**
 * A receipt template compiled a second time, to build the document itself: the JSON a render
 * would print, as the objects JSON.parse would make of it, without printing and parsing it again
 * (parsing cost more than rendering). The template's literal JSON is tokenised once when it is
 * compiled; a render feeds those tokens and the data's values to a small JSON state machine.
 *
 * It only ever builds what JSON.parse would make of the rendered text, or gives up: a template
 * whose literal text it does not follow is not built at all, and a render it cannot follow (a
 * missing comma, a raw value that is not one JSON value, …) returns undefined; the caller then
 * parses the text as before, which also words the error. receipt-build.test.ts compares the two.
 *
 * Renders check the document as they build it (compileReceiptChecker, one pass): a block object
 * whose "type" and keys are written in the template is made directly in its validated form, by
 * validate-fast.ts's rules for that type, and the document's own check then takes those blocks
 * as they are. Anything those rules do not accept gives up too, and the text is parsed and
 * validated by the zod schema, which words every issue. receipt-checker.test.ts compares the one
 * pass with validating the rendered text.
 */
import type { ReceiptDocument } from '../receipt/schema.js';
import {
  blockFields,
  refusedByFastCheck,
  validatePlainDocument,
} from '../receipt/validate-fast.js';
import { isJsonNumber, withoutControls } from './escape.js';
import { isPlainName, lookup, type RenderState } from './compile.js';
import type { TemplateNode } from './parser.js';
import { isMissing, isTruthy, toJson, toText, type TagRef } from './values.js';

/** Thrown to give up on a render; never escapes this file. */
const GIVE_UP = Symbol('give up');
function giveUp(): never {
  throw GIVE_UP;
}

// Where the document is: what may come next in the innermost container.
const ARRAY_FIRST = 0; // after `[`: a value or `]`
const ARRAY_NEXT = 1; // after a value: `,` or `]`
const ARRAY_VALUE = 2; // after `,`: a value
const OBJECT_FIRST = 3; // after `{`: a key or `}`
const OBJECT_COLON = 4;
const OBJECT_VALUE = 5;
const OBJECT_NEXT = 6; // after a value: `,` or `}`
const OBJECT_KEY = 7; // after `,`: a key

/** The document being built: a JSON parser fed tokens instead of text. */
class Builder {
  readonly containers: Array<Record<string, unknown> | unknown[]> = [];
  readonly states: number[] = [];
  readonly keys: string[] = [];
  root: unknown = undefined;
  hasRoot = false;
  text: string | undefined = undefined;
  /** The blocks checked as they were made, in the order made (see compileReceiptChecker). */
  readonly checked: unknown[] = [];

  /** A complete value (or a key, where a key belongs and the value is a string). */
  put(value: unknown): void {
    const depth = this.states.length - 1;
    if (depth < 0) {
      if (this.hasRoot) giveUp();
      this.root = value;
      this.hasRoot = true;
      return;
    }
    switch (this.states[depth]) {
      case ARRAY_FIRST:
      case ARRAY_VALUE:
        (this.containers[depth] as unknown[]).push(value);
        this.states[depth] = ARRAY_NEXT;
        return;
      case OBJECT_FIRST:
      case OBJECT_KEY:
        // JSON.parse makes an own "__proto__"; assigning one would change the prototype.
        if (typeof value !== 'string' || value === '__proto__') giveUp();
        this.keys[depth] = value;
        this.states[depth] = OBJECT_COLON;
        return;
      case OBJECT_VALUE:
        (this.containers[depth] as Record<string, unknown>)[this.keys[depth]!] = value;
        this.states[depth] = OBJECT_NEXT;
        return;
      default:
        giveUp();
    }
  }

  open(container: Record<string, unknown> | unknown[]): void {
    const depth = this.states.length - 1;
    if (depth < 0) {
      if (this.hasRoot) giveUp();
    } else {
      const state = this.states[depth];
      if (state !== ARRAY_FIRST && state !== ARRAY_VALUE && state !== OBJECT_VALUE) giveUp();
    }
    this.containers.push(container);
    this.states.push(Array.isArray(container) ? ARRAY_FIRST : OBJECT_FIRST);
    this.keys.push('');
  }

  close(array: boolean): void {
    const state = this.states[this.states.length - 1];
    const ok = array
      ? state === ARRAY_FIRST || state === ARRAY_NEXT
      : state === OBJECT_FIRST || state === OBJECT_NEXT;
    if (!ok) giveUp();
    const container = this.containers.pop();
    this.states.pop();
    this.keys.pop();
    this.put(container);
  }

  /** A complete value followed by a comma: the usual item of a list, in one step. */
  item(value: unknown): void {
    const depth = this.states.length - 1;
    const state = this.states[depth];
    if (state === ARRAY_FIRST || state === ARRAY_VALUE) {
      (this.containers[depth] as unknown[]).push(value);
      this.states[depth] = ARRAY_VALUE;
      return;
    }
    this.put(value);
    this.comma();
  }

  colon(): void {
    const depth = this.states.length - 1;
    if (this.states[depth] !== OBJECT_COLON) giveUp();
    this.states[depth] = OBJECT_VALUE;
  }

  comma(): void {
    const depth = this.states.length - 1;
    const state = this.states[depth];
    if (state === ARRAY_NEXT) this.states[depth] = ARRAY_VALUE;
    else if (state === OBJECT_NEXT) this.states[depth] = OBJECT_KEY;
    else giveUp();
  }
}

type BuildOp = (st: RenderState, b: Builder) => void;

// Tokens of literal text, as found when compiling.
const T_OPEN_OBJECT = 0;
const T_CLOSE_OBJECT = 1;
const T_OPEN_ARRAY = 2;
const T_CLOSE_ARRAY = 3;
const T_COLON = 4;
const T_COMMA = 5;
const T_VALUE = 6; // a whole literal: a string, number, true, false or null
const T_STRING_START = 7;
const T_STRING_PART = 8; // part of a string that holds values
const T_STRING_END = 9;

/** Tokenises literal template text; undefined where it cannot follow the text. */
class Lexer {
  inString = false;

  /** The tokens of `text`, continuing from the state the previous text left. */
  tokens(text: string): { kinds: number[]; values: unknown[] } | undefined {
    const kinds: number[] = [];
    const values: unknown[] = [];
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.inString) {
        const end = stringEnd(text, i);
        if (end === undefined) return undefined;
        const part = decode(text.slice(i, end));
        if (part === undefined) return undefined;
        if (part !== '') {
          kinds.push(T_STRING_PART);
          values.push(part);
        }
        if (end === n) return { kinds, values };
        kinds.push(T_STRING_END);
        values.push(undefined);
        this.inString = false;
        i = end + 1;
        continue;
      }
      const c = text[i]!;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        i++;
        continue;
      }
      const punctuation = PUNCTUATION[c];
      if (punctuation !== undefined) {
        kinds.push(punctuation);
        values.push(undefined);
        i++;
        continue;
      }
      if (c === '"') {
        const end = stringEnd(text, i + 1);
        if (end === undefined) return undefined;
        const value = decode(text.slice(i + 1, end));
        if (value === undefined) return undefined;
        if (end === n) {
          // The string goes on after a tag.
          kinds.push(T_STRING_START);
          values.push(undefined);
          if (value !== '') {
            kinds.push(T_STRING_PART);
            values.push(value);
          }
          this.inString = true;
          return { kinds, values };
        }
        kinds.push(T_VALUE);
        values.push(value);
        i = end + 1;
        continue;
      }
      LITERAL.lastIndex = i;
      const m = LITERAL.exec(text);
      if (m === null) return undefined;
      kinds.push(T_VALUE);
      values.push(JSON.parse(m[0]));
      i += m[0].length;
    }
    return { kinds, values };
  }
}

const PUNCTUATION: Record<string, number> = {
  '{': T_OPEN_OBJECT,
  '}': T_CLOSE_OBJECT,
  '[': T_OPEN_ARRAY,
  ']': T_CLOSE_ARRAY,
  ':': T_COLON,
  ',': T_COMMA,
};
// A literal ends where the next token can start; anything else (`truex`, `1.`) is not followed.
const LITERAL =
  /(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)(?=[\s,:\]}[{"]|$)/y;

/**
 * Where the string that goes on at `from` ends (the offset of its closing quote), or the text's
 * length when it goes on after the text; undefined when the text ends inside an escape.
 */
function stringEnd(text: string, from: number): number | undefined {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) return i;
    if (c === 92 /* \ */) {
      if (text[i + 1] === 'u') i += 5;
      else i += 1;
      if (i >= text.length) return undefined;
    }
  }
  return text.length;
}

/** String content as JSON.parse reads it, or undefined when JSON.parse would refuse it. */
function decode(content: string): string | undefined {
  if (!content.includes('\\') && !/[\u0000-\u001f]/.test(content)) return content;
  try {
    return JSON.parse(`"${content}"`) as string;
  } catch {
    return undefined;
  }
}

function literal(kinds: number[], values: unknown[]): BuildOp {
  const n = kinds.length;
  return (_st, b) => {
    for (let i = 0; i < n; i++) {
      switch (kinds[i]) {
        case T_OPEN_OBJECT:
          b.open({});
          break;
        case T_CLOSE_OBJECT:
          b.close(false);
          break;
        case T_OPEN_ARRAY:
          b.open([]);
          break;
        case T_CLOSE_ARRAY:
          b.close(true);
          break;
        case T_COLON:
          b.colon();
          break;
        case T_COMMA:
          b.comma();
          break;
        case T_VALUE:
          b.put(values[i]);
          break;
        case T_STRING_START:
          b.text = '';
          break;
        case T_STRING_PART:
          b.text += values[i] as string;
          break;
        case T_STRING_END: {
          const text = b.text;
          b.text = undefined;
          b.put(text);
        }
      }
    }
  };
}

const UNSAFE_IN_STRING = /["\\\u0000-\u001f]/;
const JSON_SPACE = /^[ \t\n\r]*$/;

/** What a value tag between JSON tokens printed when it printed nothing. */
const NOTHING = Symbol('nothing');
type Make = (st: RenderState, b: Builder) => unknown;

/** A value tag inside a JSON string: the string content JSON.parse reads back from it. */
function stringPart(name: string, raw: boolean, tag: TagRef): (st: RenderState) => string {
  const get = lookup(name);
  if (raw) {
    return (st) => {
      const v = get(st);
      const text = typeof v === 'string' ? v : toText(v, tag);
      if (UNSAFE_IN_STRING.test(text)) giveUp();
      return text;
    };
  }
  const print = (v: unknown) => {
    if (typeof v === 'string') return withoutControls(v);
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
    return isMissing(v) ? '' : withoutControls(toText(v, tag));
  };
  if (!isPlainName(name)) return (st) => print(get(st));
  // lookup's loop and the string case in one call, for the usual tag
  return (st) => {
    const stack = st.stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const ctx = stack[i];
      if (typeof ctx === 'object' && ctx !== null) {
        const v = (ctx as Record<string, unknown>)[name];
        if (v !== undefined) return typeof v === 'string' ? withoutControls(v) : print(v);
      }
    }
    return '';
  };
}

/** A value tag between JSON tokens: the value JSON.parse reads back from it, or NOTHING. */
function tokenValue(name: string, raw: boolean, tag: TagRef): Make {
  const get = lookup(name);
  if (raw) {
    return (st) => {
      const v = get(st);
      const text = typeof v === 'string' ? v : toText(v, tag);
      if (JSON_SPACE.test(text)) return NOTHING; // only JSON's own whitespace, if anything
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return giveUp();
      }
    };
  }
  return (st) => {
    const v = get(st);
    switch (typeof v) {
      case 'string':
        return isJsonNumber(v) ? Number(v) : withoutControls(v);
      case 'number':
        // Printed as String(v): -0 reads back as 0; NaN and Infinity print nothing.
        return Number.isFinite(v) ? (v === 0 ? 0 : v) : NOTHING;
      case 'boolean':
        return v;
      case 'bigint':
        return Number(v.toString());
      case 'object':
        return v === null ? NOTHING : toJson(v, tag);
      default:
        return NOTHING; // missing, functions and symbols print nothing
    }
  };
}

// Items of a run of text and value tags (no section between them), before they become ops.
const I_HOLE = 10; // a value tag between tokens: make
const I_PART = 11; // a value tag inside a string: part
const I_MADE = 12; // a whole value (string with values, object, array): make

interface Item {
  kind: number;
  value?: unknown;
  make?: Make;
  part?: (st: RenderState) => string;
}

const isValue = (item: Item) =>
  item.kind === T_VALUE || item.kind === I_MADE || item.kind === I_HOLE;
const makerOf = (item: Item): Make => {
  if (item.kind === T_VALUE) {
    const v = item.value;
    return () => v;
  }
  const make = item.make!;
  if (item.kind === I_MADE) return make;
  return (st, b) => {
    const v = make(st, b);
    return v === NOTHING ? giveUp() : v; // `[{{a}}]` with a missing: rare, left to the text
  };
};

/** A string opened and closed within the run, with values in it: one item that makes it. */
function joinStrings(items: Item[]): Item[] {
  const out: Item[] = [];
  for (let i = 0; i < items.length; i++) {
    if (items[i]!.kind !== T_STRING_START) {
      out.push(items[i]!);
      continue;
    }
    let end = i + 1;
    while (end < items.length && items[end]!.kind !== T_STRING_END) end++;
    if (end === items.length) {
      out.push(...items.slice(i));
      break;
    }
    // texts[0] part[0] texts[1] part[1] … texts[n]
    const texts = [''];
    const parts: Array<(st: RenderState) => string> = [];
    for (const p of items.slice(i + 1, end)) {
      if (p.kind === I_PART) {
        parts.push(p.part!);
        texts.push('');
      } else {
        texts[texts.length - 1] += p.value as string;
      }
    }
    out.push({ kind: I_MADE, make: joined(texts, parts) });
    i = end;
  }
  return out;
}

/** The string of `texts` with the parts' strings between them (texts has one more). */
function joined(texts: string[], parts: Array<(st: RenderState) => string>): Make {
  const [t0, t1, t2] = texts as [string, string, string?];
  const [p0, p1] = parts;
  if (parts.length === 0) return () => t0;
  if (parts.length === 1) {
    if (t0 === '' && t1 === '') return p0!;
    return (st) => t0 + p0!(st) + t1;
  }
  if (parts.length === 2) return (st) => t0 + p0!(st) + t1 + p1!(st) + t2!;
  return (st) => {
    let text = t0;
    for (let k = 0; k < parts.length; k++) text += parts[k]!(st) + texts[k + 1]!;
    return text;
  };
}

/**
 * The object or array whose items lie between an opening and its closing, if well formed. When
 * `checking`, an object that writes a block's literal "type" and only that block's fields is
 * checked as a receipt block as it is made (validate-fast.ts): it is made in its checked form,
 * with defaults filled in, or the build gives up.
 */
function container(inner: Item[], array: boolean, checking: boolean): Make | undefined {
  if (array) {
    if (inner.length % 2 === 0 && inner.length > 0) return undefined;
    const makers: Make[] = [];
    for (let i = 0; i < inner.length; i++) {
      const item = inner[i]!;
      if (i % 2 === 1 ? item.kind !== T_COMMA : !isValue(item)) return undefined;
      if (i % 2 === 0) makers.push(makerOf(item));
    }
    return (st, b) => {
      const list = new Array<unknown>(makers.length);
      for (let k = 0; k < makers.length; k++) list[k] = makers[k]!(st, b);
      return list;
    };
  }
  // key : value (, key : value)*, with keys written in the template
  if (inner.length > 0 && (inner.length + 1) % 4 !== 0) return undefined;
  const keys: string[] = [];
  const makers: Make[] = [];
  for (let i = 0; i < inner.length; i += 4) {
    const [key, colon, item, comma] = inner.slice(i, i + 4) as [Item, Item, Item, Item?];
    if (key.kind !== T_VALUE || typeof key.value !== 'string' || key.value === '__proto__') {
      return undefined;
    }
    if (colon.kind !== T_COLON || !isValue(item)) return undefined;
    if (comma !== undefined && comma.kind !== T_COMMA) return undefined;
    keys.push(key.value);
    makers.push(makerOf(item));
  }
  if (checking) {
    const block = checkedBlock(keys, inner, makers);
    if (block !== undefined) return block;
  }
  return (st, b) => {
    const object: Record<string, unknown> = {};
    for (let k = 0; k < keys.length; k++) object[keys[k]!] = makers[k]!(st, b);
    return object;
  };
}

/**
 * A block object whose "type" is written in the template and whose other keys are all fields of
 * that type, each once: made as validate-fast.ts checks it, from its fields' values, without the
 * object JSON.parse would make. Undefined for any other object.
 */
function checkedBlock(keys: string[], inner: Item[], makers: Make[]): Make | undefined {
  const typeAt = keys.indexOf('type');
  if (typeAt === -1) return undefined;
  const type = inner[typeAt * 4 + 2]!;
  if (type.kind !== T_VALUE || typeof type.value !== 'string') return undefined;
  const rule = blockFields(type.value);
  if (rule === undefined) return undefined;
  // Fields written as literals are set once, in `base`; the others are made at each render.
  const base = new Array<unknown>(rule.fields.length);
  const seen = new Set<number>();
  const slots: number[] = [];
  const fieldMakers: Make[] = [];
  for (let k = 0; k < keys.length; k++) {
    if (k === typeAt) continue;
    const slot = rule.fields.indexOf(keys[k]!);
    if (slot === -1 || seen.has(slot)) return undefined;
    seen.add(slot);
    const item = inner[k * 4 + 2]!;
    if (item.kind === T_VALUE) {
      base[slot] = item.value; // a string, number, boolean or null
    } else {
      slots.push(slot);
      fieldMakers.push(makers[k]!);
    }
  }
  const make = rule.make; // refuses by throwing: the build gives up (see compileBuild)
  const [m0, m1] = fieldMakers as [Make, Make];
  const [s0, s1] = slots as [number, number];
  // The usual blocks fill one or two fields from the data: for them one array of values serves
  // every render. It is filled only once both values are made (making one can run the data's
  // getters, which could render this template again) and the check keeps nothing of it.
  const shared = base.slice();
  if (fieldMakers.length === 1) {
    return (st, b) => {
      shared[s0] = m0(st, b);
      const block = make(shared);
      b.checked.push(block);
      return block;
    };
  }
  if (fieldMakers.length === 2) {
    return (st, b) => {
      const v0 = m0(st, b);
      const v1 = m1(st, b);
      shared[s0] = v0;
      shared[s1] = v1;
      const block = make(shared);
      b.checked.push(block);
      return block;
    };
  }
  return (st, b) => {
    const values = base.slice();
    for (let k = 0; k < fieldMakers.length; k++) values[slots[k]!] = fieldMakers[k]!(st, b);
    const block = make(values);
    b.checked.push(block);
    return block;
  };
}

/** Objects and arrays whose whole text is in the run become one item that makes them. */
function foldContainers(items: Item[], checking: boolean): Item[] {
  const out: Item[] = [];
  const opens: number[] = []; // indexes in `out` of the openings not yet closed
  for (const item of items) {
    const closing =
      item.kind === T_CLOSE_OBJECT
        ? T_OPEN_OBJECT
        : item.kind === T_CLOSE_ARRAY
          ? T_OPEN_ARRAY
          : -1;
    if (item.kind === T_OPEN_OBJECT || item.kind === T_OPEN_ARRAY) opens.push(out.length);
    if (closing === -1 || opens.length === 0 || out[opens[opens.length - 1]!]!.kind !== closing) {
      if (closing !== -1) opens.length = 0; // closes what another run opened
      out.push(item);
      continue;
    }
    const start = opens.pop()!;
    const make = container(out.slice(start + 1), closing === T_OPEN_ARRAY, checking);
    if (make === undefined) {
      opens.length = 0; // nothing around a malformed container folds either
      out.push(item);
      continue;
    }
    out.length = start;
    out.push({ kind: I_MADE, make });
  }
  return out;
}

/** The ops of a run: literal tokens fed in one go, made values put whole. */
function runOps(items: Item[], checking: boolean): BuildOp[] {
  const ops: BuildOp[] = [];
  let kinds: number[] = [];
  let values: unknown[] = [];
  const flush = () => {
    if (kinds.length > 0) ops.push(literal(kinds, values));
    kinds = [];
    values = [];
  };
  const folded = foldContainers(joinStrings(items), checking);
  for (let i = 0; i < folded.length; i++) {
    const item = folded[i]!;
    if (item.kind < I_HOLE) {
      kinds.push(item.kind);
      values.push(item.value);
      continue;
    }
    flush();
    if (item.kind === I_PART) {
      const part = item.part!;
      ops.push((st, b) => {
        b.text += part(st);
      });
    } else if (folded[i + 1]?.kind === T_COMMA) {
      // A value and its comma (the items of a list, usually) in one step.
      const make = item.make!;
      ops.push((st, b) => {
        const v = make(st, b);
        if (v === NOTHING) b.comma();
        else b.item(v);
      });
      i++;
    } else {
      const make = item.make!;
      ops.push((st, b) => {
        const v = make(st, b);
        if (v !== NOTHING) b.put(v);
      });
    }
  }
  flush();
  return ops;
}

function sequence(ops: BuildOp[]): BuildOp {
  if (ops.length === 1) return ops[0]!;
  return (st, b) => {
    for (let i = 0; i < ops.length; i++) ops[i]!(st, b);
  };
}

/**
 * The ops that build the document of a receipt template's tree, or undefined when its literal
 * text is not JSON the builder follows. `checking`: blocks are checked as they are made.
 */
function compileBuild(
  nodes: TemplateNode[],
  at: (offset: number) => TagRef['at'],
  checking: boolean,
): ((st: RenderState) => Builder | undefined) | undefined {
  const lexer = new Lexer();
  const block = (children: TemplateNode[]): BuildOp | undefined => {
    const ops: BuildOp[] = [];
    let items: Item[] = [];
    for (const node of children) {
      if (node.kind === 'text') {
        const tokens = lexer.tokens(node.text);
        if (tokens === undefined) return undefined;
        for (let i = 0; i < tokens.kinds.length; i++) {
          items.push({ kind: tokens.kinds[i]!, value: tokens.values[i] });
        }
      } else if (node.kind === 'value') {
        const tag = { name: node.name, offset: node.offset, at: at(node.offset) };
        items.push(
          lexer.inString
            ? { kind: I_PART, part: stringPart(node.name, node.raw, tag) }
            : { kind: I_HOLE, make: tokenValue(node.name, node.raw, tag) },
        );
      } else {
        ops.push(...runOps(items, checking));
        items = [];
        const before = lexer.inString;
        const body = block(node.children);
        if (body === undefined || lexer.inString !== before) return undefined;
        ops.push(section(node.name, node.inverted, body));
      }
    }
    ops.push(...runOps(items, checking));
    return sequence(ops);
  };
  const op = block(nodes);
  if (op === undefined || lexer.inString) return undefined;
  return (st) => {
    const b = new Builder();
    try {
      op(st, b);
    } catch (error) {
      // A block the fast check refuses: the text is parsed and zod words what is wrong.
      if (error === GIVE_UP || refusedByFastCheck(error)) return undefined;
      throw error;
    }
    return b.states.length === 0 && b.hasRoot ? b : undefined;
  };
}

/**
 * Compiles a receipt template's tree to build its document (what JSON.parse makes of the
 * rendered text), or returns undefined when its literal text is not JSON the builder follows
 * (the render then parses the text as before). Call only with a tree the text compiler accepted.
 */
export function compileReceiptBuilder(
  nodes: TemplateNode[],
  at: (offset: number) => TagRef['at'],
): ((st: RenderState) => unknown) | undefined {
  const build = compileBuild(nodes, at, false);
  return build && ((st) => build(st)?.root);
}

/**
 * Compiles a receipt template's tree to build its document already validated, in one pass:
 * blocks whose type and keys the template writes are checked as they are made (validate-fast's
 * rules, defaults filled in), and only the rest of the document is checked after. The render
 * returns what validateReceiptDocument returns for the rendered text when it is valid, or
 * undefined when the builder cannot follow it or anything is not plainly valid: the caller then
 * parses and validates the text (receipt-check.ts), which words the error with its line and
 * column. Undefined for a template the builder does not follow.
 */
export function compileReceiptChecker(
  nodes: TemplateNode[],
  at: (offset: number) => TagRef['at'],
): ((st: RenderState) => ReceiptDocument | undefined) | undefined {
  const build = compileBuild(nodes, at, true);
  if (build === undefined) return undefined;
  return (st) => {
    const b = build(st);
    if (b === undefined) return undefined;
    return validatePlainDocument(b.root, b.checked) as ReceiptDocument | undefined;
  };
}

/** A section, as the text compiler runs it (compile.ts), over build ops. */
function section(name: string, inverted: boolean, body: BuildOp): BuildOp {
  const get = lookup(name);
  if (inverted) {
    return (st, b) => {
      const v = get(st);
      const empty = Array.isArray(v) ? v.length === 0 : typeof v !== 'object' && !isTruthy(v);
      if (empty || isMissing(v)) body(st, b);
    };
  }
  return (st, b) => {
    const v = get(st);
    if (Array.isArray(v)) {
      const n = v.length;
      if (n === 0) return;
      const frame = { index: 0, length: n };
      st.loops.push(frame);
      for (let i = 0; i < n; i++) {
        frame.index = i;
        st.stack.push(v[i]);
        body(st, b);
        st.stack.pop();
      }
      st.loops.pop();
    } else if ((typeof v === 'object' && v !== null) || isTruthy(v)) {
      st.stack.push(v);
      body(st, b);
      st.stack.pop();
    }
  };
}
