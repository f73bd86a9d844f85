/** The printer languages a receipt is encoded in, and the code page each lays text out in. */
import type { CodepageName } from '../../codepage/index.js';
import type { PrinterLanguage } from '../printer-commands.js';
import { eposXmlLanguage } from './epos-xml.js';
import { escposLanguage } from './escpos.js';
import type { PrinterLanguageEncoder } from './language.js';
import { rasterLanguage } from './raster.js';
import { starprntLanguage } from './starprnt.js';
import { STAR_CODEPAGES } from './starprnt-commands.js';

export const LANGUAGE_ENCODERS: Record<PrinterLanguage, PrinterLanguageEncoder> = {
  escpos: escposLanguage,
  starprnt: starprntLanguage,
  'epos-xml': eposXmlLanguage,
  raster: rasterLanguage,
};

/** Star has no CP850 or ISO-8859-15: their nearest Star code pages. */
const STAR_SUBSTITUTES: Partial<Record<CodepageName, CodepageName>> = {
  CP850: 'CP858',
  'ISO-8859-15': 'CP1252',
};

/**
 * The code page text is laid out in for a language: the chosen one, except on Star printers
 * where a code page Star lacks is replaced by its nearest Star one (CP850 → CP858,
 * ISO-8859-15 → CP1252).
 */
export function layoutCodepage(language: PrinterLanguage, codepage: CodepageName): CodepageName {
  if (language !== 'starprnt' || STAR_CODEPAGES[codepage] !== undefined) return codepage;
  return STAR_SUBSTITUTES[codepage] ?? 'CP437';
}

export type { LanguageJob, PrinterLanguageEncoder } from './language.js';
