/**
 * Helpers of the tests of documents on label printers: the pictures a ZPL or EPL job carries,
 * as PNG for zbar, and how far two pictures differ.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { decodeEplGraphicWrite } from '../label-graphics/epl-graphic.js';
import { decodeZplGraphicField } from '../label-graphics/zpl-graphic.js';
import type { Bitmap, GrayImage } from '../receipt/image.js';

/** One label of a job: its picture and what the job said of it. */
export interface SentLabel {
  bitmap: Bitmap;
  /** ZPL `^PW`/`^LL`, EPL `q`/`Q`: the label's width and length in dots. */
  width: number;
  height: number;
  /** ZPL `^PQ`, EPL `P`. */
  copies: number;
}

/** Every `^XA … ^XZ` format of a ZPL job that holds a `^GF`, read back. */
export function zplLabels(bytes: Uint8Array): SentLabel[] {
  const text = Buffer.from(bytes).toString('latin1');
  return [...text.matchAll(/\^XA([\s\S]*?)\^XZ/g)]
    .filter((m) => m[1]!.includes('^GF'))
    .map((m) => {
      const format = m[1]!;
      const number = (command: string): number =>
        Number(new RegExp(`\\^${command}(\\d+)`).exec(format)?.[1] ?? NaN);
      return {
        bitmap: decodeZplGraphicField(format),
        width: number('PW'),
        height: number('LL'),
        copies: number('PQ'),
      };
    });
}

/** Every `GW` of an EPL job, with the `q`, `Q` and `P` of its form. */
export function eplLabels(bytes: Uint8Array): SentLabel[] {
  const out: SentLabel[] = [];
  const buffer = Buffer.from(bytes);
  let at = 0;
  let width = NaN;
  let height = NaN;
  let bitmap: Bitmap | null = null;
  while (at < buffer.length) {
    const lineEnd = buffer.indexOf(0x0a, at);
    const line = buffer.toString('latin1', at, lineEnd < 0 ? buffer.length : lineEnd).trim();
    if (line.startsWith('GW')) {
      const graphic = decodeEplGraphicWrite(buffer, at);
      bitmap = graphic.bitmap;
      at = graphic.end + 1;
      continue;
    }
    if (/^q\d+/.test(line)) width = Number(line.slice(1));
    if (/^Q\d+/.test(line)) height = Number(line.slice(1).split(',')[0]);
    if (/^P\d+/.test(line) && bitmap) {
      out.push({ bitmap, width, height, copies: Number(line.slice(1).split(',')[0]) });
      bitmap = null;
    }
    at = lineEnd < 0 ? buffer.length : lineEnd + 1;
  }
  return out;
}

/** True when the dot at x, y is black. */
export function isBlack(bitmap: Bitmap, x: number, y: number): boolean {
  return (bitmap.data[y * bitmap.rowBytes + (x >> 3)]! & (0x80 >> (x & 7))) !== 0;
}

/** A bitmap as a PNG (black on white), `width` dots of it when given. */
export function bitmapPng(bitmap: Bitmap, width = bitmap.width): Buffer {
  const png = new PNG({ width, height: bitmap.height, colorType: 0 });
  for (let y = 0; y < bitmap.height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const v = isBlack(bitmap, x, y) ? 0 : 255;
      png.data[i] = png.data[i + 1] = png.data[i + 2] = v;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png, { colorType: 0 });
}

/** A PNG (any colour type) as grey dots. */
export function pngGray(bytes: Buffer): GrayImage {
  const png = PNG.sync.read(bytes);
  const pixels = new Uint8Array(png.width * png.height);
  for (let i = 0; i < pixels.length; i++) {
    pixels[i] =
      (png.data[i * 4]! * 299 + png.data[i * 4 + 1]! * 587 + png.data[i * 4 + 2]! * 114) / 1000;
  }
  return { width: png.width, height: png.height, pixels };
}

/** A black-and-white PNG (a label preview) as a bitmap: dots darker than mid-grey are black. */
export function pngBitmap(bytes: Buffer): Bitmap {
  const gray = pngGray(bytes);
  const rowBytes = Math.ceil(gray.width / 8);
  const data = new Uint8Array(rowBytes * gray.height);
  for (let y = 0; y < gray.height; y++) {
    for (let x = 0; x < gray.width; x++) {
      if (gray.pixels[y * gray.width + x]! < 128) data[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { width: gray.width, height: gray.height, rowBytes, data };
}

/**
 * The share of dots (0 to 1) on which `bitmap` and `reference` (grey, black below mid-grey)
 * disagree, over the reference's size.
 */
export function differingShare(bitmap: Bitmap, reference: GrayImage): number {
  let differ = 0;
  for (let y = 0; y < reference.height; y++) {
    for (let x = 0; x < reference.width; x++) {
      const dark = reference.pixels[y * reference.width + x]! < 128;
      if (dark !== (y < bitmap.height && x < bitmap.width && isBlack(bitmap, x, y))) differ++;
    }
  }
  return differ / (reference.width * reference.height);
}

/** What zbarimg (zbar-tools) reads on a PNG: `CODE-128:1Z…` lines; null when zbar is missing. */
export function zbarRead(png: Buffer): string[] | null {
  const dir = mkdtempSync(join(tmpdir(), 'pw-zbar-'));
  try {
    const file = join(dir, 'label.png');
    writeFileSync(file, png);
    const r = spawnSync('zbarimg', ['--quiet', file], { encoding: 'utf8' });
    if (r.error) return null;
    return r.stdout.split('\n').filter(Boolean).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PDF page drawn by poppler's pdftoppm in grey at `dpi`; null when poppler-utils is missing. */
export function pdftoppmPage(pdf: Buffer, dpi: number, page = 1): GrayImage | null {
  const dir = mkdtempSync(join(tmpdir(), 'pw-pdftoppm-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const r = spawnSync('pdftoppm', [
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-gray',
      '-png',
      '-singlefile',
      join(dir, 'in.pdf'),
      join(dir, 'out'),
    ]);
    if (r.error || r.status !== 0) return null;
    return pngGray(readFileSync(join(dir, 'out.png')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The share of `block` × `block` dot squares whose darkness (the share of black dots in
 * `bitmap`, the mean grey in `reference`) differs by more than `tolerance` (0 to 1). Dithering
 * keeps a square's darkness, so a dithered tint matches the grey it stands for.
 */
export function differingBlocks(
  bitmap: Bitmap,
  reference: GrayImage,
  block = 4,
  tolerance = 0.35,
): number {
  let blocks = 0;
  let differ = 0;
  for (let by = 0; by + block <= reference.height; by += block) {
    for (let bx = 0; bx + block <= reference.width; bx += block) {
      let ours = 0;
      let theirs = 0;
      for (let y = by; y < by + block; y++) {
        for (let x = bx; x < bx + block; x++) {
          if (y < bitmap.height && x < bitmap.width && isBlack(bitmap, x, y)) ours++;
          theirs += 1 - reference.pixels[y * reference.width + x]! / 255;
        }
      }
      blocks++;
      if (Math.abs(ours - theirs) / (block * block) > tolerance) differ++;
    }
  }
  return differ / blocks;
}
