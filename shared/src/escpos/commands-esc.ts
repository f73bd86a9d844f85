/** ESC commands: each handler reads its parameters from the reader (the ESC x is consumed). */
import { INTERNATIONAL_SETS, characterTable } from './charsets.js';
import { bitImage } from './images.js';
import type { Printer } from './printer.js';
import type { ByteReader } from './reader.js';
import { DEFAULT_LINE_SPACING } from './state.js';

export type Handler = (r: ByteReader, p: Printer) => void;

const ALIGNMENTS = ['left', 'center', 'right'] as const;

/** Commands that print nothing and change nothing the preview shows: skipped by their length. */
export const ESC_SILENT: Record<number, number> = {
  0x3c: 0, // ESC <  return home
  0x3d: 1, // ESC =  select peripheral device
  0x3f: 1, // ESC ?  cancel user-defined character
  0x53: 0, // ESC S  select standard mode
  0x55: 1, // ESC U  unidirectional printing
  0x63: 2, // ESC c  paper sensors, panel buttons
  0x72: 1, // ESC r  print colour
  0x42: 2, // ESC B  beeper (clones)
};

/** Commands of features the preview does not draw: skipped by their length with a warning. */
export const ESC_NOT_RENDERED: Record<number, [number, string]> = {
  0x25: [1, 'user-defined characters (ESC %)'],
  0x4c: [0, 'page mode (ESC L)'],
  0x0c: [0, 'page mode printing (ESC FF)'],
  0x54: [1, 'page mode print direction (ESC T)'],
  0x57: [8, 'page mode print area (ESC W)'],
  0x65: [1, 'reverse feed (ESC e)'],
  0x4b: [1, 'reverse feed (ESC K)'],
};

function flag(n: number): boolean {
  return (n & 1) === 1;
}

export const ESC_HANDLERS: Record<number, Handler> = {
  // ESC SP n: right-side character spacing
  0x20: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.state.charSpacing = n;
  },
  // ESC ! n: print mode (font, emphasized, double height/width, underline)
  0x21: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    const s = p.state;
    s.font = n & 0x01 ? 'B' : 'A';
    s.emphasized = (n & 0x08) !== 0;
    s.heightMul = n & 0x10 ? 2 : 1;
    s.widthMul = n & 0x20 ? 2 : 1;
    s.underline = n & 0x80 ? 1 : 0;
  },
  // ESC $ nL nH: absolute horizontal position
  0x24: (r, p) => {
    const b = r.take(2);
    if (b) p.moveTo(b[0]! + b[1]! * 256);
  },
  // ESC & y c1 c2 [x d…]…: define user-defined characters (not drawn; skipped by its length)
  0x26: (r) => {
    const head = r.take(3);
    if (!head) return;
    const [y, c1, c2] = head as unknown as [number, number, number];
    for (let c = c1; c <= c2; c++) {
      const x = r.byte();
      if (x === undefined) return;
      r.data(x * y);
    }
    r.warn('user-defined characters (ESC &) are not drawn');
  },
  0x2a: (r, p) => bitImage(r, p),
  // ESC - n: underline 0, 1 or 2 dots
  0x2d: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    const v = n >= 48 ? n - 48 : n;
    p.state.underline = v === 1 ? 1 : v === 2 ? 2 : 0;
  },
  0x32: (_r, p) => {
    p.state.lineSpacing = DEFAULT_LINE_SPACING;
  },
  0x33: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.state.lineSpacing = n;
  },
  0x40: (_r, p) => p.reset(),
  // ESC D n1 … nk NUL: tab stops in characters (of the current font and width)
  0x44: (r, p) => {
    const list = r.untilNul(32);
    if (!list) {
      r.warn('ESC D without its closing NUL: tab stops unchanged');
      r.pos = r.bytes.length;
      return;
    }
    const s = p.state;
    const charWidth = ((s.font === 'A' ? 12 : 9) + s.charSpacing) * s.widthMul;
    const stops: number[] = [];
    for (const n of list) {
      if (stops.length > 0 && n * charWidth <= stops.at(-1)!) break; // must ascend
      stops.push(n * charWidth);
    }
    s.tabStops = stops;
  },
  0x45: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.state.emphasized = flag(n);
  },
  0x47: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.state.doubleStrike = flag(n);
  },
  // ESC J n: print and feed n dots
  0x4a: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.printLine(n);
  },
  // ESC M n: font A (0, 48) or B (1, 49; 2, 50 for font C is drawn as B)
  0x4d: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    const v = n >= 48 ? n - 48 : n;
    p.state.font = v === 0 ? 'A' : 'B';
  },
  // ESC R n: international character set (12 ASCII positions print other characters)
  0x52: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    if (INTERNATIONAL_SETS[n]) p.state.international = n;
    else r.warn(`international character set ${n} (ESC R) is unknown: ignored`);
  },
  // ESC V n: 90° rotation
  0x56: (r) => {
    const n = r.byte();
    if (n !== undefined && (n & 0x0f) !== 0)
      r.warn('90° rotated characters (ESC V) are drawn upright');
  },
  // ESC \ nL nH: relative horizontal position (signed)
  0x5c: (r, p) => {
    const b = r.take(2);
    if (!b) return;
    let d = b[0]! + b[1]! * 256;
    if (d >= 0x8000) d -= 0x10000;
    p.moveTo(p.position + d);
  },
  // ESC a n: justification; like a printer, only at the beginning of a line
  0x61: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    const v = n >= 48 ? n - 48 : n;
    const align = ALIGNMENTS[v];
    if (!align) return r.warn(`ESC a ${n} is not a justification: ignored`);
    if (!p.atLineStart)
      return r.warn('ESC a in the middle of a line is ignored, as a printer does');
    p.state.align = align;
  },
  // ESC d n: print and feed n lines
  0x64: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.printLine(n * p.state.lineSpacing);
  },
  0x69: (_r, p) => p.cut('full'),
  0x6d: (_r, p) => p.cut('partial'),
  // ESC p m t1 t2: drawer kick pulse on pin 2 (m = 0, 48) or 5 (1, 49), times in 2 ms units
  0x70: (r, p) => {
    const b = r.take(3);
    if (b) p.pulseDrawer(b[0]! & 1 ? 5 : 2, b[1]! * 2, b[2]! * 2);
  },
  0x74: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    const table = characterTable(n);
    if (table) p.state.table = table;
    else r.warn(`character table ${n} (ESC t) is unknown: the table in use is kept`);
  },
  // ESC u n / ESC v n: peripheral and paper status, answered by a printer
  0x75: (r, p) => statusByte(r, p, 'ESC u'),
  0x76: (r, p) => statusByte(r, p, 'ESC v'),
  // ESC { n: upside-down printing, like ESC a only at the beginning of a line
  0x7b: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    if (!p.atLineStart) return r.warn('ESC { in the middle of a line is ignored');
    p.state.upsideDown = flag(n);
  },
  // ESC ( x pL pH d…: beeper and other extended functions, skipped by their length
  0x28: (r) => {
    const b = r.take(3);
    if (b) r.data(b[1]! + b[2]! * 256);
  },
};

function statusByte(r: ByteReader, p: Printer, command: string): void {
  if (r.byte() !== undefined) p.statusRequests.push({ command, offset: r.offset });
}
