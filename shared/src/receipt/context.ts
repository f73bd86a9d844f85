/** What every block encoder works with: the output, the text encoder, the page and the printer. */
import type { CodepageEncoder } from '../codepage/index.js';
import type { PrinterProfile } from '../printers/index.js';
import type { CommandList } from './printer-commands.js';

/** The page the document is laid out on. */
export interface PageGeometry {
  paper: '58mm' | '80mm';
  dots: number;
  charsA: number;
  charsB: number;
}

export interface EncodeContext {
  out: CommandList;
  /** Whether the language prints CJK in the printer's own font (ESC/POS Kanji mode). */
  nativeCjk: boolean;
  text: CodepageEncoder;
  page: PageGeometry;
  profile: PrinterProfile;
  /** Adds a warning; the same warning text is only added once. */
  warn(message: string): void;
  resolveImage: ((url: string) => Uint8Array | undefined) | undefined;
}
