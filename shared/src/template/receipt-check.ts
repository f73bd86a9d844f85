/**
 * The last step of a receipt render: the text must parse as JSON and validate as a receipt
 * document, or the render fails (never half a receipt).
 */
import { validateReceiptDocument, type ReceiptDocument } from '../receipt/schema.js';
import { TemplateError, positionAt } from './errors.js';
import { findJsonError } from './json-error.js';
import { locateJsonPath, parsePath } from './json-locate.js';

/** Parses and validates rendered receipt text; throws TemplateError naming what is wrong. */
export function checkReceipt(text: string): ReceiptDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const found = findJsonError(text);
    const near =
      found === undefined
        ? ''
        : JSON.stringify(text.slice(Math.max(0, found.offset - 20), found.offset + 20));
    throw new TemplateError(
      found === undefined
        ? 'the rendered receipt is not JSON'
        : `the rendered receipt is not JSON: expected ${found.expected} near ${near} (is a value missing?)`,
      found === undefined ? undefined : positionAt(text, found.offset),
      { inOutput: true, cause: error },
    );
  }
  const result = validateReceiptDocument(parsed);
  if (!result.ok) {
    const shown = result.issues.slice(0, 5).map((i) => i.message);
    const more = result.issues.length > 5 ? ` (and ${result.issues.length - 5} more)` : '';
    const first = result.issues[0];
    const at = first === undefined ? undefined : locateJsonPath(text, parsePath(first.path));
    throw new TemplateError(
      `the rendered receipt is not a valid receipt document: ${shown.join('; ')}${more}`,
      at === undefined ? undefined : positionAt(text, at),
      { issues: result.issues, inOutput: true },
    );
  }
  return result.document;
}
