/**
 * The template engine: mustache-style templates rendered into ZPL, EPL, receipt JSON or HTML with
 * every value escaped for its place (spec "Template", rules 1 and 2). Pure: no I/O, no clock.
 *
 *     renderTemplate('^XA^FO20,20^FH^FD{{name}}^FS^XZ', { name: 'A^B' }, 'zpl')
 *     // '^XA^FO20,20^FH^FDA_5EB^FS^XZ'
 */
import type { ReceiptDocument } from '../receipt/schema.js';
import { TemplateCache } from './cache.js';
import { compileNodes, outputTooLarge, RenderState } from './compile.js';
import { positionAt, TemplateError } from './errors.js';
import { tokenize } from './lexer.js';
import {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_MAX_TEMPLATE_BYTES,
  TEMPLATE_TYPES,
  type CompileOptions,
  type RenderOptions,
  type TemplateType,
} from './limits.js';
import { parse } from './parser.js';
import { compileReceiptChecker } from './receipt-build.js';
import { checkReceipt } from './receipt-check.js';

export { TemplateError, type TemplatePosition } from './errors.js';
export { TemplateCache, type TemplateCacheOptions } from './cache.js';
export { zplCommands } from './zpl.js';
export {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_MAX_TEMPLATE_BYTES,
  DEFAULT_TEMPLATE_CACHE_MAX_CHARS,
  DEFAULT_TEMPLATE_CACHE_MAX_TEMPLATE_CHARS,
  DEFAULT_TEMPLATE_CACHE_SIZE,
  TEMPLATE_TYPES,
  type CompileOptions,
  type RenderOptions,
  type TemplateType,
} from './limits.js';

/** A parsed template: compile once, render many times. */
export interface CompiledTemplate {
  readonly type: TemplateType;
  readonly id: string | undefined;
  readonly version: string | number | undefined;
  /**
   * Fills the template with `data`. Receipts must then be a valid receipt document (TemplateError
   * naming the line and column if not; the document is built from the data where the template
   * allows, else parsed from the text). Throws TemplateError for data the template cannot render.
   */
  render(data: unknown, options?: RenderOptions): string;
  /** Like `render` but without the receipt document check (identical for other types). */
  renderText(data: unknown, options?: RenderOptions): string;
}

/** Options of `compileTemplate`, with the cache compiled templates are kept in. */
export interface TemplateOptions extends CompileOptions {
  /**
   * Where compiled templates are cached, by type, text, limits, id and version; default: one
   * shared LRU (DEFAULT_TEMPLATE_CACHE_SIZE templates, see TemplateCache for its other bounds).
   */
  cache?: TemplateCache<CompiledTemplate>;
}

const defaultCache = new TemplateCache<CompiledTemplate>();

/** How each compiled receipt template renders its document (renderReceiptDocument). */
const documentRenderers = new WeakMap<
  CompiledTemplate,
  (data: unknown, options?: RenderOptions) => { text: string; document: ReceiptDocument }
>();

function isTemplateType(type: unknown): type is TemplateType {
  return (TEMPLATE_TYPES as readonly unknown[]).includes(type);
}

