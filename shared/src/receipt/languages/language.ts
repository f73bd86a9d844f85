/** What every printer language implements: a list of printer-neutral commands in, output out. */
import type { PrinterProfile } from '../../printers/index.js';
import type { PageGeometry } from '../context.js';
import type { PrinterCommand } from '../printer-commands.js';

export interface LanguageJob {
  profile: PrinterProfile;
  page: PageGeometry;
  /** Adds a warning to the report (each text once). */
  warn(message: string): void;
}

/** One printer language: ESC/POS, StarPRNT, ePOS-Print XML or a raster picture. */
export interface PrinterLanguageEncoder {
  encode(commands: readonly PrinterCommand[], job: LanguageJob): Uint8Array;
}
