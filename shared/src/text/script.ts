/**
 * Which shipped font draws a character: by Unicode block (the scripts of CONTRACT "Every script on
 * paper"). Characters of no such script are the printer's own text (Latin, digits, punctuation,
 * and Cyrillic, which the code pages without it transliterate);
 * marks and joiners go with the character before them; spaces with the script on both sides.
 */
import type { FontKey } from './fonts.js';

/** A script font, `han` (decided per line: Chinese, Japanese or Korean forms), or a class. */
export type CharClass =
  Exclude<FontKey, 'sc' | 'jp' | 'kr'> | 'han' | 'kana' | 'hangul' | 'text' | 'mark' | 'space';

/** [first, last, class], sorted by first code point. */
const BLOCKS: readonly (readonly [number, number, CharClass])[] = [
  [0x0300, 0x036f, 'mark'],
  [0x0370, 0x03ff, 'greek'],
  [0x0530, 0x058f, 'armenian'],
  [0x0590, 0x05ff, 'hebrew'],
  [0x0600, 0x06ff, 'arabic'],
  [0x0750, 0x077f, 'arabic'],
  [0x08a0, 0x08ff, 'arabic'],
  [0x0900, 0x097f, 'devanagari'],
  [0x0980, 0x09ff, 'bengali'],
  [0x0a00, 0x0a7f, 'gurmukhi'],
  [0x0a80, 0x0aff, 'gujarati'],
  [0x0b00, 0x0b7f, 'oriya'],
  [0x0b80, 0x0bff, 'tamil'],
  [0x0c00, 0x0c7f, 'telugu'],
  [0x0c80, 0x0cff, 'kannada'],
  [0x0d00, 0x0d7f, 'malayalam'],
  [0x0d80, 0x0dff, 'sinhala'],
  [0x0e00, 0x0e7f, 'thai'],
  [0x0e80, 0x0eff, 'lao'],
  [0x10a0, 0x10ff, 'georgian'],
  [0x1100, 0x11ff, 'hangul'],
  [0x1200, 0x139f, 'ethiopic'],
  [0x1780, 0x17ff, 'khmer'],
  [0x19e0, 0x19ff, 'khmer'],
  [0x1ab0, 0x1aff, 'mark'],
  [0x1c90, 0x1cbf, 'georgian'],
  [0x1dc0, 0x1dff, 'mark'],
  [0x1f00, 0x1fff, 'greek'],
  [0x200c, 0x200d, 'mark'],
  [0x20d0, 0x20ff, 'mark'],
  [0x2d00, 0x2d2f, 'georgian'],
  [0x2d80, 0x2ddf, 'ethiopic'],
  [0x2e80, 0x2fdf, 'han'],
  [0x3000, 0x303f, 'han'],
  [0x3040, 0x30ff, 'kana'],
  [0x3130, 0x318f, 'hangul'],
  [0x31f0, 0x31ff, 'kana'],
  [0x3200, 0x33ff, 'han'],
  [0x3400, 0x4dbf, 'han'],
  [0x4e00, 0x9fff, 'han'],
  [0xa8e0, 0xa8ff, 'devanagari'],
  [0xa960, 0xa97f, 'hangul'],
  [0xab00, 0xab2f, 'ethiopic'],
  [0xac00, 0xd7ff, 'hangul'],
  [0xf900, 0xfaff, 'han'],
  [0xfb13, 0xfb17, 'armenian'],
  [0xfb1d, 0xfb4f, 'hebrew'],
  [0xfb50, 0xfdff, 'arabic'],
  [0xfe00, 0xfe0f, 'mark'],
  [0xfe30, 0xfe4f, 'han'],
  [0xfe70, 0xfeff, 'arabic'],
  [0xff00, 0xff60, 'han'],
  [0xff61, 0xff9f, 'kana'],
  [0xffa0, 0xffdc, 'hangul'],
  [0x1f000, 0x1faff, 'emoji'],
  [0x20000, 0x3ffff, 'han'],
  [0xe0100, 0xe01ef, 'mark'],
];

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const SPACE = /^\s$/u;

/** The class of one code point. */
export function charClass(cp: number): CharClass {
  if (cp < 0x300) return cp === 0x20 || cp === 0xa0 ? 'space' : 'text';
  let lo = 0;
  let hi = BLOCKS.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last, cls] = BLOCKS[mid]!;
    if (cp < first) hi = mid - 1;
    else if (cp > last) lo = mid + 1;
    else return cls;
  }
  const char = String.fromCodePoint(cp);
  if (cp >= 0x2000 && PICTOGRAPHIC.test(char)) return 'emoji';
  if (SPACE.test(char)) return 'space';
  return 'text';
}

/** Scripts written without spaces between words: a line may break between any two words. */
export function breaksAnywhere(cls: CharClass): boolean {
  return cls === 'thai' || cls === 'lao' || cls === 'khmer' || cls === 'han' || cls === 'kana';
}
