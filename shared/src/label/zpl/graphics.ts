/**
 * ZPL graphic data: ^GF (ASCII hex with ZPL's run-length compression, Z64 and B64 with their CRC,
 * or binary) and ~DG (stored graphics, ASCII hex). Bit 1 is a black dot, rows `bytesPerRow` long.
 */
import { inflateSync } from 'node:zlib';
import { Bitmap, LABEL_MAX_DOTS, TooLargeError } from '../bitmap.js';

export interface DecodedGraphic {
  bitmap: Bitmap;
  /** Set when the data said it was damaged (a CRC that does not match, a short stream). */
  warning?: string;
}

/** CRC-16/XMODEM (polynomial 0x1021, initial 0), which ZPL puts after Z64 and B64 data. */
export function crc16(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) << 8;
    for (let k = 0; k < 8; k++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** Expands ZPL's compressed ASCII hex into bytes, `bytesPerRow` per row, `total` at most. */
export function decodeCompressedHex(data: string, bytesPerRow: number, total: number): Uint8Array {
  checkGraphicSize(total);
  const out = new Uint8Array(total);
  const rowNibbles = bytesPerRow * 2;
  let row = 0;
  let nib = 0; // nibble position within the row
  let count = 0;
  const rows = Math.ceil(total / bytesPerRow);
  const put = (v: number) => {
    const index = row * bytesPerRow + (nib >> 1);
    if (index < total) out[index]! |= nib & 1 ? v : v << 4;
    nib++;
    if (nib === rowNibbles) {
      nib = 0;
      row++;
    }
  };
  for (let i = 0; i < data.length && row < rows; i++) {
    const c = data.charCodeAt(i);
    if (c >= 71 && c <= 89)
      count += c - 70; // G-Y: 1-19
    else if (c >= 103 && c <= 122)
      count += (c - 102) * 20; // g-z: 20-400
    else if (c === 44 || c === 33) {
      // ',' zeros (white) to the end of the row; '!' ones (black). At a row's start: the whole row.
      const v = c === 33 ? 0xf : 0;
      do put(v);
      while (nib !== 0);
      count = 0;
    } else if (c === 58) {
      // ':' the row is the previous row again.
      if (row > 0) {
        const from = (row - 1) * bytesPerRow;
        const to = row * bytesPerRow;
        out.copyWithin(to, from, Math.min(total, from + bytesPerRow));
      }
      nib = 0;
      row++;
      count = 0;
    } else {
      const v = hexValue(c);
      if (v < 0) continue;
      const n = Math.max(1, count);
      for (let k = 0; k < n && row < rows; k++) put(v);
      count = 0;
    }
  }
  return out;
}

/** Refuses graphics whose declared size alone passes the limit (before allocating it). */
export function checkGraphicSize(total: number): void {
  if (!(total * 8 <= LABEL_MAX_DOTS)) {
    throw new TooLargeError(
      `a graphic of ${total} bytes is more than the ${LABEL_MAX_DOTS} dots drawn at most`,
    );
  }
}

/** The bytes of ^GF/~DG ASCII data: `:Z64:`/`:B64:` (checked against their CRC) or compressed hex. */
export function decodeAsciiGraphic(
  data: string,
  bytesPerRow: number,
  total: number,
): { bytes: Uint8Array; warning?: string } {
  const m = /^:(Z64|B64):([^:]*)(?::([0-9A-Fa-f]{4}))?/.exec(data.trim());
  if (!m) return { bytes: decodeCompressedHex(data, bytesPerRow, total) };
  let warning: string | undefined;
  const [, kind, b64 = '', crc] = m;
  if (crc !== undefined && parseInt(crc, 16) !== crc16(b64)) {
    warning = `^GF ${kind} data: CRC ${crc.toUpperCase()} does not match the data (${crc16(b64).toString(16).toUpperCase().padStart(4, '0')})`;
  }
  let bytes: Uint8Array = Buffer.from(b64, 'base64');
  if (kind === 'Z64') {
    try {
      bytes = inflateSync(bytes, { maxOutputLength: total + 65_536 });
    } catch {
      return { bytes: new Uint8Array(total), warning: `^GF Z64 data does not inflate` };
    }
  }
  checkGraphicSize(total);
  const out = new Uint8Array(total);
  out.set(bytes.subarray(0, total));
  return { bytes: out, ...(warning ? { warning } : {}) };
}

/** A bitmap from packed rows (bit 7 of each byte is the leftmost dot; 1 = black unless `zeroIsBlack`). */
export function bitmapFromRows(
  bytes: Uint8Array,
  bytesPerRow: number,
  rows: number,
  zeroIsBlack = false,
): Bitmap {
  const width = bytesPerRow * 8;
  const bitmap = new Bitmap(width, rows);
  for (let y = 0; y < rows; y++) {
    for (let b = 0; b < bytesPerRow; b++) {
      let v = bytes[y * bytesPerRow + b] ?? (zeroIsBlack ? 0xff : 0);
      if (zeroIsBlack) v = ~v & 0xff;
      if (!v) continue;
      for (let bit = 0; bit < 8; bit++)
        if (v & (0x80 >> bit)) bitmap.data[y * width + b * 8 + bit] = 1;
    }
  }
  return bitmap;
}

/** ^GF a,b,c,d,data → the picture (a: A ASCII, B binary; C is Zebra's own compression, not drawn). */
export function decodeGf(
  format: string,
  binaryCount: number,
  total: number,
  bytesPerRow: number,
  data: string,
): DecodedGraphic | undefined {
  if (!(bytesPerRow > 0) || !(total > 0)) return undefined;
  const rows = Math.ceil(total / bytesPerRow);
  if (format === 'B') {
    const bytes = Buffer.from(data.slice(0, binaryCount), 'latin1');
    return { bitmap: bitmapFromRows(bytes, bytesPerRow, rows) };
  }
  if (format !== 'A') return undefined;
  const { bytes, warning } = decodeAsciiGraphic(data, bytesPerRow, total);
  return { bitmap: bitmapFromRows(bytes, bytesPerRow, rows), ...(warning ? { warning } : {}) };
}
