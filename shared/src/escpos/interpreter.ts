/**
 * The ESC/POS interpreter: a state machine over the byte stream. Each step reads one command (a
 * printable byte, a control byte, or a prefixed command with its parameters) and applies it to the
 * printer; a command split across chunks waits for the rest. Every step consumes at least one
 * byte, so any input ends; nothing here does I/O.
 */
import { ESC_HANDLERS, ESC_NOT_RENDERED, ESC_SILENT, type Handler } from './commands-esc.js';
import { GS_HANDLERS, GS_NOT_RENDERED, GS_SILENT } from './commands-gs.js';
import { DLE_HANDLERS, FS_HANDLERS, FS_LENGTHS, isDleCommand } from './commands-other.js';
import { PrintwireError } from '../errors/index.js';
import { Printer } from './printer.js';
import { ByteReader, NEED_MORE, commandName, hex } from './reader.js';
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
  if (code === undefined && !r.final) throw NEED_MORE;
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
      if (r.pos === r.bytes.length && !r.final) throw NEED_MORE;
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
 * An interpreter fed in chunks: `write` as bytes arrive, `end` for the printed page. A command
 * split between chunks is completed by the next one; at `end`, whatever is cut off is reported.
 */
export class EscposInterpreter {
  private readonly warnings: WarningLog;
  private readonly printer: Printer;
  private pending: Uint8Array = new Uint8Array(0);
  /** Offset in the stream of pending[0]. */
  private consumed = 0;
  private ended = false;

  constructor(readonly options: InterpretOptions) {
    ({ printer: this.printer, warnings: this.warnings } = createPrinter(options));
  }

  write(chunk: Uint8Array): void {
    if (this.ended) throw new PrintwireError('INTERNAL', 'EscposInterpreter: write after end');
    if (this.pending.length === 0) this.run(chunk, false);
    else {
      const bytes = new Uint8Array(this.pending.length + chunk.length);
      bytes.set(this.pending);
      bytes.set(chunk, this.pending.length);
      this.run(bytes, false);
    }
  }

  end(): PrintedPage {
    if (!this.ended) {
      this.ended = true;
      this.run(this.pending, true);
      this.printer.finish();
    }
    return printedPage(this.printer, this.warnings);
  }

  private run(bytes: Uint8Array, final: boolean): void {
    const reader = new ByteReader(bytes, this.warnings, this.consumed, final);
    while (reader.pos < bytes.length && !this.printer.stopped) {
      const start = reader.pos;
      try {
        step(reader, this.printer);
      } catch (e) {
        if (e !== NEED_MORE) throw e;
        reader.pos = start; // the command is read again when more bytes come
        break;
      }
    }
    if (this.printer.stopped) reader.pos = bytes.length;
    this.consumed += reader.pos;
    // A copy: the caller may reuse its chunk's memory.
    this.pending = reader.pos === bytes.length ? new Uint8Array(0) : bytes.slice(reader.pos);
  }
}

/**
 * A blank page and print mechanism for the options, with its warning log (any printer
 * language draws through these). Throws VALIDATION_FAILED for a paper other than 58mm or 80mm.
 */
export function createPrinter(options: InterpretOptions): {
  printer: Printer;
  warnings: WarningLog;
} {
  const width = PAPER_DOTS[options.paper];
  if (width === undefined) {
    throw new PrintwireError(
      'VALIDATION_FAILED',
      `paper must be 58mm or 80mm, not ${options.paper}`,
    );
  }
  const warnings = new WarningLog(options.maxWarnings ?? DEFAULT_MAX_WARNINGS);
  const printer = new Printer(
    width,
    options.maxHeight ?? DEFAULT_MAX_HEIGHT,
    warnings,
    options.cutMarks ?? true,
  );
  return { printer, warnings };
}

/** The page a printer printed, with the warnings of its interpretation (any printer language). */
export function printedPage(printer: Printer, warnings: WarningLog): PrintedPage {
  const height = Math.max(1, printer.y);
  return {
    width: printer.paperWidth,
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

/**
 * Interprets ESC/POS bytes the way a thermal receipt printer prints them and returns the page:
 * a 1-bit bitmap 384 (58 mm) or 576 (80 mm) dots wide, and what was printed where.
 * Never throws on malformed input: unknown commands are skipped and reported in `warnings`.
 */
export function interpretEscpos(bytes: Uint8Array, options: InterpretOptions): PrintedPage {
  const interpreter = new EscposInterpreter(options);
  interpreter.write(bytes);
  return interpreter.end();
}
