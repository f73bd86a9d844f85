/**
 * EPL: commands are lines, and text sits in double quotes. A scanner over the template's literal
 * text tells whether each tag is inside quotes: there `"` and `\` get a backslash; outside
 * (parameters such as `P{{copies}}`) they are removed. Line breaks and other control characters
 * are removed everywhere, so a value can never start a new command line.
 */

export type EplState = 'params' | 'quoted' | 'escape';

/** Advances over literal template text. A line break ends any quoted string. */
export function scanEpl(state: EplState, text: string): EplState {
  let s = state;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) s = 'params';
    else if (s === 'escape') s = 'quoted';
    else if (s === 'quoted') {
      if (c === 92 /* \ */) s = 'escape';
      else if (c === 34 /* " */) s = 'params';
    } else if (c === 34) s = 'quoted';
  }
  return s;
}

const SPECIAL = /["\\\u0000-\u001f\u007f]/;
const SPECIAL_ALL = /["\\\u0000-\u001f\u007f]/g;

/** Inside quotes: `"` and `\` get a backslash; line breaks and control characters go. */
export function escapeEplQuoted(text: string): string {
  return SPECIAL.test(text)
    ? text.replace(SPECIAL_ALL, (c) => (c === '"' || c === '\\' ? '\\' + c : ''))
    : text;
}

/** Outside quotes: `"`, `\`, line breaks and control characters are removed. */
export function escapeEplParam(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, '') : text;
}
