/**
 * ZPL's international character sets (^CI 0-12) and ^CI's remapping pairs. Sets 0-12 are Zebra's
 * code page 850 with a dozen 7-bit positions swapped for national characters (ZPL II Programming
 * Guide, ^CI: "Zebra Code Page 850 with specific character replacements"). The manual's own table
 * of the swaps is a picture in every copy we could read, so each row below follows the ISO 646
 * national variant (ISO-IR registration) of the country the set is named after, the source of the
 * 7-bit national sets printers have carried since the 1970s; where another printer vendor's
 * published table for the same country agrees, that is said too.
 *
 * Positions, in order: 23 24 40 5B 5C 5D 5E 60 7B 7C 7D 7E (# $ @ [ \ ] ^ ` { | } ~).
 */
import iconv from 'iconv-lite';

export interface NationalSet {
  name: string;
  /** The 12 characters at the positions above. */
  chars: string;
  /** Where the row comes from. */
  source: string;
  /** Set when the row is not known to be Zebra's (drawn anyway, with a warning). */
  unsure?: string;
}

export const NATIONAL_POSITIONS = [
  0x23, 0x24, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d, 0x7e,
];

export const NATIONAL_SETS: Record<number, NationalSet> = {
  // ISO 646-US (ANSI X3.4, ISO-IR-6): ASCII itself.
  0: { name: 'U.S.A. 1', chars: '#$@[\\]^`{|}~', source: 'ISO-IR-6 (ASCII)' },
  // Zebra names a second U.S. set and the manual does not say what it swaps; no ISO 646 variant
  // is "USA 2". Drawn as U.S.A. 1, with a warning.
  1: {
    name: 'U.S.A. 2',
    chars: '#$@[\\]^`{|}~',
    source: 'none: drawn as ISO-IR-6',
    unsure: 'the manual does not list what U.S.A. 2 swaps: drawn as U.S.A. 1',
  },
  // BS 4730 (ISO-IR-4): £ for #, overline for ~.
  2: { name: 'U.K.', chars: '£$@[\\]^`{|}‾', source: 'ISO-IR-4 (BS 4730)' },
  // The Dutch national variant of ISO 646 (NEN 1000; it has no ISO-IR number of its own).
  3: { name: 'Holland', chars: '£$¾ĳ½|^`¨ƒ¼´', source: 'ISO 646-NL (NEN 1000)' },
  // NS 4551-1 (ISO-IR-60), Norway; Danish DS 2089 has the same letters at 5B-5D and 7B-7D.
  4: { name: 'Denmark/Norway', chars: '#$@ÆØÅ^`æøå‾', source: 'ISO-IR-60 (NS 4551-1)' },
  // SEN 850200 Annex C (ISO-IR-11), Swedish for names: É Ü é ü as well as Ä Ö Å. The same row
  // is the Sweden/Finland set of Intermec's IPL manual; ISO-IR-10 (Annex B) keeps @ ^ ` and has
  // the overline at 7E instead.
  5: { name: 'Sweden/Finland', chars: '#¤ÉÄÖÅÜéäöåü', source: 'ISO-IR-11 (SEN 850200 C)' },
  // DIN 66003 (ISO-IR-21).
  6: { name: 'Germany', chars: '#$§ÄÖÜ^`äöüß', source: 'ISO-IR-21 (DIN 66003)' },
  // NF Z 62-010:1973 (ISO-IR-25).
  7: { name: 'France 1', chars: '£$à°ç§^`éùè¨', source: 'ISO-IR-25 (NF Z 62-010:1973)' },
  // NF Z 62-010:1982 (ISO-IR-69): µ at 60.
  8: { name: 'France 2', chars: '£$à°ç§^µéùè¨', source: 'ISO-IR-69 (NF Z 62-010:1982)' },
  // UNI 0204-70 (ISO-IR-15).
  9: { name: 'Italy', chars: '£$§°çé^ùàòèì', source: 'ISO-IR-15 (UNI 0204-70)' },
  // ISO-IR-17 (Spain): the row Intermec's Spain set prints too.
  10: { name: 'Spain', chars: '£$§¡Ñ¿^`°ñç~', source: 'ISO-IR-17' },
  // "Miscellaneous": no country, no ISO 646 variant to follow. Drawn as U.S.A. 1, with a warning.
  11: {
    name: 'Miscellaneous',
    chars: '#$@[\\]^`{|}~',
    source: 'none: drawn as ISO-IR-6',
    unsure: 'the manual does not list what Miscellaneous swaps: drawn as U.S.A. 1',
  },
  // JIS C 6220 / JIS X 0201 Roman (ISO-IR-14): ¥ for \ and overline for ~. The manual names this
  // set "Japan (ASCII with Yen symbol)", which agrees at 5C; its 7E is not described.
  12: { name: 'Japan', chars: '#$@[¥]^`{|}‾', source: 'ISO-IR-14 (JIS X 0201 Roman)' },
};

