/**
 * Turns the section tree into render closures. Escaping is chosen per tag at compile time (for
 * ZPL and receipts from the scanner's state at the tag), so a render only looks values up,
 * escapes and concatenates.
 */
import { TemplateError, positionAt, type TemplatePosition } from './errors.js';
import { escapeHtml, escapeJsonString, escapeJsonValueText } from './escape.js';
import { escapeEplParam, escapeEplQuoted, scanEpl, type EplState } from './epl.js';
import { initialJsonState, keyBefore, scanJson } from './json-scan.js';
import type { TemplateType } from './limits.js';
import type { SectionNode, TemplateNode } from './parser.js';
import { isMissing, isTruthy, toJson, toText, type TagRef } from './values.js';
import {
  initialZplState,
  sameZplState,
  scanZpl,
  zplEscaper,
  zplValueProblem,
  type ZplState,
} from './zpl.js';

interface LoopFrame {
  index: number;
  length: number;
}

/** One render's mutable state: the output so far, the context stack and the list positions. */
export class RenderState {
  out = '';
  readonly stack: unknown[];
  readonly loops: LoopFrame[] = [];
  constructor(
    data: unknown,
    /** Output limit in UTF-16 units; each unit is at least one UTF-8 byte, so it is safe early. */
    readonly limit: number,
  ) {
    this.stack = [data];
  }
}

export type Op = (st: RenderState) => void;
type Print = (value: unknown) => string;

/** How a tag prints: any value, and (the fast path) a string value. */
interface Printer {
  print: Print;
  string: (text: string) => string;
}

const same = (text: string) => text;
export type Lookup = (st: RenderState) => unknown;
/** Looks a value up and prints it: one call per tag while rendering. */
type Value = (stack: unknown[], st: RenderState) => string;

/** Thrown when a render grows past its output limit (`maxOutputBytes`). */
export function outputTooLarge(limit: number, at?: TemplatePosition): TemplateError {
  return new TemplateError(
    `the rendered output exceeds the limit of ${limit} bytes (maxOutputBytes)`,
    at,
  );
}

/** The escaping state machine of a template type, walked over the tree in source order. */
interface Escaping {
  text(text: string, offset: number): void;
  printer(tag: TagRef, raw: boolean): Printer;
  snapshot(): unknown;
  same(a: unknown, b: unknown): boolean;
  unbalanced: string;
}

function escaped(escape: (text: string) => string, tag: TagRef): Printer {
  return {
    print: (v) => (typeof v === 'string' ? escape(v) : isMissing(v) ? '' : escape(toText(v, tag))),
    string: escape,
  };
}

function rawPrinter(tag: TagRef): Printer {
  return { print: (v) => (typeof v === 'string' ? v : toText(v, tag)), string: same };
}

/**
 * Receipt, outside a JSON string: numbers and booleans as JSON, strings as a JSON number or a
 * quoted string, objects and lists as their JSON text in a quoted string. An escaped value is
 * always exactly one JSON scalar, so it can never add blocks; `{{{rows}}}` inserts structure.
 */
function receiptValue(tag: TagRef): Printer {
  return {
    print: (v) => {
      if (typeof v === 'string') return escapeJsonValueText(v);
      if (isMissing(v)) return '';
      if (typeof v === 'object') return JSON.stringify(toJson(v, tag));
      return toText(v, tag);
    },
    string: escapeJsonValueText,
  };
}

