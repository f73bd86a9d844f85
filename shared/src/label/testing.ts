/** Helpers of the label renderer's tests: the PNG read back into dots, ink measured, tools run. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { encodePng1Bit } from '../escpos/png.js';

export interface Dots {
  width: number;
  height: number;
  /** 1 = black. */
  data: Uint8Array;
}

export function readPng(png: Buffer): Dots {
  const image = PNG.sync.read(png);
  const data = new Uint8Array(image.width * image.height);
  for (let i = 0; i < data.length; i++) data[i] = image.data[i * 4]! < 128 ? 1 : 0;
  return { width: image.width, height: image.height, data };
}

export function inkIn(d: Dots, x: number, y: number, w: number, h: number): number {
  let n = 0;
  for (let row = Math.max(0, y); row < Math.min(d.height, y + h); row++) {
    for (let col = Math.max(0, x); col < Math.min(d.width, x + w); col++)
      n += d.data[row * d.width + col]!;
  }
  return n;
}

export function inkBox(d: Dots): { x: number; y: number; w: number; h: number } | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < d.height; y++) {
    for (let x = 0; x < d.width; x++) {
      if (!d.data[y * d.width + x]) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? undefined : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/** Runs a tool on the PNG written to a temporary file; its standard output. */
function withFile(png: Buffer, run: (file: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pw-label-'));
  try {
    const file = join(dir, 'label.png');
    writeFileSync(file, png);
    return run(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every symbol zbar finds, as `TYPE:data` lines (sorted). */
export function zbar(png: Buffer): string[] {
  return withFile(png, (file) => {
    const r = spawnSync('zbarimg', ['--quiet', '--raw', '-Sbinary', '--nodbus', file], {
      encoding: 'latin1',
    });
    return r.stdout;
  })
    .split('\n')
    .filter(Boolean);
}

/** zbar's reading with symbology names (`EAN-13:5901234123457`). */
export function zbarTyped(png: Buffer): string[] {
  return withFile(png, (file) => {
    const r = spawnSync('zbarimg', ['--quiet', '--nodbus', file], { encoding: 'utf8' });
    return r.stdout;
  })
    .split('\n')
    .filter(Boolean)
    .sort();
}

/** The text tesseract reads (`psm`: its page segmentation mode, 6 = one block of text). */
export function ocr(png: Buffer, psm = 6): string {
  return withFile(png, (file) => {
    const r = spawnSync('tesseract', [file, '-', '--psm', String(psm)], { encoding: 'utf8' });
    return r.stdout;
  });
}

/** A rectangle of the label as a PNG of its own (with a white margin), to read one field alone. */
export function cropPng(
  png: Buffer,
  x: number,
  y: number,
  w: number,
  h: number,
  margin = 20,
): Buffer {
  const d = readPng(png);
  const out = new Uint8Array((w + 2 * margin) * (h + 2 * margin));
  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      out[(row + margin) * (w + 2 * margin) + col + margin] =
        d.data[(y + row) * d.width + x + col] ?? 0;
    }
  }
  return encodePng1Bit(out, w + 2 * margin, h + 2 * margin);
}
