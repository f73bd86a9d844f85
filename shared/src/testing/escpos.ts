/** Helpers of the virtual printer's tests: ESC/POS bytes from readable parts, external tools. */
import { execFileSync, spawnSync } from 'node:child_process';
import { interpretEscpos } from '../escpos/interpreter.js';
import type { InterpretOptions, PrintedPage } from '../escpos/types.js';

type Part = number | string | Uint8Array | Part[];

/**
 * Bytes from parts: a number is one byte, a string is text (latin1) unless it starts with `0x`,
 * then it is hex (`'0x1b 40'`); arrays nest.
 */
export function esc(...parts: Part[]): Uint8Array {
  const out: number[] = [];
  const add = (part: Part): void => {
    if (typeof part === 'number') out.push(part);
    else if (typeof part === 'string') {
      if (part.startsWith('0x')) {
        for (const h of part.slice(2).split(/\s+/).filter(Boolean)) out.push(parseInt(h, 16));
      } else out.push(...Buffer.from(part, 'latin1'));
    } else if (part instanceof Uint8Array) out.push(...part);
    else part.forEach(add);
  };
  parts.forEach(add);
  return Uint8Array.from(out);
}

export const ESC = 0x1b;
export const GS = 0x1d;
export const LF = 0x0a;

export function print(bytes: Uint8Array, options: Partial<InterpretOptions> = {}): PrintedPage {
  return interpretEscpos(bytes, { paper: '80mm', ...options });
}

/** Black dots in a rectangle of the page. */
export function inkIn(page: PrintedPage, x: number, y: number, w: number, h: number): number {
  let n = 0;
  for (let row = Math.max(0, y); row < Math.min(page.height, y + h); row++) {
    for (let col = Math.max(0, x); col < Math.min(page.width, x + w); col++) {
      n += page.pixels[row * page.width + col]!;
    }
  }
  return n;
}

/** The bounding box of all black dots, or undefined for a blank page. */
export function inkBox(
  page: PrintedPage,
): { x: number; y: number; w: number; h: number } | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < page.height; y++) {
    for (let x = 0; x < page.width; x++) {
      if (!page.pixels[y * page.width + x]) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? undefined : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/** QR payload with its GS ( k store function. */
export function qrStore(data: string): number[] {
  const d = [...Buffer.from(data, 'latin1')];
  const n = d.length + 3;
  return [GS, 0x28, 0x6b, n & 0xff, n >> 8, 49, 80, 48, ...d];
}

const DEBIAN_PACKAGES: Record<string, string> = {
  zbarimg: 'zbar-tools',
  tesseract: 'tesseract-ocr tesseract-ocr-eng',
};

/** Why an external tool (zbarimg, tesseract) cannot run, or undefined when it can. */
export function missingTool(tool: string): string | undefined {
  const probe = spawnSync(tool, ['--version'], { stdio: 'ignore' });
  if (!probe.error) return undefined;
  return `${tool} is not installed (Debian package: ${DEBIAN_PACKAGES[tool] ?? tool})`;
}

/**
 * The `skip` option of a test that needs a tool: skipped with a message naming the tool when it is
 * missing, except under CI (process.env.CI set) where the test runs and fails on `requireTool`.
 */
export function skipWithout(tool: string): string | false {
  const missing = missingTool(tool);
  return missing !== undefined && !process.env.CI ? missing : false;
}

/** Fails when the tool is missing (reached only under CI, where skipping is not allowed). */
export function requireTool(tool: string): void {
  const missing = missingTool(tool);
  if (missing !== undefined) throw new Error(`${missing}: required when CI is set`);
}

/** A stream using most commands the interpreter knows. */
export const VALID = esc(
  [ESC, 0x40, ESC, 0x74, 16, ESC, 0x61, 1, ESC, 0x21, 0x38, GS, 0x21, 0x11, GS, 0x42, 1],
  'Header',
  [LF, ESC, 0x2d, 2, ESC, 0x45, 1, ESC, 0x47, 1, ESC, 0x4d, 1, ESC, 0x20, 2, ESC, 0x33, 40],
  [ESC, 0x44, 4, 8, 0, 0x09, 'tab', ESC, 0x24, 10, 0, ESC, 0x5c, 4, 0, LF, ESC, 0x4a, 10],
  [ESC, 0x64, 2, GS, 0x4c, 8, 0, GS, 0x57, 0, 1, ESC, 0x2a, 33, 2, 0, 1, 2, 3, 4, 5, 6, LF],
  [GS, 0x76, 0x30, 3, 1, 0, 2, 0, 0xaa, 0x55],
  [GS, 0x28, 0x6b, 3, 0, 49, 67, 4, GS, 0x28, 0x6b, 3, 0, 49, 69, 49],
  qrStore('https://example.com'),
  [GS, 0x28, 0x6b, 3, 0, 49, 81, 48],
  [GS, 0x68, 40, GS, 0x77, 2, GS, 0x48, 3, GS, 0x66, 1, GS, 0x6b, 73, 6, 0x7b, 0x42, 'abcd'],
  [GS, 0x6b, 2, '400638133393', 0, ESC, 0x70, 0, 10, 20, 0x10, 0x04, 1, GS, 0x72, 1],
  [0x10, 0x14, 1, 0, 1, ESC, 0x26, 3, 65, 65, 2, 1, 2, 3, 4, 5, 6, GS, 0x56, 66, 10, GS, 0x56, 0],
);

/**
 * The text tesseract reads from a page's PNG, scaled up 2x (nearest neighbour) as a scanner's
 * resolution would give it. Fails when tesseract is missing (see skipWithout).
 */
export async function readWithTesseract(png: Buffer): Promise<string> {
  requireTool('tesseract');
  const { default: sharp } = await import('sharp');
  const { width = 576 } = await sharp(png).metadata();
  const scaled = await sharp(png)
    .resize({ width: width * 2, kernel: 'nearest' })
    .png()
    .toBuffer();
  return execFileSync('tesseract', ['stdin', 'stdout', '--psm', '4'], {
    input: scaled,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}
