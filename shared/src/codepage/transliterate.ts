/**
 * Replacements for characters a codepage lacks, tried before the last resorts (accents stripped
 * through NFD, then '?'). A replacement may itself need replacing: `€` becomes `EUR` where the
 * codepage has no euro sign.
 */
const PUNCTUATION: Record<string, string> = {
  '\u2018': "'", // ‘
  '\u2019': "'", // ’
  '\u201a': "'", // ‚
  '\u201b': "'",
  '\u2032': "'", // ′
  '\u201c': '"', // “
  '\u201d': '"', // ”
  '\u201e': '"', // „
  '\u201f': '"',
  '\u2033': '"', // ″
  '\u00ab': '"', // «
  '\u00bb': '"', // »
  '\u2039': '<', // ‹
  '\u203a': '>', // ›
  '\u2010': '-', // ‐
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-', // –
  '\u2014': '-', // —
  '\u2015': '-',
  '\u2212': '-', // −
  '\u2026': '...', // …
  '\u2022': '*', // •
  '\u00b7': '.', // ·
  '\u00a0': ' ', // no-break space
  '\u2007': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\u200b': '',
  '\u200c': '',
  '\u200d': '',
  '\u2060': '',
  '\ufeff': '',
  '\u00ad': '', // soft hyphen
  '\u20ac': 'EUR', // €
  '\u00a3': 'GBP', // £
  '\u00a5': 'JPY', // ¥
  '\u20bd': 'RUB', // ₽
  '\u20b4': 'UAH', // ₴
  '\u2116': 'No', // №
  '\u2122': 'TM', // ™
  '\u00a9': '(C)', // ©
  '\u00ae': '(R)', // ®
  '\u00d7': 'x', // ×
  '\u00f7': '/', // ÷
  '\u00bd': '1/2',
  '\u00bc': '1/4',
  '\u00be': '3/4',
  '\u00b0': 'o', // °
  '\u00a7': 'S', // §
  '\u00b5': 'u', // µ
  '\u00a4': '$', // ¤
  '\u2248': '~', // ≈
  '\u2264': '<=', // ≤
  '\u2265': '>=', // ≥
  '\u2260': '!=', // ≠
  '\u2190': '<-', // ←
  '\u2192': '->', // →
  '\u2713': 'v', // ✓
  '\u2714': 'v',
  '\u2715': 'x',
};

/** Letters that NFD does not decompose into a base letter and a mark. */
const LETTERS: Record<string, string> = {
  œ: 'oe',
  Œ: 'OE',
  æ: 'ae',
  Æ: 'AE',
  ß: 'ss',
  ẞ: 'SS',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'Th',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŋ: 'n',
  Ŋ: 'N',
  ſ: 's',
  ĳ: 'ij',
  Ĳ: 'IJ',
  ﬁ: 'fi',
  ﬂ: 'fl',
  ﬀ: 'ff',
};

// Russian, Ukrainian and Belarusian letters (BGN/PCGN-like, the soft and hard signs dropped).
const CYRILLIC_LOWER: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'yo',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  є: 'ye',
  і: 'i',
  ї: 'yi',
  ґ: 'g',
  ў: 'u',
};

const GREEK_LOWER: Record<string, string> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

function withCapitals(lower: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...lower };
  for (const [letter, latin] of Object.entries(lower)) {
    const upper = letter.toUpperCase();
    if (upper !== letter && upper.length === 1) {
      out[upper] = latin.length === 0 ? '' : latin[0]!.toUpperCase() + latin.slice(1);
    }
  }
  return out;
}

const TABLE: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ...PUNCTUATION,
    ...LETTERS,
    ...withCapitals(CYRILLIC_LOWER),
    ...withCapitals(GREEK_LOWER),
  }),
);

/** The table's replacement for one character, or undefined when it has none. */
export function transliteration(char: string): string | undefined {
  return TABLE.get(char);
}

const COMBINING_MARKS = /\p{M}/gu;

/** The character without its accents (`é` → `e`), or undefined when that changes nothing. */
export function stripAccents(char: string): string | undefined {
  const stripped = char.normalize('NFD').replace(COMBINING_MARKS, '');
  return stripped === char || stripped === '' ? undefined : stripped;
}
