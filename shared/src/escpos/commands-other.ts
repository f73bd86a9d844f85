/** FS (Kanji and NV images) and DLE (real-time) commands: of them only Kanji mode changes the preview. */
import type { Handler } from './commands-esc.js';
import type { ByteReader } from './reader.js';

/** FS commands skipped by their fixed length (Kanji mode, NV bit images). */
export const FS_LENGTHS: Record<number, number> = {
  0x21: 1, // FS !  Kanji print mode
  0x2d: 1, // FS -  Kanji underline
  0x43: 1, // FS C  Kanji code system
  0x53: 2, // FS S  Kanji spacing
  0x57: 1, // FS W  Kanji quadruple size
};

export const FS_HANDLERS: Record<number, Handler> = {
  // FS &: Kanji (Chinese character) mode on; FS .: off (see Printer.printByte)
  0x26: (_r, p) => {
    p.state.kanji = true;
  },
  0x2e: (_r, p) => {
    p.state.kanji = false;
  },
  // FS p n m: print NV bit image n
  0x70: (r) => {
    if (r.take(2)) r.warn('NV bit images (FS p) are not drawn');
  },
  // FS ( x pL pH d…
  0x28: (r) => {
    const b = r.take(3);
    if (b) r.data(b[1]! + b[2]! * 256);
  },
  // FS 2 c1 c2 d1…d72: define a Kanji character
  0x32: (r) => void r.take(74),
  // FS q n [xL xH yL yH d…]…: define NV bit images (x × 8 by y × 8 dots each), skipped
  0x71: (r) => {
    const n = r.byte();
    if (n === undefined) return;
    for (let i = 0; i < n; i++) {
      const size = r.take(4);
      if (!size) return;
      r.data((size[0]! + size[1]! * 256) * (size[2]! + size[3]! * 256) * 8);
    }
    r.warn('NV bit images (FS q) are not stored: FS p prints nothing');
  },
};

function request(r: ByteReader, p: Parameters<Handler>[1], name: string, extra: number): void {
  if (r.take(extra) !== undefined) p.statusRequests.push({ command: name, offset: r.offset });
}

export const DLE_HANDLERS: Record<number, Handler> = {
  // DLE EOT n (n = 7, 8 take one more byte): real-time status transmission
  0x04: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    request(r, p, `DLE EOT ${n}`, n === 7 || n === 8 ? 1 : 0);
  },
  // DLE ENQ n: real-time request to the printer
  0x05: (r, p) => request(r, p, 'DLE ENQ', 1),
  // DLE DC4 fn …: real-time pulse, power off, buffer clear…
  0x14: (r, p) => {
    const fn = r.byte();
    if (fn === undefined) return;
    const extra = fn === 7 ? 1 : fn === 8 ? 7 : 2;
    request(r, p, `DLE DC4 ${fn}`, extra);
  },
};

/** Whether a byte after DLE starts a real-time command (else DLE is an ordinary control byte). */
export function isDleCommand(byte: number | undefined): boolean {
  return byte === 0x04 || byte === 0x05 || byte === 0x14;
}

export type { ByteReader };
