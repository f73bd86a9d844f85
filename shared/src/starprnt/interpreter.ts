/**
 * The StarPRNT interpreter: a state machine over the bytes a Star printer receives (CloudPRNT's
 * application/vnd.star.starprnt), drawn by the virtual printer's print mechanism (escpos/): each
 * step reads one command (a printable byte, a control byte, or an ESC command with its
 * parameters) and applies it. Every step consumes at least one byte, so any input ends; nothing
 * here does I/O, and nothing throws on malformed input: unknown commands are skipped and reported.
 */
import { createPrinter, printedPage } from '../escpos/interpreter.js';
import type { Printer } from '../escpos/printer.js';
import { ByteReader, hex } from '../escpos/reader.js';
import type { InterpretOptions, PrintedPage } from '../escpos/types.js';
import { ESC_HANDLERS, starDefaults, type StarSettings } from './commands.js';

const ESC = 0x1b;
const BEL = 0x07;
const SUB = 0x1a;

function step(r: ByteReader, p: Printer, star: StarSettings): void {
  const byte = r.bytes[r.pos]!;
  r.start = r.pos;
  r.pos++;
  if (byte >= 0x20) return p.printByte(byte);
  switch (byte) {
    case 0x0a: // LF
      return p.printLine();
    case 0x09: // HT
      return p.tab();
    case 0x0d: // CR: ignored (LF prints the line)
    case 0x00:
    case 0x18: // CAN
      return;
    case BEL:
      return p.pulseDrawer(2, star.pulseOnMs, star.pulseOffMs);
    case SUB:
      return p.pulseDrawer(5, star.pulseOnMs, star.pulseOffMs);
    case ESC: {
      const code = r.bytes[r.pos];
      if (code === undefined) return r.warn('ESC at the end of the data without a command');
      r.pos++;
      r.command = `ESC ${code > 0x20 && code < 0x7f ? String.fromCharCode(code) : `0x${hex(code)}`}`;
      const handler = ESC_HANDLERS[code];
      if (handler) return handler(r, p, star);
      return r.warn(`unknown command ${r.command} (0x1B 0x${hex(code)}): skipped 2 bytes`);
    }
    default:
      r.warn(`control byte 0x${hex(byte)} ignored`);
  }
}

/**
 * Interprets StarPRNT bytes the way a Star receipt printer prints them and returns the page: a
 * 1-bit bitmap 384 (58 mm) or 576 (80 mm) dots wide, and what was printed where.
 */
export function interpretStarprnt(bytes: Uint8Array, options: InterpretOptions): PrintedPage {
  const { printer, warnings } = createPrinter(options);
  const star = starDefaults();
  const reader = new ByteReader(bytes, warnings);
  while (reader.pos < bytes.length && !printer.stopped) step(reader, printer, star);
  printer.finish();
  return printedPage(printer, warnings);
}
