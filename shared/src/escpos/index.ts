/**
 * The virtual printer: ESC/POS bytes in, the printed page out (as a bitmap with what was printed
 * where, or as a PNG).
 */
export { interpretEscpos } from './interpreter.js';
export { renderEscposPreview, renderEscposToPng, type EscposPreview } from './render.js';
export { ESC_T_TABLES, characterTable, type CharacterTable } from './charsets.js';
export { encodeSymbology, type Symbology } from './barcode/symbologies.js';
export * from './types.js';
