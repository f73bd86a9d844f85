/**
 * Escapers for HTML and receipts (rule 2). ZPL and EPL have their own scanners (zpl.ts, epl.ts)
 * because what a value may contain there depends on where it sits.
 */

const HTML_SPECIAL = /[&<>"'`=]/;
const HTML_SPECIAL_ALL = /[&<>"'`=]/g;
const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};

/**
 * HTML: & < > " ' ` = become entities (the set handlebars escapes), so a value cannot open a tag
 * or leave a quoted or unquoted attribute. `/` is left alone: without `<` it cannot close a tag.
 */
export function escapeHtml(text: string): string {
  return HTML_SPECIAL.test(text) ? text.replace(HTML_SPECIAL_ALL, (c) => HTML_ENTITIES[c]!) : text;
}

// Control characters other than tab and line feed are removed from receipt values: a receipt
// prints text, and ESC or GS reaching the encoder would be printer commands.
const RECEIPT_CONTROL_ALL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
/**
 * Receipt, inside a JSON string: the value as JSON string content (what JSON.stringify writes
 * between the quotes), without control characters other than tab and line feed. One pass over
 * the text, and none of it copied when nothing needs escaping (the usual case).
 */
export function escapeJsonString(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let replacement: string;
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && c !== 0x7f && (c < 0xd800 || c > 0xdfff)) continue;
    if (c === 0x22) replacement = '\\"';
    else if (c === 0x5c) replacement = '\\\\';
    else if (c === 0x0a) replacement = '\\n';
    else if (c === 0x09) replacement = '\\t';
    else if (c < 0xd800) replacement = '';
    else {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++; // a well-formed surrogate pair stays as it is
        continue;
      }
      // A lone surrogate is written as an escape, as JSON.stringify does.
      replacement = '\\u' + c.toString(16);
    }
    out += text.slice(last, i) + replacement;
    last = i + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Whether `text` is a JSON number (what a receipt value outside a string prints as is). */
export function isJsonNumber(text: string): boolean {
  return JSON_NUMBER.test(text);
}

/** A receipt value's text as JSON.parse reads it back once escaped: without control characters. */
export function withoutControls(text: string): string {
  // A loop over the units: cheaper than a regular expression for the short texts values are.
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue; // printable ASCII, the usual case
    if (c < 0x20 ? c !== 0x09 && c !== 0x0a : c === 0x7f) {
      return text.replace(RECEIPT_CONTROL_ALL, '');
    }
  }
  return text;
}

/**
 * Receipt, outside a JSON string (`"size": {{size}}`): a string that is a JSON number prints as
 * that number, any other string as a quoted JSON string. Either way the value is exactly one
 * JSON value and can never add keys or blocks.
 */
export function escapeJsonValueText(text: string): string {
  return JSON_NUMBER.test(text) ? text : JSON.stringify(text.replace(RECEIPT_CONTROL_ALL, ''));
}
