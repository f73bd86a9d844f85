/**
 * A 1-bit picture as an EPL2 `GW` direct graphic write and back. Pure. EPL's bits are the other
 * way round from ZPL's: 0 prints a dot, 1 leaves it white.
 */
import type { Bitmap } from '../receipt/image.js';

/** `GWx,y,rowBytes,rows,` then the rows of the bitmap (1 = black) as EPL's inverted bytes. */
export function eplGraphicWrite(bitmap: Bitmap, x = 0, y = 0): Buffer {
  const size = bitmap.rowBytes * bitmap.height;
  const head = Buffer.from(`GW${x},${y},${bitmap.rowBytes},${bitmap.height},`, 'latin1');
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = ~bitmap.data[i]! & 0xff;
  // Dots past the picture's width in its last byte of a row stay white.
  const spare = bitmap.rowBytes * 8 - bitmap.width;
  if (spare > 0) {
    const mask = (1 << spare) - 1;
    for (let r = 0; r < bitmap.height; r++)
      body[r * bitmap.rowBytes + bitmap.rowBytes - 1]! |= mask;
  }
  return Buffer.concat([head, body, Buffer.from('\n', 'latin1')]);
}

/** Where a `GW` sits and its bitmap (1 = black), read from the bytes at `offset`. */
export function decodeEplGraphicWrite(
  bytes: Uint8Array,
  offset = 0,
): { x: number; y: number; bitmap: Bitmap; end: number } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
    'latin1',
    offset,
    Math.min(bytes.length, offset + 64),
  );
  const m = /^GW(\d+),(\d+),(\d+),(\d+)(?:,|\r?\n)/.exec(text);
  if (!m) throw new RangeError(`no GW command at byte ${offset}`);
  const rowBytes = Number(m[3]);
  const height = Number(m[4]);
  const start = offset + m[0].length;
  const end = start + rowBytes * height;
  if (end > bytes.length) throw new RangeError(`GW wants ${end - start} bytes; fewer follow`);
  const data = new Uint8Array(rowBytes * height);
  for (let i = 0; i < data.length; i++) data[i] = ~bytes[start + i]! & 0xff;
  return {
    x: Number(m[1]),
    y: Number(m[2]),
    bitmap: { width: rowBytes * 8, height, rowBytes, data },
    end,
  };
}
