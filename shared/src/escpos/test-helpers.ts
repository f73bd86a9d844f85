/** Helpers of the virtual printer's tests: ESC/POS bytes from readable parts, external tools. */
import { spawnSync } from 'node:child_process';
import { interpretEscpos } from './interpreter.js';
import type { InterpretOptions, PrintedPage } from './types.js';

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
