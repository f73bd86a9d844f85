/**
 * The ESC/POS interpreter: one pass over the bytes, each step reading one command (a printable
 * byte, a control byte, or a prefixed command with its parameters) and applying it to the printer.
 * Every step consumes at least one byte, so any input ends; nothing here does I/O.
 */
import { ESC_HANDLERS, ESC_NOT_RENDERED, ESC_SILENT, type Handler } from './commands-esc.js';
import { GS_HANDLERS, GS_NOT_RENDERED, GS_SILENT } from './commands-gs.js';
import { DLE_HANDLERS, FS_HANDLERS, FS_LENGTHS, isDleCommand } from './commands-other.js';
import { Printer } from './printer.js';
import { ByteReader, commandName, hex } from './reader.js';
import {
  DEFAULT_MAX_HEIGHT,
  DEFAULT_MAX_WARNINGS,
  PAPER_DOTS,
  type InterpretOptions,
  type PrintedPage,
} from './types.js';
import { WarningLog } from './warnings.js';

const ESC = 0x1b;
const GS = 0x1d;
const FS = 0x1c;
const DLE = 0x10;

interface CommandSet {
  handlers: Record<number, Handler>;
  silent: Record<number, number>;
  notRendered: Record<number, [number, string]>;
}

const SETS: Record<number, CommandSet> = {
  [ESC]: { handlers: ESC_HANDLERS, silent: ESC_SILENT, notRendered: ESC_NOT_RENDERED },
  [GS]: { handlers: GS_HANDLERS, silent: GS_SILENT, notRendered: GS_NOT_RENDERED },
  [FS]: { handlers: FS_HANDLERS, silent: FS_LENGTHS, notRendered: {} },
};

/** Runs one prefixed command; the reader is positioned after the prefix. */
function prefixed(r: ByteReader, p: Printer, prefix: number): void {
  const code = r.bytes[r.pos];
  if (code === undefined) {
    r.warn(`${commandName(prefix, 0).split(' ')[0]} at the end of the data without a command`);
    return;
  }
  r.pos++;
  r.command = commandName(prefix, code);
  const set = SETS[prefix]!;
  const handler = set.handlers[code];
  if (handler) return handler(r, p);
  const silent = set.silent[code];
  if (silent !== undefined) return void r.take(silent);
  const notRendered = set.notRendered[code];
  if (notRendered) {
    r.take(notRendered[0]);
    return r.warn(`${notRendered[1]} is not drawn: skipped`);
  }
  // Unknown: only the prefix and the command byte are skipped; what follows prints as data.
  r.warn(`unknown command ${r.command} (0x${hex(prefix)} 0x${hex(code)}): skipped 2 bytes`);
}

function step(r: ByteReader, p: Printer): void {
  const byte = r.bytes[r.pos]!;
  r.start = r.pos;
  if (byte >= 0x20) {
    r.pos++;
    p.printByte(byte);
    return;
  }
  r.pos++;
  switch (byte) {
    case 0x0a: // LF
      return p.printLine();
    case 0x0c: // FF: in standard mode, prints the line like LF
      if (!p.atLineStart) p.printLine();
      return;
    case 0x09: // HT
      return p.tab();
    case 0x0d: // CR: ignored (auto line feed off)
    case 0x00: // NUL: padding
    case 0x18: // CAN: cancels page mode data
      return;
    case ESC:
    case GS:
    case FS:
      return prefixed(r, p, byte);
    case DLE:
      if (isDleCommand(r.bytes[r.pos])) {
        const code = r.bytes[r.pos++]!;
        r.command = commandName(DLE, code);
        return DLE_HANDLERS[code]!(r, p);
      }
      return;
    default:
      r.warn(`control byte 0x${hex(byte)} ignored`);
  }
}

/**
 * Interprets ESC/POS bytes the way a thermal receipt printer prints them and returns the page:
 * a 1-bit bitmap 384 (58 mm) or 576 (80 mm) dots wide, and what was printed where.
 * Never throws on malformed input: unknown commands are skipped and reported in `warnings`.
 */
export function interpretEscpos(bytes: Uint8Array, options: InterpretOptions): PrintedPage {
  const width = PAPER_DOTS[options.paper];
  if (width === undefined) throw new TypeError(`paper must be 58mm or 80mm, not ${options.paper}`);
  const warnings = new WarningLog(options.maxWarnings ?? DEFAULT_MAX_WARNINGS);
  const printer = new Printer(width, options.maxHeight ?? DEFAULT_MAX_HEIGHT, warnings);
  const reader = new ByteReader(bytes, warnings);
  while (reader.pos < bytes.length && !printer.stopped) step(reader, printer);
  printer.finish();
  const height = Math.max(1, printer.y);
  return {
    width,
    height,
    pixels: printer.canvas.rows(height),
    textRuns: printer.textRuns,
    graphics: printer.graphics,
    cuts: printer.cuts,
    drawerPulses: printer.drawerPulses,
    statusRequests: printer.statusRequests,
    warnings: warnings.list(),
  };
}
