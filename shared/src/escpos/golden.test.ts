/**
 * Golden pictures: streams built here (independent of the receipt encoder) rendered and compared
 * dot for dot with the PNGs in `fixtures/`. A deliberate change of the rendering is recorded with
 * `UPDATE_GOLDEN=1 npm test -- shared/src/escpos/golden` (look at the new pictures before
 * committing them).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { renderEscposPreview } from './render.js';
import { ESC, GS, LF, VALID, esc, qrStore } from '../testing/escpos.js';
import type { Paper } from './types.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Every byte 0x20-0xFF of the six Printwire code pages, 32 to a line. */
function charsetSheet(): Uint8Array {
  const parts: Array<number | string | number[]> = [ESC, 0x40];
  for (const [n, name] of [
    [0, 'CP437'],
    [2, 'CP850'],
    [16, 'CP1252'],
    [17, 'CP866'],
    [19, 'CP858'],
    [40, 'ISO-8859-15'],
  ] as const) {
    parts.push(ESC, 0x74, n, ESC, 0x45, 1, `ESC t ${n}: ${name}`, ESC, 0x45, 0, LF);
    for (let row = 0x20; row < 0x100; row += 32) {
      parts.push(
        Array.from({ length: 32 }, (_, i) => row + i),
        LF,
      );
    }
    parts.push(ESC, 0x4d, 1);
    for (let row = 0x20; row < 0x100; row += 32) {
      parts.push(
        Array.from({ length: 32 }, (_, i) => row + i),
        LF,
      );
    }
    parts.push(ESC, 0x4d, 0, LF);
  }
  return esc(parts);
}

function styleSheet(): Uint8Array {
  return esc(
    [
      ESC,
      0x40,
      ESC,
      0x61,
      1,
      GS,
      0x21,
      0x11,
      ESC,
      0x45,
      1,
      'STYLES',
      LF,
      GS,
      0x21,
      0,
      ESC,
      0x45,
      0,
    ],
    [ESC, 0x61, 0, 'left', LF, ESC, 0x61, 1, 'center', LF, ESC, 0x61, 2, 'right', LF, ESC, 0x61, 0],
    [
      ESC,
      0x45,
      1,
      'bold ',
      ESC,
      0x45,
      0,
      ESC,
      0x2d,
      1,
      'under1',
      ESC,
      0x2d,
      2,
      ' under2',
      ESC,
      0x2d,
      0,
    ],
    [
      ' ',
      GS,
      0x42,
      1,
      'invert',
      GS,
      0x42,
      0,
      LF,
      ESC,
      0x4d,
      1,
      'Font B 9x17: 42 per line on 58mm',
      LF,
    ],
    [
      ESC,
      0x4d,
      0,
      GS,
      0x21,
      0x10,
      'wide',
      GS,
      0x21,
      0x01,
      'tall',
      GS,
      0x21,
      0x22,
      'x3',
      GS,
      0x21,
      0,
    ],
    [
      'a',
      LF,
      'A',
      0x09,
      'tab',
      0x09,
      'stops',
      LF,
      ESC,
      0x33,
      20,
      'tight',
      LF,
      'spacing',
      LF,
      ESC,
      0x32,
    ],
    [GS, 0x4c, 40, 0, GS, 0x57, 0x20, 1, 'margin 40, area 288: wraps inside the area', LF],
    [GS, 0x4c, 0, 0, GS, 0x57, 0x80, 1, GS, 0x56, 1],
  );
}

function symbolSheet(): Uint8Array {
  const parts: Array<number | string | number[]> = [ESC, 0x40, ESC, 0x61, 1, GS, 0x68, 50];
  const codes: Array<[number, string]> = [
    [65, '03600029145'],
    [66, '0425261'],
    [67, '400638133393'],
    [68, '9638507'],
    [69, 'CODE39'],
    [70, '0123456789'],
    [71, 'A40156B'],
    [72, 'Code93'],
    [73, '{BCode128'],
  ];
  codes.forEach(([m, data], i) => {
    parts.push(
      GS,
      0x77,
      2 + (i % 2),
      GS,
      0x48,
      i % 4,
      GS,
      0x66,
      i % 2,
      GS,
      0x6b,
      m,
      data.length,
      data,
    );
    parts.push(ESC, 0x4a, 12);
  });
  parts.push([GS, 0x28, 0x6b, 3, 0, 49, 67, 5], qrStore('https://printwire.example/golden'));
  parts.push([GS, 0x28, 0x6b, 3, 0, 49, 81, 48, ESC, 0x4a, 12]);
  parts.push(
    GS,
    0x76,
    0x30,
    1,
    2,
    0,
    16,
    0,
    Array.from({ length: 32 }, (_, i) => (i % 4 < 2 ? 0xaa : 0x55)),
  );
  parts.push(
    ESC,
    0x2a,
    33,
    24,
    0,
    Array.from({ length: 72 }, (_, i) => (i % 3 === 1 ? 0xff : 0x81)),
    LF,
  );
  parts.push(ESC, 0x70, 0, 25, 250, GS, 0x56, 65, 20);
  return esc(parts);
}

const GOLDEN: Array<[string, Paper, () => Uint8Array]> = [
  ['charsets-80mm', '80mm', charsetSheet],
  ['styles-58mm', '58mm', styleSheet],
  ['symbols-80mm', '80mm', symbolSheet],
  ['valid-stream-80mm', '80mm', () => VALID],
];

describe('virtual printer: golden pictures', () => {
  for (const [name, paper, build] of GOLDEN) {
    test(`${name} renders dot for dot as its golden PNG`, async () => {
      const file = join(FIXTURES, `${name}.png`);
      const preview = await renderEscposPreview(build(), { paper });
      if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
        if (process.env.CI)
          assert.fail(`${file} is missing: run with UPDATE_GOLDEN=1 and commit it`);
        writeFileSync(file, preview.png);
      }
      const golden = await sharp(file)
        .extractChannel(0)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const actual = await sharp(preview.png).extractChannel(0).raw().toBuffer();
      const same =
        golden.info.width === preview.width &&
        golden.info.height === preview.height &&
        golden.data.equals(actual);
      if (!same) {
        const out = join(tmpdir(), `${name}.actual.png`);
        writeFileSync(out, preview.png);
        assert.fail(`${name} differs from its golden picture; this run's picture: ${out}`);
      }
    });
  }
});
