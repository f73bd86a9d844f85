/**
 * Generates the virtual printer's bitmap fonts, `shared/fonts/font-a.bin` (12x24 dots) and
 * `shared/fonts/font-b.bin` (9x17 dots), from the Terminus font (SIL Open Font License 1.1) as
 * Debian ships it. Run once after changing the glyph set; the generated files are committed so that
 * the same ESC/POS bytes give the same PNG on every machine.
 *
 *   apt-get install xfonts-terminus pcf2bdf
 *   node --import tsx shared/scripts/build-fonts.ts [output directory, default shared/fonts]
 *
 * Font A is Terminus bold 12x24 (a thermal printer's font A has two-dot strokes); font B is
 * Terminus bold 8x16 placed in a 9x17 cell, one blank row on top, box-drawing and block elements
 * stretched over the extra row and column so that they still join their neighbours.
 *
 * File format (little endian): "PWF1", u8 width, u8 height, u16 glyph count, the code points as
 * u32 in ascending order, then each glyph's rows, MSB first, ceil(width / 8) bytes per row.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { characterTable, ESC_T_TABLES, INTERNATIONAL_SETS } from '../src/escpos/charsets.js';

const TERMINUS_DIR = '/usr/share/fonts/X11/misc';
/** ESC t numbers of the six Printwire code pages: every character of these must have a glyph. */
const REQUIRED_TABLES = [0, 2, 16, 17, 19, 40];
/** Printed for 0x7F by the IBM code pages (the "house" of CP437) and for undefined positions. */
const EXTRA_CHARS = ['\u2302', '\ufffd'];

interface BdfGlyph {
  width: number;
  height: number;
  xOff: number;
  yOff: number;
  rows: number[];
}

interface BdfFont {
  /** Width of the font's cell (FONTBOUNDINGBOX). */
  cellWidth: number;
  ascent: number;
  descent: number;
  glyphs: Map<number, BdfGlyph>;
}

function loadBdf(pcfGz: string): BdfFont {
  const pcf = gunzipSync(readFileSync(pcfGz));
  const bdf = execFileSync('pcf2bdf', [], { input: pcf, maxBuffer: 64 * 1024 * 1024 }).toString();
  const lines = bdf.split('\n');
  let ascent = 0;
  let descent = 0;
  let cellWidth = 0;
  const glyphs = new Map<number, BdfGlyph>();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith('FONTBOUNDINGBOX ')) cellWidth = Number(line.split(' ')[1]);
    if (line.startsWith('FONT_ASCENT ')) ascent = Number(line.split(' ')[1]);
    if (line.startsWith('FONT_DESCENT ')) descent = Number(line.split(' ')[1]);
    if (line.startsWith('STARTCHAR')) {
      let encoding = -1;
      let bbx = [0, 0, 0, 0];
      const rows: number[] = [];
      i++;
      while (!lines[i]!.startsWith('BITMAP')) {
        const l = lines[i]!;
        if (l.startsWith('ENCODING ')) encoding = Number(l.split(' ')[1]);
        if (l.startsWith('BBX ')) bbx = l.split(' ').slice(1).map(Number);
        i++;
      }
      i++;
      for (; !lines[i]!.startsWith('ENDCHAR'); i++) rows.push(parseInt(lines[i]!, 16));
      const [width, height, xOff, yOff] = bbx as [number, number, number, number];
      // BDF rows are padded to whole bytes, MSB first.
      const bits = Math.ceil(width / 8) * 8;
      glyphs.set(encoding, {
        width,
        height,
        xOff,
        yOff,
        rows: rows.map((r) => r >>> (bits - width)),
      });
    }
    i++;
  }
  return { cellWidth, ascent, descent, glyphs };
}

