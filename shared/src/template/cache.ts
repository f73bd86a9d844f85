/**
 * A bounded LRU of compiled templates, keyed by the template's text and a variant (its type, its
 * limits and, for stored templates, its id and version), so that rendering the same text in a
 * loop parses it once whether or not the caller names it.
 */
import { createHash } from 'node:crypto';
import {
  DEFAULT_TEMPLATE_CACHE_MAX_CHARS,
  DEFAULT_TEMPLATE_CACHE_MAX_TEMPLATE_CHARS,
  DEFAULT_TEMPLATE_CACHE_SIZE,
} from './limits.js';

interface Entry<T> {
  readonly textKey: string;
  readonly variant: string;
  readonly content: string;
  readonly value: T;
  newer: Entry<T> | undefined;
  older: Entry<T> | undefined;
}

// Up to this length a template's text is its own key. Longer texts are keyed by a digest: V8
// hashes long strings by little more than their length, so many long texts of one length would
// share a bucket and every lookup would compare them all (a cheap way to slow the cache down).
const TEXT_KEY_MAX_CHARS = 1024;

function positive(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`${name} must be a whole number >= ${min}`);
  }
  return value;
}

export interface TemplateCacheOptions {
  /** Compiled templates kept at most; default DEFAULT_TEMPLATE_CACHE_SIZE (1000). */
  maxEntries?: number;
  /**
   * Longest template text (UTF-16 units) that is cached; a longer one is compiled every time.
   * Default DEFAULT_TEMPLATE_CACHE_MAX_TEMPLATE_CHARS (256 Ki).
   */
  maxTemplateChars?: number;
  /** Total text of all cached templates; default DEFAULT_TEMPLATE_CACHE_MAX_CHARS (16 Mi). */
  maxTotalChars?: number;
}

export class TemplateCache<T> {
  readonly maxEntries: number;
  readonly maxTemplateChars: number;
  readonly maxTotalChars: number;
  /** text key → variant → entry */
  readonly #entries = new Map<string, Map<string, Entry<T>>>();
  #newest: Entry<T> | undefined;
  #oldest: Entry<T> | undefined;
  #size = 0;
  #totalChars = 0;
  // The last long text looked up and its digest: a caller rendering one text in a loop hashes
  // it once (comparing two strings is far cheaper than hashing one).
  #lastText = '';
  #lastKey = '';

  constructor({
    maxEntries = DEFAULT_TEMPLATE_CACHE_SIZE,
    maxTemplateChars = DEFAULT_TEMPLATE_CACHE_MAX_TEMPLATE_CHARS,
    maxTotalChars = DEFAULT_TEMPLATE_CACHE_MAX_CHARS,
  }: TemplateCacheOptions = {}) {
    this.maxEntries = positive('maxEntries', maxEntries, 1);
    this.maxTemplateChars = positive('maxTemplateChars', maxTemplateChars, 0);
    this.maxTotalChars = positive('maxTotalChars', maxTotalChars, 0);
  }

  /** Compiled templates cached now. */
  get size(): number {
    return this.#size;
  }

  /** Template text (UTF-16 units) cached now. */
  get totalChars(): number {
    return this.#totalChars;
  }

  /**
   * The value cached for exactly this `content` and `variant`, else `create()`'s, cached unless
   * the text is longer than `maxTemplateChars`. A `create` that throws caches nothing.
   */
  getOrCreate(variant: string, content: string, create: () => T): T {
    const cacheable =
      content.length <= this.maxTemplateChars && content.length <= this.maxTotalChars;
    if (!cacheable) return create();
    const textKey = this.#keyOf(content);
    const hit = this.#entries.get(textKey)?.get(variant);
    if (hit !== undefined && hit.content === content) {
      this.#touch(hit);
      return hit.value;
    }
    const value = create();
    if (hit !== undefined) this.#remove(hit);
    this.#add({ textKey, variant, content, value, newer: undefined, older: undefined });
    return value;
  }

  clear(): void {
    this.#entries.clear();
    this.#newest = this.#oldest = undefined;
    this.#size = this.#totalChars = 0;
  }

  #keyOf(content: string): string {
    if (content.length <= TEXT_KEY_MAX_CHARS) return content;
    if (content === this.#lastText) return this.#lastKey;
    const key = createHash('sha256').update(content).digest('base64');
    this.#lastText = content;
    this.#lastKey = key;
    return key;
  }

  #touch(entry: Entry<T>): void {
    if (entry === this.#newest) return;
    this.#unlink(entry);
    this.#link(entry);
  }

  #add(entry: Entry<T>): void {
    let variants = this.#entries.get(entry.textKey);
    if (variants === undefined) {
      variants = new Map();
      this.#entries.set(entry.textKey, variants);
    }
    variants.set(entry.variant, entry);
    this.#link(entry);
    this.#size++;
    this.#totalChars += entry.content.length;
    while (
      this.#oldest !== undefined &&
      (this.#size > this.maxEntries || this.#totalChars > this.maxTotalChars)
    ) {
      this.#remove(this.#oldest);
    }
  }

  #remove(entry: Entry<T>): void {
    const variants = this.#entries.get(entry.textKey);
    if (variants?.get(entry.variant) === entry) {
      variants.delete(entry.variant);
      if (variants.size === 0) this.#entries.delete(entry.textKey);
    }
    this.#unlink(entry);
    this.#size--;
    this.#totalChars -= entry.content.length;
  }

  #link(entry: Entry<T>): void {
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest !== undefined) this.#newest.newer = entry;
    this.#newest = entry;
    if (this.#oldest === undefined) this.#oldest = entry;
  }

  #unlink(entry: Entry<T>): void {
    if (entry.newer !== undefined) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    if (entry.older !== undefined) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    entry.newer = entry.older = undefined;
  }
}
