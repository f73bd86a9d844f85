/**
 * ^BO (and ^B0) Aztec Code: the symbol's size from ^BO's d parameter as Labelary reads it,
 * bwip-js encoding the data. Labelary's symbols (read back from its renders) match Okapi
 * Barcode's; where the size is the same as ours the modules still differ, since the two encoders
 * cut the data into Aztec's modes differently (docs/labels.md).
 */
import type { Bitmap } from '../bitmap.js';
import { BarcodeDataError, drawMatrixSymbol } from '../barcodes.js';

/** Codewords of each symbol size (ISO/IEC 24778 Table 1): compact 1-4 layers, full 1-32. */
const COMPACT_CODEWORDS = [17, 40, 51, 76];
const FULL_CODEWORDS = [
  21, 48, 60, 88, 120, 156, 196, 240, 230, 272, 316, 364, 416, 470, 528, 588, 652, 720, 790, 864,
  940, 1020, 920, 992, 1066, 1144, 1224, 1306, 1392, 1480, 1570, 1664,
];
/** The error correction share when d asks for none (0 or out of range): ISO's recommended 23 %. */
const DEFAULT_ECC_PERCENT = 23;

type AztecSize = { format: 'compact' | 'full'; layers: number; codewords: number };

const SIZES: AztecSize[] = [
  ...COMPACT_CODEWORDS.map((codewords, i) => ({
    format: 'compact' as const,
    layers: i + 1,
    codewords,
  })),
  ...FULL_CODEWORDS.map((codewords, i) => ({ format: 'full' as const, layers: i + 1, codewords })),
];

/**
 * The bwip-js options of a ^BO field's d: 101-104 a compact symbol of 1-4 layers, 201-232 a
 * full-range one of 1-32 layers, 300 a rune; 1-99 (and the default) an error correction share:
 * the smallest symbol, compact ones first, whose error correction codewords are that share of
 * its codewords rounded down (Labelary's rule, read from its symbols at 23, 45, 70 and 95 %: no
 * 3 codewords more, as bwip-js's own rule adds).
 */
export function aztecSizeOptions(d: number): Record<string, unknown> | { percent: number } {
  if (d >= 101 && d <= 104) return { format: 'compact', layers: d - 100 };
  if (d >= 201 && d <= 232) return { format: 'full', layers: d - 200 };
  if (d === 300) return { format: 'rune' };
  return { percent: d >= 1 && d <= 99 ? d : DEFAULT_ECC_PERCENT };
}

/** The size chosen for an error correction share and data (each refused size costs an encoding). */
const chosenSizes = new Map<string, AztecSize>();

/** Draws a ^BO field's symbol, modules `module` dots square. */
export function drawZplAztec(data: string, d: number, module: number): Bitmap {
  const size = aztecSizeOptions(d);
  if (!('percent' in size)) {
    const rune = size.format === 'rune';
    if (rune && (!/^\d{1,3}$/.test(data.trim()) || Number(data) > 255)) {
      throw new BarcodeDataError('^BO: an Aztec rune (d = 300) holds a number from 0 to 255');
    }
    return drawMatrixSymbol('azteccode', rune ? data.trim() : data, size, module);
  }
  const percent = Number(size.percent);
  const key = `${percent}\u0000${data}`;
  const known = chosenSizes.get(key);
  let lastError: unknown;
  for (const candidate of known ? [known] : SIZES) {
    const ecc = Math.floor((candidate.codewords * percent) / 100);
    // bwip-js reserves ceil(codewords × eclevel / 100 + 3) codewords: this eclevel gives `ecc`
    // (its least, 5 %, where that is fewer).
    const eclevel = Math.max(5, Math.min(95, ((ecc - 3) * 100) / candidate.codewords - 1e-9));
    try {
      const options = { format: candidate.format, layers: candidate.layers, eclevel };
      const bitmap = drawMatrixSymbol('azteccode', data, options, module);
      if (chosenSizes.size >= 256) chosenSizes.delete(chosenSizes.keys().next().value!);
      chosenSizes.set(key, candidate);
      return bitmap;
    } catch (error) {
      if (!(error instanceof BarcodeDataError)) throw error;
      lastError = error;
    }
  }
  throw lastError;
}