function limit(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a whole number >= 0`);
  return v;
}

function build(content: string, type: TemplateType, options: CompileOptions): CompiledTemplate {
  const maxTemplateBytes = limit(
    'maxTemplateBytes',
    options.maxTemplateBytes,
    DEFAULT_MAX_TEMPLATE_BYTES,
  );
  const maxDepth = limit('maxDepth', options.maxDepth, DEFAULT_MAX_DEPTH);
  const defaultMaxOutput = limit(
    'maxOutputBytes',
    options.maxOutputBytes,
    DEFAULT_MAX_OUTPUT_BYTES,
  );
  // Each UTF-16 unit is one to three UTF-8 bytes, so the bytes are only counted when the length
  // alone cannot tell.
  if (
    content.length > maxTemplateBytes ||
    (content.length * 3 > maxTemplateBytes && Buffer.byteLength(content, 'utf8') > maxTemplateBytes)
  ) {
    throw new TemplateError(
      `the template is ${Buffer.byteLength(content, 'utf8')} bytes, more than the limit of ${maxTemplateBytes} bytes (maxTemplateBytes)`,
    );
  }
  const nodes = parse(content, tokenize(content), maxDepth);
  const op = compileNodes(content, nodes, type);
  const checkDocument =
    type === 'receipt'
      ? compileReceiptChecker(nodes, (offset) => () => positionAt(content, offset))
      : undefined;

  const renderText = (data: unknown, renderOptions: RenderOptions = {}): string => {
    const max = limit('maxOutputBytes', renderOptions.maxOutputBytes, defaultMaxOutput);
    const st = new RenderState(data, max);
    op(st);
    const out = st.out;
    if (out.length > max || (out.length * 3 > max && Buffer.byteLength(out, 'utf8') > max)) {
      throw outputTooLarge(max);
    }
    return out;
  };
  // The document of a receipt: built from the data and validated as it is built when the
  // builder follows the template and the document is plainly valid (the same document as
  // parsing and validating the text, for less), else parsed and validated from the text, which
  // also words what is wrong.
  const renderDocument = (data: unknown, renderOptions?: RenderOptions) => {
    const text = renderText(data, renderOptions); // its limits and data errors come first
    const checked = checkDocument?.(new RenderState(data, Infinity));
    return { text, document: checked ?? checkReceipt(text) };
  };
  // Frozen: a compiled template may be shared through the cache, so nobody may change it.
  const compiled: CompiledTemplate = Object.freeze({
    type,
    id: options.id,
    version: options.version,
    renderText,
    render:
      type === 'receipt'
        ? (data: unknown, renderOptions?: RenderOptions) => renderDocument(data, renderOptions).text
        : renderText,
  });
  if (type === 'receipt') documentRenderers.set(compiled, renderDocument);
  return compiled;
}

/** The cache key of everything but the text: type, limits, id and version. */
function variantOf(type: TemplateType, options: CompileOptions): string {
  const { id, version, maxDepth, maxTemplateBytes, maxOutputBytes } = options;
  if (
    id === undefined &&
    version === undefined &&
    maxDepth === undefined &&
    maxTemplateBytes === undefined &&
    maxOutputBytes === undefined
  ) {
    return type;
  }
  // JSON keeps 1 and "1" apart, and no value can reach into the next.
  return JSON.stringify([type, id, version, maxDepth, maxTemplateBytes, maxOutputBytes]);
}

/**
 * Compiles `content` for `type`. The result is cached (bounded LRU, `options.cache`) under the
 * text, the type, the limits, the id and the version, so the same template is parsed once, named
 * or not; texts longer than the cache's `maxTemplateChars` are compiled every time, and a
 * template that fails to compile is not cached. Throws TemplateError naming the
 * line and column for a template that cannot compile (unclosed or mismatched section, bad tag,
 * unknown type, a value where ZPL needs a command name, too large, nested too deeply).
 */
export function compileTemplate(
  content: string,
  type: TemplateType,
  options: TemplateOptions = {},
): CompiledTemplate {
  if (!isTemplateType(type)) {
    throw new TemplateError(
      `unknown template type "${String(type)}": expected one of ${TEMPLATE_TYPES.join(', ')}`,
    );
  }
  if (typeof content !== 'string') throw new TemplateError('the template content is not text');
  const cache = options.cache ?? defaultCache;
  return cache.getOrCreate(variantOf(type, options), content, () => build(content, type, options));
}

/**
 * Renders `content` with `data` for a printer language. Values are escaped for the type (rule 2)
 * so they can never become printer commands; receipts must come out as a valid receipt document.
 * Throws TemplateError (a PrintwireError with code INVALID_JOB) for a template that cannot
 * compile or data it cannot render.
 *
 * @param options.id, options.version name a stored template (see compileTemplate)
 * @param options.maxTemplateBytes default DEFAULT_MAX_TEMPLATE_BYTES (2 MiB)
 * @param options.maxDepth default DEFAULT_MAX_DEPTH (32 nested sections)
 * @param options.maxOutputBytes default DEFAULT_MAX_OUTPUT_BYTES (10 MiB)
 */
export function renderTemplate(
  content: string,
  data: unknown,
  type: TemplateType,
  options: TemplateOptions = {},
): string {
  return compileTemplate(content, type, options).render(data);
}

/** Renders a receipt template and returns the validated receipt document. */
export function renderReceiptDocument(
  content: string,
  data: unknown,
  options: TemplateOptions = {},
): ReceiptDocument {
  const compiled = compileTemplate(content, 'receipt', options);
  return documentRenderers.get(compiled)!(data).document;
}
