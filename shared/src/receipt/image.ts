/**
 * Images for the printer: PNG or JPEG bytes → grayscale → resized to the width in dots →
 * 1-bit (Floyd-Steinberg or threshold) → rows packed 8 dots a byte, as GS v 0 wants them.
 * Synchronous and pure (pngjs and jpeg-js decode in JavaScript).
 */
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';

/** An 8-bit grayscale picture, 0 black to 255 white. */
export interface GrayImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** A 1-bit picture: `rowBytes` bytes per row, most significant bit leftmost, 1 = black. */
export interface Bitmap {
  width: number;
  height: number;
  rowBytes: number;
  data: Uint8Array;
}

export class ImageDecodeError extends Error {}

/**
 * Decodes PNG or JPEG into grayscale, transparency over white paper. Refuses pictures of more
 * than `maxPixels` before decoding them.
 */
export function decodeImage(bytes: Uint8Array, maxPixels: number): GrayImage {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width: number;
  let height: number;
  let rgba: Uint8Array;
  if (buf.length > 24 && buf.readUInt32BE(0) === 0x89504e47) {
    width = buf.readUInt32BE(16);
    height = buf.readUInt32BE(20);
    checkSize(width, height, maxPixels);
    try {
      const png = PNG.sync.read(buf);
      rgba = png.data;
    } catch (err) {
      throw new ImageDecodeError(`PNG cannot be decoded: ${(err as Error).message}`);
    }
  } else if (buf.length > 3 && buf[0] === 0xff && buf[1] === 0xd8) {
    try {
      const img = jpeg.decode(buf, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: maxPixels / 1_000_000,
        maxMemoryUsageInMB: Math.ceil((maxPixels * 8) / 1_000_000) + 64,
      });
      width = img.width;
      height = img.height;
      rgba = img.data;
    } catch (err) {
      throw new ImageDecodeError(`JPEG cannot be decoded: ${(err as Error).message}`);
    }
    checkSize(width, height, maxPixels);
  } else {
    throw new ImageDecodeError('is not a PNG or JPEG image');
  }
  const pixels = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < pixels.length; i++, p += 4) {
    const a = rgba[p + 3]!;
    const lum = (rgba[p]! * 299 + rgba[p + 1]! * 587 + rgba[p + 2]! * 114) / 1000;
    pixels[i] = Math.round((lum * a + 255 * (255 - a)) / 255);
  }
  return { width, height, pixels };
}

function checkSize(width: number, height: number, maxPixels: number): void {
  if (width < 1 || height < 1) throw new ImageDecodeError('image has no pixels');
  if (width * height > maxPixels) {
    throw new ImageDecodeError(
      `image is ${width}x${height} pixels; at most ${maxPixels} pixels are decoded`,
    );
  }
}

/** For each output position along one axis: the first input index and the weights from it. */
function resampleWeights(
  from: number,
  to: number,
): { start: Int32Array; count: Int32Array; weights: Float32Array; stride: number } {
  const scale = from / to;
  // Downscaling averages the area each output pixel covers; upscaling interpolates linearly.
  const support = scale > 1 ? scale / 2 : 1;
  const stride = Math.ceil(support * 2) + 2;
  const start = new Int32Array(to);
  const count = new Int32Array(to);
  const weights = new Float32Array(to * stride);
  for (let o = 0; o < to; o++) {
    const center = (o + 0.5) * scale;
    const lo = Math.max(0, Math.floor(center - support));
    const hi = Math.min(from, Math.ceil(center + support));
    let total = 0;
    let n = 0;
    for (let i = lo; i < hi && n < stride; i++, n++) {
      const d = Math.abs(i + 0.5 - center) / support;
      const w = Math.max(0, 1 - d);
      weights[o * stride + n] = w;
      total += w;
    }
    if (total === 0) {
      weights[o * stride] = 1;
      total = 1;
      n = Math.max(n, 1);
    }
    for (let k = 0; k < n; k++) weights[o * stride + k]! /= total;
    start[o] = lo;
    count[o] = n;
  }
  return { start, count, weights, stride };
}

/** Resizes with a triangle filter (area-like when shrinking), rows then columns. */
export function resizeGray(img: GrayImage, width: number, height: number): GrayImage {
  if (img.width === width && img.height === height) return img;
  const h = resampleWeights(img.width, width);
  const tmp = new Float32Array(width * img.height);
  for (let y = 0; y < img.height; y++) {
    const row = y * img.width;
    for (let x = 0; x < width; x++) {
      let sum = 0;
      const s = h.start[x]!;
      for (let k = 0; k < h.count[x]!; k++) {
        sum += img.pixels[row + s + k]! * h.weights[x * h.stride + k]!;
      }
      tmp[y * width + x] = sum;
    }
  }
  const v = resampleWeights(img.height, height);
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const s = v.start[y]!;
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = 0; k < v.count[y]!; k++) {
        sum += tmp[(s + k) * width + x]! * v.weights[y * v.stride + k]!;
      }
      pixels[y * width + x] = Math.max(0, Math.min(255, Math.round(sum)));
    }
  }
  return { width, height, pixels };
}

/** 1-bit picture by Floyd-Steinberg error diffusion, or by a plain threshold at mid-gray. */
export function toBitmap(img: GrayImage, dithering: 'floyd-steinberg' | 'threshold'): Bitmap {
  const { width, height } = img;
  const rowBytes = (width + 7) >> 3;
  const data = new Uint8Array(rowBytes * height);
  if (dithering === 'threshold') {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (img.pixels[y * width + x]! < 128) data[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
      }
    }
    return { width, height, rowBytes, data };
  }
  const err = new Float32Array(img.pixels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const old = err[i]!;
      const black = old < 128;
      const e = old - (black ? 0 : 255);
      if (black) data[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
      if (x + 1 < width) err[i + 1]! += (e * 7) / 16;
      if (y + 1 < height) {
        if (x > 0) err[i + width - 1]! += (e * 3) / 16;
        err[i + width]! += (e * 5) / 16;
        if (x + 1 < width) err[i + width + 1]! += e / 16;
      }
    }
  }
  return { width, height, rowBytes, data };
}

/** The stand-in for an image that could not be fetched: a square box with both diagonals. */
export function crossedBox(size: number): Bitmap {
  const rowBytes = (size + 7) >> 3;
  const data = new Uint8Array(rowBytes * size);
  const set = (x: number, y: number): void => {
    if (x >= 0 && x < size && y >= 0 && y < size) data[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
  };
  const t = Math.max(1, Math.round(size / 100));
  for (let i = 0; i < size; i++) {
    for (let k = 0; k < t; k++) {
      set(i, k);
      set(i, size - 1 - k);
      set(k, i);
      set(size - 1 - k, i);
      set(i + k, i);
      set(size - 1 - i - k, i);
    }
  }
  return { width: size, height: size, rowBytes, data };
}

/** The bitmap shifted right by `offset` dots inside a `lineDots` wide row (for alignment). */
export function placeBitmap(bitmap: Bitmap, offset: number): Bitmap {
  if (offset <= 0) return bitmap;
  const width = offset + bitmap.width;
  const rowBytes = (width + 7) >> 3;
  const data = new Uint8Array(rowBytes * bitmap.height);
  for (let y = 0; y < bitmap.height; y++) {
    for (let x = 0; x < bitmap.width; x++) {
      if (bitmap.data[y * bitmap.rowBytes + (x >> 3)]! & (0x80 >> (x & 7))) {
        const X = x + offset;
        data[y * rowBytes + (X >> 3)]! |= 0x80 >> (X & 7);
      }
    }
  }
  return { width, height: bitmap.height, rowBytes, data };
}
