/** A bounded LRU of compiled templates by type, id and version. */
import { DEFAULT_TEMPLATE_CACHE_SIZE } from './limits.js';

export class TemplateCache<T> {
  readonly #entries = new Map<string, { content: string; value: T }>();
  readonly maxEntries: number;

  /** @param maxEntries default DEFAULT_TEMPLATE_CACHE_SIZE (1000) */
  constructor({ maxEntries = DEFAULT_TEMPLATE_CACHE_SIZE }: { maxEntries?: number } = {}) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive integer');
    }
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The value cached under `key` for exactly this `content`, else `create()`'s, cached. The
   * content is compared so that a caller reusing a version for changed text still gets it right.
   */
  getOrCreate(key: string, content: string, create: () => T): T {
    const hit = this.#entries.get(key);
    if (hit !== undefined && hit.content === content) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value;
    }
    const value = create();
    this.#entries.delete(key);
    this.#entries.set(key, { content, value });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