/** Renders one glyph into a cell as a 0/1 array, the font's baseline `baseline` rows down. */
function toCell(
  glyph: BdfGlyph,
  cellW: number,
  cellH: number,
  top: number,
  ascent: number,
): Uint8Array {
  const cell = new Uint8Array(cellW * cellH);
  const firstRow = top + ascent - (glyph.height + glyph.yOff);
  for (let r = 0; r < glyph.height; r++) {
    const y = firstRow + r;
    if (y < 0 || y >= cellH) continue;
    for (let c = 0; c < glyph.width; c++) {
      const x = glyph.xOff + c;
      if (x < 0 || x >= cellW) continue;
      if ((glyph.rows[r]! >> (glyph.width - 1 - c)) & 1) cell[y * cellW + x] = 1;
    }
  }
  return cell;
}

/** Box drawing and block elements touch the cell's edges: stretch them over added rows/columns. */
function stretchEdges(cell: Uint8Array, w: number, h: number, srcW: number, top: number): void {
  for (let y = 0; y < h; y++) {
    for (let x = srcW; x < w; x++) cell[y * w + x] = cell[y * w + srcW - 1]!;
  }
  for (let y = top - 1; y >= 0; y--) {
    for (let x = 0; x < w; x++) cell[y * w + x] = cell[(y + 1) * w + x]!;
  }
}

/** The characters of some ESC t tables (what the table prints; blanks excluded). */
function tableChars(numbers: readonly number[]): Set<number> {
  const set = new Set<number>();
  for (const n of numbers) {
    for (const ch of characterTable(n)!.chars) if (ch !== '') set.add(ch.codePointAt(0)!);
  }
  return set;
}

/** Every character of the required tables, and those of the other tables that Terminus has. */
function charset(font: BdfFont): number[] {
  const set = tableChars(REQUIRED_TABLES);
  for (const ch of EXTRA_CHARS) set.add(ch.codePointAt(0)!);
  for (const { chars } of Object.values(INTERNATIONAL_SETS)) {
    for (const ch of chars) set.add(ch.codePointAt(0)!);
  }
  const others = Object.keys(ESC_T_TABLES).map(Number);
  for (const code of tableChars(others)) if (font.glyphs.has(code)) set.add(code);
  return [...set].sort((a, b) => a - b);
}

function build(font: BdfFont, cellW: number, cellH: number, top: number, codes: number[]): Buffer {
  const bytesPerRow = Math.ceil(cellW / 8);
  const header = Buffer.alloc(8);
  header.write('PWF1', 0, 'latin1');
  header.writeUInt8(cellW, 4);
  header.writeUInt8(cellH, 5);
  header.writeUInt16LE(codes.length, 6);
  const points = Buffer.alloc(codes.length * 4);
  const bitmaps = Buffer.alloc(codes.length * cellH * bytesPerRow);
  const missing: string[] = [];
  codes.forEach((code, index) => {
    points.writeUInt32LE(code, index * 4);
    const glyph = font.glyphs.get(code);
    if (!glyph) {
      missing.push(`U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
      return;
    }
    const cell = toCell(glyph, cellW, cellH, top, font.ascent);
    if (code >= 0x2500 && code <= 0x259f) {
      stretchEdges(cell, cellW, cellH, Math.min(font.cellWidth, cellW), top);
    }
    for (let y = 0; y < cellH; y++) {
      for (let x = 0; x < cellW; x++) {
        if (cell[y * cellW + x]) {
          bitmaps[(index * cellH + y) * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
        }
      }
    }
  });
  if (missing.length > 0) throw new Error(`the font lacks ${missing.join(' ')}`);
  return Buffer.concat([header, points, bitmaps]);
}

const outDir = process.argv[2] ?? fileURLToPath(new URL('../fonts', import.meta.url));
const out = (name: string) => join(outDir, name);
const fontA = loadBdf(`${TERMINUS_DIR}/ter-u24b_unicode.pcf.gz`);
const fontB = loadBdf(`${TERMINUS_DIR}/ter-u16b_unicode.pcf.gz`);
// Both fonts get the same glyph set: the characters both sources have.
const inB = new Set(charset(fontB));
const codes = charset(fontA).filter((code) => inB.has(code));
writeFileSync(out('font-a.bin'), build(fontA, 12, 24, 0, codes));
writeFileSync(out('font-b.bin'), build(fontB, 9, 17, 1, codes));
console.log(`wrote font-a.bin (12x24) and font-b.bin (9x17) with ${codes.length} glyphs each`);
