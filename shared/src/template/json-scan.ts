/**
 * Receipt templates are JSON text. This scanner reads the template's literal JSON to know, for
 * each tag, whether it sits inside a JSON string (value written as string content) or between
 * tokens (value written as one JSON value).
 */

export type JsonState = 'value' | 'string' | 'escape';

/** Advances over literal template text. */
export function scanJson(state: JsonState, text: string): JsonState {
  let s = state;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (s === 'escape') s = 'string';
    else if (s === 'string') {
      if (c === 92 /* \ */) s = 'escape';
      else if (c === 34 /* " */) s = 'value';
    } else if (c === 34) s = 'string';
  }
  return s;
}
