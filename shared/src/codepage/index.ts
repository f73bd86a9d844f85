// Printer codepages: the six names, their Unicode → byte maps and text encoding with
// transliteration.
export { CODEPAGES, parseCodepageName, codepageMap } from './tables.js';
export type { CodepageName, CodepageMap } from './tables.js';
export { CodepageEncoder, encodeText } from './encode.js';
export type { Substitution } from './encode.js';
export { transliteration, stripAccents } from './transliterate.js';
