/**
 * Limits of the template engine. Each is an option of `renderTemplate` / `compileTemplate` with the
 * default below, enforced at its edge with a TemplateError.
 */

/** Template types: the printer language the rendered text is for. */
export const TEMPLATE_TYPES = ['zpl', 'epl', 'receipt', 'html'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/**
 * Largest template text, in UTF-8 bytes: 2 MiB, the spec's limit for all of an organization's
 * templates together (the cloud enforces the total; the engine refuses any single larger one).
 */
export const DEFAULT_MAX_TEMPLATE_BYTES = 2 * 1024 * 1024;

/** Largest rendered output, in UTF-8 bytes: 10 MiB. A render that would exceed it fails. */
export const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;

/** Deepest nesting of sections (`{{#a}}{{#b}}…`): 32 levels. */
export const DEFAULT_MAX_DEPTH = 32;

/** Compiled templates kept in the default cache: 1000. */
export const DEFAULT_TEMPLATE_CACHE_SIZE = 1000;

/**
 * Longest template text the cache keeps, in UTF-16 units: 256 Ki (a text larger than any of the
 * gallery's by far). A longer template is compiled on every call and never evicts others.
 */
export const DEFAULT_TEMPLATE_CACHE_MAX_TEMPLATE_CHARS = 256 * 1024;

/** Total text of the templates the cache keeps, in UTF-16 units: 16 Mi. */
export const DEFAULT_TEMPLATE_CACHE_MAX_CHARS = 16 * 1024 * 1024;

/** Options of `compileTemplate` (and of `renderTemplate`, which adds `maxOutputBytes`). */
export interface CompileOptions {
  /** The stored template's id, kept on the compiled template (part of its cache key). */
  id?: string;
  /** The template's version (for example its updatedAt), kept like the id. */
  version?: string | number;
  /** Default DEFAULT_MAX_TEMPLATE_BYTES (2 MiB). */
  maxTemplateBytes?: number;
  /** Default DEFAULT_MAX_DEPTH (32). */
  maxDepth?: number;
  /** Default DEFAULT_MAX_OUTPUT_BYTES (10 MiB); the default for every render of this template. */
  maxOutputBytes?: number;
}

export interface RenderOptions {
  /** Default: the compile option, else DEFAULT_MAX_OUTPUT_BYTES (10 MiB). */
  maxOutputBytes?: number;
}
