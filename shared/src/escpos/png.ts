/**
 * The one 1-bit grayscale PNG writer (node:zlib only): the virtual printer's page, the receipt
 * previews and raster, and the label renderer's PNG (`label/png.ts`) all use it. A page or a
 * label is mostly white paper, so packing 8 dots per byte before deflating makes this several
 * times faster than handing 8-bit pixels to an image library, and only the bytes between a row's
 * first and last black dot are packed (found with the native indexOf, which also skips white
 * rows at once); the rest of the row is white bytes already.
 */
import { deflateSync } from 'node:zlib';

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

/**
 * Encodes one-byte-per-dot pixels (1 = black, 0 = white; row after row, `width` a row) as a
 * 1-bit grayscale PNG, black on white. `level` is the zlib compression level (default 4:
 * measured the best trade of time for size on receipts).
 */
export function encodePng1Bit(
  pixels: Uint8Array,
  width: number,
  height: number,
  level = 4,
): Buffer {
  const stride = Math.ceil(width / 8);
  // White everywhere; each row starts with its filter type, 0 (none).
  const raw = Buffer.alloc((stride + 1) * height, 0xff);
  for (let y = 0; y < height; y++) raw[y * (stride + 1)] = 0;
  const full = width >> 3;
  for (let y = 0; width > 0 && y < height; y++) {
    const first = pixels.indexOf(1, y * width);
    if (first < 0) break;
    // The rows before the next black dot are white.
    y = Math.floor(first / width);
    if (y >= height) break;
    const rowStart = y * width;
    const last = pixels.lastIndexOf(1, rowStart + width - 1);
    const to = (last - rowStart) >> 3;
    let byte = (first - rowStart) >> 3;
    let src = rowStart + byte * 8;
    let dst = y * (stride + 1) + 1 + byte;
    // PNG gray 1 is white, so black dots are the cleared bits.
    for (; byte <= to && byte < full; byte++, src += 8) {
      const packed =
        (pixels[src]! << 7) |
        (pixels[src + 1]! << 6) |
        (pixels[src + 2]! << 5) |
        (pixels[src + 3]! << 4) |
        (pixels[src + 4]! << 3) |
        (pixels[src + 5]! << 2) |
        (pixels[src + 6]! << 1) |
        pixels[src + 7]!;
      raw[dst++] = ~packed & 0xff;
    }
    if (byte <= to) {
      // The row's last, partial byte (a width that is not a multiple of 8).
      let packed = 0xff;
      for (let bit = 0; bit < (width & 7); bit++) if (pixels[src + bit]) packed &= ~(0x80 >> bit);
      raw[dst] = packed;
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
    chunk('IDAT', deflateSync(raw, { level })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
