/**
 * How far a rendered label is from a reference picture (a Labelary render): the share of pixels
 * that differ. A pixel differs when any of its RGBA channels differs by more than 32 (of 255),
 * the rule the Labelize project measures with, so that our numbers and theirs compare. When the
 * two pictures are not the same size, the pixels of the larger one that the smaller lacks count as
 * differing too.
 */
import { PNG } from 'pngjs';

/** A picture as RGBA bytes, 4 per pixel, row after row. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface LabelDifference {
  /** Pixels that differ (those outside the common area included). */
  differing: number;
  /** Pixels of the larger width × the larger height. */
  total: number;
  /** `differing / total` as a percentage. */
  percent: number;
  /**
   * The share of pixels (as a percentage) that differ when both pictures are read as a label
   * printer prints them: a dot is black or white, black when darker than half grey. A
   * reference drawn with grey edges (Labelary smooths its text) has pixels that no printer, and
   * no picture of one, can match under the channel rule; here they count as what they would print.
   */
  percentAsPrinted: number;
  /**
   * The common area as a picture: black where both are black, red where only the reference is
   * (ours lacks ink), blue where only ours is (ours has ink too many), white where they agree.
   */
  diff: RgbaImage;
}

/** The largest difference of one channel that still counts as the same pixel. */
export const CHANNEL_THRESHOLD = 32;

/** Reads a PNG of any colour type and bit depth into RGBA bytes. */
export function readRgba(png: Buffer): RgbaImage {
  const image = PNG.sync.read(png);
  return { width: image.width, height: image.height, data: new Uint8Array(image.data) };
}

/** Writes RGBA bytes as a PNG. */
export function writeRgba(image: RgbaImage): Buffer {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return PNG.sync.write(png);
}

function dark(data: Uint8Array, i: number): boolean {
  // Transparent counts as paper (white); otherwise the luminance decides.
  if (data[i + 3]! < 128) return false;
  // In whole numbers: 0.299 + 0.587 + 0.114 in floating point is just under 1, so half grey
  // (128) would count as dark.
  return data[i]! * 299 + data[i + 1]! * 587 + data[i + 2]! * 114 < 128_000;
}

/** Compares `actual` (ours) with `expected` (the reference), pixel by pixel. */
export function compareLabels(actual: RgbaImage, expected: RgbaImage): LabelDifference {
  for (const [name, image] of [
    ['actual', actual],
    ['expected', expected],
  ] as const) {
    if (image.data.length !== image.width * image.height * 4) {
      throw new RangeError(
        `${name}: must hold width × height × 4 bytes (${image.width} × ${image.height} × 4 = ${image.width * image.height * 4}, got ${image.data.length})`,
      );
    }
  }
  const width = Math.min(actual.width, expected.width);
  const height = Math.min(actual.height, expected.height);
  const total = Math.max(actual.width, expected.width) * Math.max(actual.height, expected.height);
  const diff = new Uint8Array(width * height * 4);
  let differing = total - width * height;
  let differingAsPrinted = total - width * height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const a = (y * actual.width + x) * 4;
      const e = (y * expected.width + x) * 4;
      let differs = false;
      for (let c = 0; c < 4; c++) {
        if (Math.abs(actual.data[a + c]! - expected.data[e + c]!) > CHANNEL_THRESHOLD) {
          differs = true;
          break;
        }
      }
      if (differs) differing++;
      const ours = dark(actual.data, a);
      const theirs = dark(expected.data, e);
      if (ours !== theirs) differingAsPrinted++;
      const o = (y * width + x) * 4;
      const [r, g, b] =
        ours && theirs ? [0, 0, 0] : theirs ? [230, 0, 0] : ours ? [0, 90, 255] : [255, 255, 255];
      diff[o] = r;
      diff[o + 1] = g;
      diff[o + 2] = b;
      diff[o + 3] = 255;
    }
  }
  return {
    differing,
    total,
    percent: total === 0 ? 0 : (differing / total) * 100,
    percentAsPrinted: total === 0 ? 0 : (differingAsPrinted / total) * 100,
    diff: { width, height, data: diff },
  };
}
