/**
 * GS k barcode printing: bars GS h dots tall and GS w dots per module (wide elements 2.5 times
 * the narrow ones, as Epson prints them), the human-readable text (GS H, GS f) above and/or below.
 */
import { getFont } from '../fonts.js';
import type { Printer } from '../printer.js';
import type { WarningLog } from '../warnings.js';
import { encodeSymbology, type Bars, type Symbology } from './symbologies.js';

/** Gap between the bars and the human-readable text, in dots. */
const HRI_GAP = 4;

/** Widths in dots of alternating bars and spaces, starting with a bar. */
export function barWidths(bars: Bars, moduleWidth: number): number[] {
  const widths: number[] = [];
  if (bars.kind === 'ratio') {
    const wide = Math.round(moduleWidth * 2.5);
    for (const e of bars.elements) widths.push(e === 'w' ? wide : moduleWidth);
    return widths;
  }
  const m = bars.modules;
  let i = 0;
  while (i < m.length) {
    const start = i;
    while (i < m.length && m[i] === m[start]) i++;
    widths.push((i - start) * moduleWidth);
  }
  return widths;
}

export function printBarcode(
  printer: Printer,
  warnings: WarningLog,
  symbology: Symbology,
  data: Uint8Array,
): void {
  const encoded = encodeSymbology(symbology, data);
  if (!encoded.ok) {
    warnings.add(`barcode not printed: ${encoded.reason}`);
    return;
  }
  const { height, moduleWidth, hri, hriFont } = printer.state.barcode;
  const widths = barWidths(encoded.bars, moduleWidth);
  const width = widths.reduce((a, b) => a + b, 0);
  if (width > printer.printArea().width) {
    warnings.add(`${symbology} barcode of ${width} dots does not fit the print area: not printed`);
    return;
  }
  const font = getFont(hriFont);
  const textHeight = font.height + HRI_GAP;
  const above = hri === 'above' || hri === 'both' ? textHeight : 0;
  const below = hri === 'below' || hri === 'both' ? textHeight : 0;
  const total = above + height + below;
  const at = printer.beginBlock(width, total, `${symbology} barcode`);
  if (!at) return;
  const c = printer.canvas;
  let x = at.x;
  widths.forEach((w, i) => {
    if (i % 2 === 0) c.fill(x, at.y + above, w, height);
    x += w;
  });
  const drawText = (top: number) => {
    const textWidth = encoded.hri.length * font.width;
    let tx = at.x + Math.floor((width - textWidth) / 2);
    tx = Math.max(printer.printArea().left, Math.min(tx, c.width - textWidth));
    for (const ch of encoded.hri) {
      const glyph = font.glyphs.get(ch.codePointAt(0)!) ?? font.missing;
      for (let i = 0; i < glyph.runs.length; i += 3) {
        c.fill(
          tx + glyph.runs[i + 1]!,
          top + glyph.runs[i]!,
          glyph.runs[i + 2]! - glyph.runs[i + 1]!,
          1,
        );
      }
      tx += font.width;
    }
  };
  if (above) drawText(at.y);
  if (below) drawText(at.y + above + height + HRI_GAP);
  printer.graphics.push({
    kind: 'barcode',
    x: at.x,
    y: at.y,
    width,
    height: total,
    symbology,
    data: encoded.hri,
  });
  printer.endBlock(total);
}