/**
 * The manual's ^CI example puts the Euro sign at position 21 (hex 15) of Zebra's code page 850
 * (`^CI0,21,36` prints € for $); IBM's CP850 has § there, so 15 is overridden.
 */
const ZEBRA_850: Record<number, string> = { 0x15: '€' };

/** What the printer draws for each input byte under a ^CI set 0-13 and its remapping pairs. */
export interface GlyphMap {
  /** Glyph drawn for each byte 0-255. */
  table: string[];
  /** The byte each CP850 character comes from, to map characters of string content. */
  bytes: Map<string, number>;
  warning?: string;
}

const cp850 = (() => {
  const chars: string[] = [];
  for (let b = 0; b < 256; b++) chars.push(ZEBRA_850[b] ?? iconv.decode(Buffer.from([b]), 'cp850'));
  return chars;
})();

/**
 * The glyph map of `^CIa,s1,d1,s2,d2,…` when `a` is 0-13 (else undefined: those sets are decoded
 * as they are). A pair prints the character at position `s` (in the chosen set) for the input
 * byte `d`; the space (32) cannot be remapped, as the manual says.
 */
export function glyphMap(params: string[]): GlyphMap | undefined {
  const a = Number(params[0] || 0);
  if (!Number.isInteger(a) || a < 0 || a > 13) return undefined;
  const base = [...cp850];
  const set = NATIONAL_SETS[a];
  if (set) [...set.chars].forEach((c, i) => (base[NATIONAL_POSITIONS[i]!] = c));
  const table = [...base];
  for (let i = 1; i + 1 < params.length; i += 2) {
    const s = Number(params[i]);
    const d = Number(params[i + 1]);
    const ok = (v: number) => Number.isInteger(v) && v >= 0 && v <= 255;
    if (params[i] === '' || params[i + 1] === '' || !ok(s) || !ok(d) || d === 32) continue;
    table[d] = base[s]!;
  }
  if (a === 0 && params.length < 3) return undefined; // plain CP850: nothing to change
  const bytes = new Map<string, number>();
  cp850.forEach((c, b) => {
    if (!bytes.has(c)) bytes.set(c, b);
  });
  return { table, bytes, ...(set?.unsure ? { warning: `^CI${a}: ${set.unsure}` } : {}) };
}

/**
 * Field text (already decoded from CP850) as the printer draws it under the glyph map: each
 * character goes back to its byte and takes that byte's glyph. Characters CP850 has not are kept.
 * Every font draws every national character (font 0 in DejaVu Sans Condensed Bold, the bitmap
 * fonts in DejaVu Sans Mono).
 */
export function applyGlyphMap(text: string, map: GlyphMap): string {
  let out = '';
  for (const c of text) {
    const b = map.bytes.get(c);
    out += b === undefined ? c : map.table[b]!;
  }
  return out;
}
