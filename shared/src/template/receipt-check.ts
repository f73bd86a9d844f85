/**
 * The last step of a receipt render: the text must parse as JSON and validate as a receipt
 * document, or the render fails (never half a receipt).
 */
import { validateReceiptDocument, type ReceiptDocument } from '../receipt/schema.js';
import { TemplateError, positionAt } from './errors.js';

/** Parses and validates rendered receipt text; throws TemplateError naming what is wrong. */
export function checkReceipt(text: string): ReceiptDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const match = /position (\d+)/.exec(message);
    const offset = match === null ? undefined : Number(match[1]);
    throw new TemplateError(
      `the rendered receipt is not JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
      offset === undefined ? undefined : positionAt(text, offset),
      { inOutput: true, cause: error },
    );
  }
  const result = validateReceiptDocument(parsed);
  if (!result.ok) {
    const shown = result.issues.slice(0, 5).map((i) => i.message);
    const more = result.issues.length > 5 ? ` (and ${result.issues.length - 5} more)` : '';
    throw new TemplateError(
      `the rendered receipt is not a valid receipt document: ${shown.join('; ')}${more}`,
      undefined,
      { issues: result.issues },
    );
  }
  return result.document;
}
