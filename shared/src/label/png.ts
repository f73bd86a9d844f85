/**
 * The label's PNG: 1-bit grayscale, black on white, written with node:zlib. A label is mostly
 * white paper, so each row is packed only between its first and last black dot (found with the
 * native indexOf), the rest of the row being white bytes already.
 */
import { deflateSync } from 'node:zlib';
import type { Bitmap } from './bitmap.js';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Encodes the label (1 = black) as a 1-bit grayscale PNG (PNG gray 1 is white). */
export function encodeLabelPng(bitmap: Bitmap): Buffer {
  const { width, height, data } = bitmap;
  const stride = Math.ceil(width / 8);
  const raw = Buffer.alloc((stride + 1) * height, 0xff);
  for (let y = 0; y < height; y++) {
    const rowStart = y * width;
    const line = y * (stride + 1);
    raw[line] = 0; // filter type: none
    const first = data.indexOf(1, rowStart);
    if (first < 0 || first >= rowStart + width) continue;
    const last = data.lastIndexOf(1, rowStart + width - 1);
    for (let byte = (first - rowStart) >> 3; byte <= (last - rowStart) >> 3; byte++) {
      const src = rowStart + byte * 8;
      const bits = Math.min(8, width - byte * 8);
      let packed = 0;
      for (let bit = 0; bit < bits; bit++) packed |= data[src + bit]! << (7 - bit);
      raw[line + 1 + byte] = ~packed & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grayscale
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 4 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
