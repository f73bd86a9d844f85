/**
 * ESC t character tables: Epson's table numbers mapped to iconv-lite encodings, and each table
 * decoded once into 256 characters so that printing a byte is one array look-up.
 */
import iconv from 'iconv-lite';

export interface CharacterTable {
  /** The ESC t number. */
  number: number;
  /** The name users know (`CP437`, `ISO-8859-15`). */
  name: string;
  /** What each byte prints; `''` where the table defines no character (printed blank). */
  chars: readonly string[];
}

/**
 * Epson's ESC t numbers (TM series and most clones). The six Printwire code pages (0, 2, 16, 17,
 * 19, 40) are covered glyph for glyph by the fonts; the others print what the fonts have and a
 * replacement box for the rest.
 */
export const ESC_T_TABLES: Readonly<Record<number, { name: string; encoding: string }>> = {
  0: { name: 'CP437', encoding: 'cp437' },
  1: { name: 'Katakana', encoding: 'katakana' },
  2: { name: 'CP850', encoding: 'cp850' },
  3: { name: 'CP860', encoding: 'cp860' },
  4: { name: 'CP863', encoding: 'cp863' },
  5: { name: 'CP865', encoding: 'cp865' },
  13: { name: 'CP857', encoding: 'cp857' },
  14: { name: 'CP737', encoding: 'cp737' },
  15: { name: 'ISO-8859-7', encoding: 'iso-8859-7' },
  16: { name: 'CP1252', encoding: 'cp1252' },
  17: { name: 'CP866', encoding: 'cp866' },
  18: { name: 'CP852', encoding: 'cp852' },
  19: { name: 'CP858', encoding: 'cp858' },
  33: { name: 'CP775', encoding: 'cp775' },
  34: { name: 'CP855', encoding: 'cp855' },
  35: { name: 'CP861', encoding: 'cp861' },
  36: { name: 'CP862', encoding: 'cp862' },
  38: { name: 'CP869', encoding: 'cp869' },
  39: { name: 'ISO-8859-2', encoding: 'iso-8859-2' },
  40: { name: 'ISO-8859-15', encoding: 'iso-8859-15' },
  44: { name: 'CP1125', encoding: 'cp1125' },
  45: { name: 'CP1250', encoding: 'cp1250' },
  46: { name: 'CP1251', encoding: 'cp1251' },
  47: { name: 'CP1253', encoding: 'cp1253' },
  48: { name: 'CP1254', encoding: 'cp1254' },
  49: { name: 'CP1255', encoding: 'cp1255' },
  50: { name: 'CP1256', encoding: 'cp1256' },
  51: { name: 'CP1257', encoding: 'cp1257' },
};

/**
 * Epson's page 1 (Katakana): ASCII, block and box graphics at 0x80-0x9F (receiptline draws its
 * rules with 0x95), half-width katakana at 0xA1-0xDF; 0xE0-0xFF are left blank here.
 */
function katakana(): string[] {
  const chars: string[] = [];
  for (let b = 0; b < 256; b++) chars.push(b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '');
  [...'▁▂▃▄▅▆▇█▏▎▍▌▋▊▉┼┴┬┤├▔─│▕┌┐└┘╭╮╰╯'].forEach((ch, i) => (chars[0x80 + i] = ch));
  for (let b = 0xa1; b <= 0xdf; b++) chars[b] = String.fromCharCode(0xff61 + b - 0xa1);
  return chars;
}

/** The IBM code pages print 0x7F as the "house" symbol. */
const IBM_PAGES = /^cp(437|8\d\d)$/;

const cache = new Map<number, CharacterTable>();

/** The table for an ESC t number, or undefined when the number is not one the printer knows. */
export function characterTable(number: number): CharacterTable | undefined {
  const cached = cache.get(number);
  if (cached) return cached;
  const entry = ESC_T_TABLES[number];
  if (entry?.encoding === 'katakana') {
    const table = { number, name: entry.name, chars: katakana() };
    cache.set(number, table);
    return table;
  }
  if (!entry || !iconv.encodingExists(entry.encoding)) return undefined;
  const all = Buffer.alloc(256);
  for (let i = 0; i < 256; i++) all[i] = i;
  const chars = [...iconv.decode(all, entry.encoding)].map((ch, byte) => {
    const code = ch.codePointAt(0)!;
    if (byte === 0x7f) return IBM_PAGES.test(entry.encoding) ? '\u2302' : '';
    if (code === 0xfffd || code < 0x20 || (code >= 0x7f && code < 0xa0)) return '';
    return ch;
  });
  const table = { number, name: entry.name, chars };
  cache.set(number, table);
  return table;
}

/** The 12 bytes ESC R replaces, in the order of the strings of INTERNATIONAL_SETS. */
const INTERNATIONAL_BYTES = [
  0x23, 0x24, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d, 0x7e,
];

/** ESC R n: Epson's international character sets (n = 0 is U.S.A., plain ASCII). */
export const INTERNATIONAL_SETS: Readonly<Record<number, { name: string; chars: string }>> = {
  0: { name: 'U.S.A.', chars: '#$@[\\]^`{|}~' },
  1: { name: 'France', chars: '#$à°ç§^`éùè¨' },
  2: { name: 'Germany', chars: '#$§ÄÖÜ^`äöüß' },
  3: { name: 'U.K.', chars: '£$@[\\]^`{|}~' },
  4: { name: 'Denmark I', chars: '#$@ÆØÅ^`æøå~' },
  5: { name: 'Sweden', chars: '#¤ÉÄÖÅÜéäöåü' },
  6: { name: 'Italy', chars: '#$@°\\é^ùàòèì' },
  7: { name: 'Spain I', chars: '₧$@¡Ñ¿^`¨ñ}~' },
  8: { name: 'Japan', chars: '#$@[¥]^`{|}~' },
  9: { name: 'Norway', chars: '#¤ÉÆØÅÜéæøåü' },
  10: { name: 'Denmark II', chars: '#$ÉÆØÅÜéæøåü' },
  11: { name: 'Spain II', chars: '#$á¡Ñ¿é`íñóú' },
  12: { name: 'Latin America', chars: '#$á¡Ñ¿éüíñóú' },
  14: { name: 'Slovenia/Croatia', chars: '#$ŽŠĐĆČžšđćč' },
  15: { name: 'China', chars: '¥$@[\\]^`{|}~' },
};

/** What a byte prints under an international character set, or undefined when it is unchanged. */
export function internationalChar(set: number, byte: number): string | undefined {
  const index = INTERNATIONAL_BYTES.indexOf(byte);
  if (index < 0 || set === 0) return undefined;
  return [...(INTERNATIONAL_SETS[set]?.chars ?? '')][index];
}
