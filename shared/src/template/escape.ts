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
const JSON_SPECIAL = /["\\\u0000-\u001f\u007f\ud800-\udfff]/;

/** Receipt, inside a JSON string: the value as JSON string content (JSON.stringify minus quotes). */
export function escapeJsonString(text: string): string {
  if (!JSON_SPECIAL.test(text)) return text;
  const json = JSON.stringify(text.replace(RECEIPT_CONTROL_ALL, ''));
  return json.slice(1, -1);
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Receipt, outside a JSON string (`"size": {{size}}`): a string that is a JSON number prints as
 * that number, any other string as a quoted JSON string. Either way the value is exactly one
 * JSON value and can never add keys or blocks.
 */
export function escapeJsonValueText(text: string): string {
  return JSON_NUMBER.test(text) ? text : JSON.stringify(text.replace(RECEIPT_CONTROL_ALL, ''));
}
