/**
 * Text in any script as printer dots: the fonts the project ships, HarfBuzz shaping, the Unicode
 * bidirectional algorithm, line breaking and the rasteriser. The receipt encoder draws with it
 * the lines a code page cannot carry (CONTRACT "Every script on paper").
 */
export { Bitmap, Outline, type PathCommand } from './raster.js';
export { FONT_FILES, getScriptFont, preloadScriptFonts, type FontKey } from './fonts.js';
export { charClass, type CharClass } from './script.js';
export {
  Paragraph,
  cleanText,
  drawRow,
  firstStrongIsRtl,
  needsRaster,
  nativeColumns,
  type LaidLine,
  type LineItem,
  type LineStyle,
  type Placement,
  type PrinterText,
} from './paragraph.js';
