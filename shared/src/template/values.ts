/**
 * Rule 1 of the spec: how a data value becomes text before escaping, and which values count as
 * true for sections.
 */
import { TemplateError, type TemplatePosition } from './errors.js';

/** The tag a value is printed for, to name it in errors. */
export interface TagRef {
  name: string;
  offset: number;
  at: () => TemplatePosition;
}

/** A value a tag prints: missing → undefined; functions count as missing. */
export function isMissing(value: unknown): value is null | undefined {
  return value === undefined || value === null || typeof value === 'function';
}

/**
 * Rule 1: missing prints nothing; numbers, true and false as in JSON; objects and lists as JSON.
 * Numbers that JSON cannot write (NaN, Infinity) print nothing, as JSON would write null.
 */
export function toText(value: unknown, tag: TagRef): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : '';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      return value === null ? '' : toJson(value, tag);
    default:
      return '';
  }
}

/** JSON of an object or list; cyclic or too deeply nested data is a TemplateError. */
export function toJson(value: object, tag: TagRef): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch (error) {
    const why = error instanceof RangeError ? 'is nested too deeply' : 'refers to itself';
    throw new TemplateError(`the value of "${tag.name}" ${why} to print as JSON`, tag.at(), {
      cause: error,
    });
  }
}

/** Sections show for true, non-empty strings and non-zero numbers; lists and objects decide apart. */
export function isTruthy(value: unknown): boolean {
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'string':
      return value.length > 0;
    case 'number':
      return value !== 0 && !Number.isNaN(value);
    case 'bigint':
      return value !== 0n;
    default:
      return false;
  }
}