function escapingFor(type: TemplateType, source: string): Escaping {
  switch (type) {
    case 'html':
      return {
        text: () => undefined,
        printer: (tag, raw) => (raw ? rawPrinter(tag) : escaped(escapeHtml, tag)),
        snapshot: () => null,
        same: () => true,
        unbalanced: '',
      };
    case 'epl': {
      let state: EplState = 'params';
      return {
        text: (text) => {
          state = scanEpl(state, text);
        },
        printer: (tag, raw) => {
          if (state === 'escape') {
            throw new TemplateError('a value cannot follow a backslash in an EPL string', tag.at());
          }
          if (raw) return rawPrinter(tag);
          return escaped(state === 'quoted' ? escapeEplQuoted : escapeEplParam, tag);
        },
        snapshot: () => state,
        same: (a, b) => a === b,
        unbalanced: "must start and end on the same side of an EPL string's quotes",
      };
    }
    case 'zpl': {
      const state: ZplState = initialZplState();
      return {
        text: (text) => scanZpl(state, text),
        printer: (tag, raw) => {
          const problem = zplValueProblem(state);
          if (problem !== undefined) throw new TemplateError(problem, tag.at());
          return raw ? rawPrinter(tag) : escaped(zplEscaper(state), tag);
        },
        snapshot: () => ({ ...state }),
        same: (a, b) => sameZplState(a as ZplState, b as ZplState),
        unbalanced:
          'must leave ZPL as it found it: put ^FD…^FS, ^FH and ^CC/^CT wholly inside or wholly outside the section',
      };
    }
    case 'receipt': {
      const state = initialJsonState();
      return {
        text: (text, offset) => scanJson(state, text, offset),
        printer: (tag, raw) => {
          if (state.mode === 'escape') {
            throw new TemplateError('a value cannot follow a backslash in a JSON string', tag.at());
          }
          if (raw) return rawPrinter(tag);
          const quote = state.mode === 'value' ? tag.offset : state.stringStart;
          if (keyBefore(source, quote) === 'data') {
            throw new TemplateError(
              'a value cannot be written into "data" (the printer bytes of a raw block); use {{{name}}} for trusted bytes',
              tag.at(),
            );
          }
          return state.mode === 'value' ? receiptValue(tag) : escaped(escapeJsonString, tag);
        },
        snapshot: () => state.mode,
        same: (a, b) => a === b,
        unbalanced: "must start and end on the same side of a JSON string's quotes",
      };
    }
  }
}

// Names that objects, lists or functions inherit (`constructor`, `length`, `toString`, …): for
// these only own properties count, so `{{constructor}}` prints nothing. Any other name is read
// directly, which is what makes lookups fast.
const INHERITED = new Set<string>(
  [Object.prototype, Array.prototype, Function.prototype, String.prototype].flatMap((p) =>
    Object.getOwnPropertyNames(p),
  ),
);

type Find = (stack: unknown[]) => unknown;

function finder(key: string): Find {
  if (INHERITED.has(key) || key === '__proto__') {
    return (stack) => {
      for (let i = stack.length - 1; i >= 0; i--) {
        const ctx = stack[i];
        if (typeof ctx === 'object' && ctx !== null && Object.hasOwn(ctx, key)) {
          return (ctx as Record<string, unknown>)[key];
        }
      }
      return undefined;
    };
  }
  return (stack) => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const ctx = stack[i];
      if (typeof ctx === 'object' && ctx !== null) {
        const v = (ctx as Record<string, unknown>)[key];
        if (v !== undefined) return v;
      }
    }
    return undefined;
  };
}

function child(v: unknown, key: string, safe: boolean): unknown {
  if (typeof v !== 'object' || v === null) return undefined;
  if (!safe && !Object.hasOwn(v, key)) return undefined;
  return (v as Record<string, unknown>)[key];
}

/** How a tag's name is looked up in the context stack (and the @-names in the loops). */
export function lookup(name: string): Lookup {
  switch (name) {
    case '.':
      return (st) => st.stack[st.stack.length - 1];
    case '@index':
      return (st) => st.loops[st.loops.length - 1]?.index;
    case '@first':
      return (st) => {
        const f = st.loops[st.loops.length - 1];
        return f === undefined ? undefined : f.index === 0;
      };
    case '@last':
      return (st) => {
        const f = st.loops[st.loops.length - 1];
        return f === undefined ? undefined : f.index === f.length - 1;
      };
  }
  const parts = name.split('.');
  if (isPlainName(name)) {
    // finder's loop, without a second call per lookup
    return (st) => {
      const stack = st.stack;
      for (let i = stack.length - 1; i >= 0; i--) {
        const ctx = stack[i];
        if (typeof ctx === 'object' && ctx !== null) {
          const v = (ctx as Record<string, unknown>)[name];
          if (v !== undefined) return v;
        }
      }
      return undefined;
    };
  }
  const find = finder(parts[0]!);
  if (parts.length === 1) return (st) => find(st.stack);
  const rest = parts
    .slice(1)
    .map((key) => ({ key, safe: !INHERITED.has(key) && key !== '__proto__' }));
  return (st) => {
    let v = find(st.stack);
    for (let i = 0; i < rest.length && v !== undefined; i++)
      v = child(v, rest[i]!.key, rest[i]!.safe);
    return v;
  };
}

