/**
 * A 1-bit picture as a ZPL `^GF` graphic field and back. Pure.
 *
 * `^GFA,b,c,d,DATA`: b and c the picture's bytes, d its bytes per row; DATA in one of three
 * forms, all of which every ZPL II printer reads except Z64, which needs firmware from about 2005:
 * - `hex`: two hexadecimal digits a byte (F = four black dots), the plain form;
 * - `acs` (Zebra's "ASCII compression"): a run of one digit written as a count then the digit
 *   (G–Y count 1–19, g–z count 20–400, summed: `hK0` is 45 zeros), `,` fills the rest of a row
 *   with white, `!` with black, `:` repeats the row above;
 * - `z64`: `:Z64:` the bytes deflated (zlib) in base64, `:` and the CRC-16/XMODEM of the base64
 *   text in four hexadecimal digits.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import type { Bitmap } from '../receipt/image.js';

export type ZplGraphicCompression = 'hex' | 'acs' | 'z64';

const HEX = '0123456789ABCDEF';

/** The count letters: index n is the prefix for a run of n (1–19 upper case, 20–400 lower). */
function countPrefix(n: number): string {
  let out = '';
  const twenties = Math.floor(n / 20);
  if (twenties > 0) out += String.fromCharCode(0x66 + twenties); // g = 20 … z = 400
  const ones = n % 20;
  if (ones > 0) out += String.fromCharCode(0x46 + ones); // G = 1 … Y = 19
  return out;
}

function hexRow(data: Uint8Array, start: number, rowBytes: number): string {
  let out = '';
  for (let i = start; i < start + rowBytes; i++) {
    const b = data[i]!;
    out += HEX[b >> 4]! + HEX[b & 15]!;
  }
  return out;
}

/** One row in Zebra's ASCII compression. */
function compressRow(hex: string): string {
  let end = hex.length;
  let fill = '';
  let tail = end;
  while (tail > 0 && hex[tail - 1] === '0') tail--;
  if (tail < end) {
    end = tail;
    fill = ',';
  } else {
    while (tail > 0 && hex[tail - 1] === 'F') tail--;
    if (tail < end) {
      end = tail;
      fill = '!';
    }
  }
  let out = '';
  for (let i = 0; i < end;) {
    const digit = hex[i]!;
    let run = 1;
    while (i + run < end && hex[i + run] === digit) run++;
    i += run;
    while (run > 400) {
      out += 'z' + digit;
      run -= 400;
    }
    out += run === 1 ? digit : countPrefix(run) + digit;
  }
  return out + fill;
}

/** The CRC ZPL puts after Z64 data: CRC-16/XMODEM (polynomial 0x1021, start 0) of the text. */
export function z64Crc(text: string): string {
  let crc = 0;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) << 8;
    for (let k = 0; k < 8; k++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : crc << 1;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The DATA of `^GFA` for a bitmap, in the form asked for. */
export function zplGraphicData(bitmap: Bitmap, compression: ZplGraphicCompression): string {
  const { rowBytes, height, data } = bitmap;
  if (compression === 'z64') {
    const base64 = deflateSync(data.subarray(0, rowBytes * height)).toString('base64');
    return `:Z64:${base64}:${z64Crc(base64)}`;
  }
  const rows: string[] = [];
  let previous: string | null = null;
  for (let y = 0; y < height; y++) {
    const hex = hexRow(data, y * rowBytes, rowBytes);
    if (compression === 'hex') rows.push(hex);
    else rows.push(hex === previous ? ':' : compressRow(hex));
    previous = hex;
  }
  return rows.join(compression === 'hex' ? '\n' : '');
}

/**
 * `^GFA,total,total,rowBytes,DATA` for a bitmap (1 = black), compressed with Zebra's ASCII
 * compression by default: every ZPL II printer reads it, and a label's white margins and
 * repeated rows shrink to a few characters.
 */
export function zplGraphicField(
  bitmap: Bitmap,
  compression: ZplGraphicCompression = 'acs',
): string {
  const total = bitmap.rowBytes * bitmap.height;
  return `^GFA,${total},${total},${bitmap.rowBytes},${zplGraphicData(bitmap, compression)}`;
}

/** A `^GF` that cannot be read back. */
export class ZplGraphicError extends Error {}

function decodeAscii(text: string, total: number, rowBytes: number): Uint8Array {
  const rowDigits = rowBytes * 2;
  const nibbles = new Uint8Array(total * 2);
  let at = 0;
  let count = 0;
  const put = (value: number, n: number): void => {
    const end = Math.min(nibbles.length, at + n);
    nibbles.fill(value, at, end);
    at = end;
  };
  for (let i = 0; i < text.length && at < nibbles.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x47 && c <= 0x59) count += c - 0x46;
    else if (c >= 0x67 && c <= 0x7a) count += (c - 0x66) * 20;
    else if (c === 0x2c || c === 0x21) {
      // , and ! fill the rest of the row (a whole row when at its start).
      const rest = rowDigits - (at % rowDigits);
      put(c === 0x2c ? 0 : 15, rest);
      count = 0;
    } else if (c === 0x3a) {
      if (at % rowDigits !== 0 || at === 0) throw new ZplGraphicError(`':' not at a row start`);
      nibbles.copyWithin(at, at - rowDigits, at);
      at += rowDigits;
      count = 0;
    } else {
      const value = HEX.indexOf(String.fromCharCode(c).toUpperCase());
      if (value < 0) {
        if (c <= 0x20) continue;
        throw new ZplGraphicError(`'${String.fromCharCode(c)}' in ^GF data`);
      }
      put(value, Math.max(1, count));
      count = 0;
    }
  }
  const bytes = new Uint8Array(total);
  for (let i = 0; i < total; i++) bytes[i] = (nibbles[i * 2]! << 4) | nibbles[i * 2 + 1]!;
  return bytes;
}

function decodeBase64Form(text: string): Uint8Array {
  const m = /^:(Z64|B64):([A-Za-z0-9+/=\s]*):([0-9A-Fa-f]{4})?/.exec(text);
  if (!m) throw new ZplGraphicError('malformed :Z64:/:B64: data');
  const base64 = m[2]!.replace(/\s+/g, '');
  if (m[3] !== undefined && m[3].toUpperCase() !== z64Crc(base64)) {
    throw new ZplGraphicError(`CRC ${m[3]} does not match the data (${z64Crc(base64)})`);
  }
  const raw = Buffer.from(base64, 'base64');
  return m[1] === 'Z64' ? new Uint8Array(inflateSync(raw)) : new Uint8Array(raw);
}

/**
 * The bitmap of one `^GFA,b,c,d,DATA` field (up to its `^FS`, or the end of `field`): hex, ASCII
 * compression, Z64 or B64. Throws ZplGraphicError when it cannot be read.
 */
export function decodeZplGraphicField(field: string): Bitmap {
  const m = /\^GFA,(\d+),(\d+),(\d+),([\s\S]*?)(?:\^FS|\^XZ|$)/i.exec(field);
  if (!m) throw new ZplGraphicError('no ^GFA field');
  const total = Number(m[2]);
  const rowBytes = Number(m[3]);
  if (rowBytes <= 0 || total % rowBytes !== 0) {
    throw new ZplGraphicError(`${total} bytes do not make rows of ${rowBytes}`);
  }
  const text = m[4]!.trim();
  const bytes = text.startsWith(':') ? decodeBase64Form(text) : decodeAscii(text, total, rowBytes);
  const data = new Uint8Array(total);
  data.set(bytes.subarray(0, total));
  return { width: rowBytes * 8, height: total / rowBytes, rowBytes, data };
}
