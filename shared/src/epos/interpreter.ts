/**
 * The ePOS-Print XML interpreter: what an Epson TM printer prints from an `<epos-print>`
 * document (Server Direct Print's PrintData), drawn by the virtual printer's print mechanism.
 * Elements apply in order; an element or attribute the reference does not list, or one the
 * preview does not draw, is reported in `warnings`. A document that is not well-formed XML or
 * whose root is not `<epos-print>` in Epson's namespace prints nothing and says why.
 */
import { createPrinter, printedPage } from '../escpos/interpreter.js';
import type { InterpretOptions, PrintedPage } from '../escpos/types.js';
import { DOCUMENTED, ELEMENT_HANDLERS, type EposContext } from './elements.js';
import { parseXml, XmlError, type XmlElement } from './xml.js';

export const EPOS_PRINT_NAMESPACE = 'http://www.epson-pos.com/schemas/2011/03/epos-print';

function apply(ctx: EposContext, el: XmlElement): void {
  const documented = DOCUMENTED[el.name];
  if (documented === undefined) {
    return ctx.warnings.add(`<${el.name}> is not an ePOS-Print element: skipped`);
  }
  for (const attr of el.attributes.keys()) {
    if (!documented.includes(attr))
      ctx.warnings.add(`<${el.name} ${attr}> is not an ePOS-Print attribute: ignored`);
  }
  if (el.children.some((c) => typeof c !== 'string')) {
    ctx.warnings.add(`<${el.name}> holds elements: they are ignored`);
  }
  const handler = ELEMENT_HANDLERS[el.name];
  if (handler) handler(ctx, el);
  else ctx.warnings.add(`<${el.name}> is not drawn: skipped`);
}

/**
 * Interprets an ePOS-Print XML document (UTF-8 bytes) the way a TM printer prints it and returns
 * the page: a 1-bit bitmap 384 (58 mm) or 576 (80 mm) dots wide, and what was printed where.
 */
export function interpretEposXml(bytes: Uint8Array, options: InterpretOptions): PrintedPage {
  const { printer, warnings } = createPrinter(options);
  const ctx: EposContext = { printer, warnings };
  let root: XmlElement | undefined;
  try {
    root = parseXml(Buffer.from(bytes).toString('utf8'));
  } catch (e) {
    if (!(e instanceof XmlError)) throw e;
    warnings.add(`not well-formed XML: ${e.message}; nothing printed`);
  }
  if (root && root.name !== 'epos-print') {
    warnings.add(`the root element is <${root.name}>, not <epos-print>: nothing printed`);
  } else if (root && root.attributes.get('xmlns') !== EPOS_PRINT_NAMESPACE) {
    warnings.add(`<epos-print> is not in the namespace ${EPOS_PRINT_NAMESPACE}: nothing printed`);
  } else if (root) {
    for (const child of root.children) {
      if (typeof child !== 'string') apply(ctx, child);
      else if (child.trim() !== '') warnings.add('text outside <text> is not printed');
      if (printer.stopped) break;
    }
  }
  printer.finish();
  return printedPage(printer, warnings);
}
