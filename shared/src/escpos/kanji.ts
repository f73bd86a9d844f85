/**
 * Kanji mode (FS &) of Chinese models: GB18030 characters, two bytes (lead 0x81-0xFE) or four
 * (second byte 0x30-0x39), each printed in a 24 × 24 cell. The virtual printer draws them from the
 * project's Noto Sans SC, as a printer's own 24-dot Chinese font would print them.
 */
import iconv from 'iconv-lite';
import { getScriptFont } from '../text/index.js';
import type { Glyph } from './fonts.js';

/** Width and height of a Kanji cell in dots. */
export const KANJI_SIZE = 24;
/** The row under the baseline of a Kanji cell. */
const BASELINE = 20;

/** The character of a complete GB18030 sequence, or undefined while more bytes are needed. */
export function decodeKanji(bytes: readonly number[]): string | undefined {
  const four = bytes.length >= 2 && bytes[1]! >= 0x30 && bytes[1]! <= 0x39;
  if (bytes.length < (four ? 4 : 2)) return undefined;
  return iconv.decode(Buffer.from(bytes), 'gb18030');
}

const glyphs = new Map<string, Glyph>();

/** The character's glyph in a Kanji cell: (row, first column, column after the last) runs. */
export function kanjiGlyph(char: string): Glyph {
  let glyph = glyphs.get(char);
  if (glyph === undefined) {
    const font = getScriptFont('sc');
    const id = font.font.nominalGlyph(char.codePointAt(0) ?? 0) ?? 0;
    const { runs, x, y } = font.dots(id, KANJI_SIZE / font.upem, 0, BASELINE);
    const out: number[] = [];
    for (let i = 0; i < runs.length; i += 3) {
      const row = runs[i]! + y;
      const a = Math.max(0, runs[i + 1]! + x);
      const b = Math.min(KANJI_SIZE, runs[i + 2]! + x);
      if (row >= 0 && row < KANJI_SIZE && b > a) out.push(row, a, b);
    }
    glyph = { runs: Int16Array.from(out) };
    glyphs.set(char, glyph);
  }
  return glyph;
}
