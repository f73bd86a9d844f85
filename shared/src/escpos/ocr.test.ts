/**
 * Legibility: tesseract (Debian tesseract-ocr, tesseract-ocr-eng) must read the text the virtual
 * printer draws, in both fonts and at double size. The page is scaled up 2x (nearest neighbour)
 * as a scanner's resolution would give it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderEscposToPng } from './render.js';
import { ESC, GS, LF, esc, readWithTesseract, skipWithout } from '../testing/escpos.js';

const skip = skipWithout('tesseract');

const RECEIPT = esc(
  ESC,
  0x40,
  ESC,
  0x61,
  1,
  GS,
  0x21,
  0x11,
  'BAKERY',
  LF,
  GS,
  0x21,
  0,
  'Twelve rue des Boulangers',
  LF,
  ESC,
  0x61,
  0,
  'Espresso coffee         five euros',
  LF,
  ESC,
  0x45,
  1,
  'Croissant with butter',
  LF,
  ESC,
  0x45,
  0,
  ESC,
  0x4d,
  1,
  'The quick brown fox jumps over the lazy dog',
  LF,
  ESC,
  0x4d,
  0,
  'Thank you for your visit',
  LF,
);

describe('virtual printer: OCR reads the text', { skip }, () => {
  test('tesseract reads every word of a rendered receipt', async () => {
    const text = await readWithTesseract(await renderEscposToPng(RECEIPT, { paper: '80mm' }));
    const words = new Set(text.toLowerCase().split(/[^a-z]+/));
    const expected =
      'bakery twelve rue des boulangers espresso coffee five euros croissant with butter the quick brown fox jumps over lazy dog thank you for your visit';
    const missing = expected.split(' ').filter((w) => !words.has(w));
    assert.deepEqual(missing, [], `tesseract read:\n${text}`);
  });
});
