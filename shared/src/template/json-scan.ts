/**
 * Receipt templates are JSON text. This scanner reads the template's literal JSON to know, for
 * each tag, whether it sits inside a JSON string (value written as string content) or between
 * tokens (value written as one JSON value), and which key a string belongs to.
 */

export interface JsonState {
  mode: 'value' | 'string' | 'escape';
  /** Offset in the template of the opening quote of the current string. */
  stringStart: number;
}

export function initialJsonState(): JsonState {
  return { mode: 'value', stringStart: -1 };
}

/** Advances over literal template text found at `offset` in the template. */
export function scanJson(state: JsonState, text: string, offset: number): void {
  let mode = state.mode;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (mode === 'escape') mode = 'string';
    else if (mode === 'string') {
      if (c === 92 /* \ */) mode = 'escape';
      else if (c === 34 /* " */) mode = 'value';
    } else if (c === 34) {
      mode = 'string';
      state.stringStart = offset + i;
    }
  }
  state.mode = mode;
}

/** The key whose string value starts at `quote` (`"data": "…`), if the template shows one. */
export function keyBefore(source: string, quote: number): string | undefined {
  const before = source.slice(Math.max(0, quote - 64), quote);
  return /"([A-Za-z]+)"\s*:\s*$/.exec(before)?.[1];
}