/**
 * Whether `name` is one plain name, read directly from the contexts (`lookup`'s usual case): not
 * `.`, dotted, an @-name, nor a name objects inherit.
 */
export function isPlainName(name: string): boolean {
  return (
    name !== '.' &&
    !name.includes('.') &&
    !name.startsWith('@') &&
    !INHERITED.has(name) &&
    name !== '__proto__'
  );
}

/**
 * Fuses lookup and printing. For a plain name whose value is a string (the usual case) the
 * string escaper is called directly; anything else goes through the full printer.
 */
function valueOf(name: string, { print, string: escape }: Printer): Value {
  if (!isPlainName(name)) {
    const get = lookup(name);
    return (_stack, st) => print(get(st));
  }
  return (stack) => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const ctx = stack[i];
      if (typeof ctx === 'object' && ctx !== null) {
        const v = (ctx as Record<string, unknown>)[name];
        if (v !== undefined) return typeof v === 'string' ? escape(v) : print(v);
      }
    }
    return '';
  };
}

function sequence(ops: Op[]): Op {
  if (ops.length === 0) return () => undefined;
  if (ops.length === 1) return ops[0]!;
  if (ops.length === 2) {
    const [a, b] = ops as [Op, Op];
    return (st) => {
      a(st);
      b(st);
    };
  }
  return (st) => {
    for (let i = 0; i < ops.length; i++) ops[i]!(st);
  };
}

/** Compiles the tree of `source` for `type` into one render op. */
export function compileNodes(source: string, nodes: TemplateNode[], type: TemplateType): Op {
  const escaping = escapingFor(type, source);
  const at = (offset: number) => () => positionAt(source, offset);

  const section = (node: SectionNode): Op => {
    const before = escaping.snapshot();
    const body = block(node.children);
    if (!escaping.same(before, escaping.snapshot())) {
      throw new TemplateError(`section "${node.name}" ${escaping.unbalanced}`, at(node.offset)());
    }
    const get = lookup(node.name);
    if (node.inverted) {
      return (st) => {
        const v = get(st);
        const empty = Array.isArray(v) ? v.length === 0 : typeof v !== 'object' && !isTruthy(v);
        if (empty || isMissing(v)) body(st);
      };
    }
    const where = at(node.offset);
    return (st) => {
      const v = get(st);
      if (Array.isArray(v)) {
        const n = v.length;
        if (n === 0) return;
        const frame: LoopFrame = { index: 0, length: n };
        st.loops.push(frame);
        for (let i = 0; i < n; i++) {
          frame.index = i;
          st.stack.push(v[i]);
          body(st);
          st.stack.pop();
          if (st.out.length > st.limit) throw outputTooLarge(st.limit, where());
        }
        st.loops.pop();
      } else if ((typeof v === 'object' && v !== null) || isTruthy(v)) {
        st.stack.push(v);
        body(st);
        st.stack.pop();
      }
    };
  };

  // Consecutive texts and values become one op that builds its piece in a local string: fewer
  // calls and fewer appends to the shared output.
  const run = (texts: string[], values: Value[]): Op => {
    const n = values.length;
    const head = texts[0]!;
    if (n === 0) {
      return (st) => {
        st.out += head;
      };
    }
    if (n === 1) {
      const [t1, value] = [texts[1]!, values[0]!];
      return (st) => {
        st.out += head + value(st.stack, st) + t1;
      };
    }
    return (st) => {
      const stack = st.stack;
      let piece = head;
      for (let i = 0; i < n; i++) piece += values[i]!(stack, st) + texts[i + 1]!;
      st.out += piece;
    };
  };

  const block = (nodes: TemplateNode[]): Op => {
    const ops: Op[] = [];
    let texts: string[] = [''];
    let values: Value[] = [];
    const flush = () => {
      if (values.length > 0 || texts[0] !== '') ops.push(run(texts, values));
      texts = [''];
      values = [];
    };
    for (const node of nodes) {
      if (node.kind === 'text') {
        escaping.text(node.text, node.offset);
        texts[texts.length - 1] += node.text;
      } else if (node.kind === 'value') {
        const tag = { name: node.name, offset: node.offset, at: at(node.offset) };
        values.push(valueOf(node.name, escaping.printer(tag, node.raw)));
        texts.push('');
      } else {
        flush();
        ops.push(section(node));
      }
    }
    flush();
    return sequence(ops);
  };

  return block(nodes);
}
