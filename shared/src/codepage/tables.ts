/**
 * Unicode → byte maps of the six printer codepages, built once from iconv-lite's tables.
 * Only printable bytes are mapped (0x20-0x7E and the upper half where the codepage has a printable
 * character), so text can never turn into a control byte and from there into a printer command.
 */
import iconv from 'iconv-lite';

/** The codepages Printwire encodes receipts in (spec: "Codepages"). */
export const CODEPAGES = ['CP437', 'CP850', 'CP858', 'CP1252', 'CP866', 'ISO-8859-15'] as const;

export type CodepageName = (typeof CODEPAGES)[number];

const ICONV_NAMES: Record<CodepageName, string> = {
  CP437: 'cp437',
  CP850: 'cp850',
  CP858: 'cp858',
  CP1252: 'cp1252',
  CP866: 'cp866',
  'ISO-8859-15': 'iso-8859-15',
};

const ALIASES: Record<string, CodepageName> = {
  CP437: 'CP437',
  PC437: 'CP437',
  CP850: 'CP850',
  PC850: 'CP850',
  CP858: 'CP858',
  PC858: 'CP858',
  CP1252: 'CP1252',
  WINDOWS1252: 'CP1252',
  WPC1252: 'CP1252',
  CP866: 'CP866',
  PC866: 'CP866',
  ISO885915: 'ISO-8859-15',
  LATIN9: 'ISO-8859-15',
};

/**
 * Reads a codepage name the way users write it: case and separators do not matter
 * (`cp858`, `PC858`, `iso8859-15`, `windows-1252`). Returns undefined for anything else.
 */
export function parseCodepageName(name: string): CodepageName | undefined {
  return ALIASES[name.toUpperCase().replace(/[\s_-]/g, '')];
}

/** Unicode code point → byte, for the printable characters of one codepage. */
export type CodepageMap = ReadonlyMap<number, number>;

const maps = new Map<CodepageName, CodepageMap>();

export function codepageMap(codepage: CodepageName): CodepageMap {
  let map = maps.get(codepage);
  if (map === undefined) {
    const built = new Map<number, number>();
    const bytes = Buffer.alloc(1);
    for (let b = 0x20; b <= 0xff; b++) {
      if (b === 0x7f) continue;
      bytes[0] = b;
      const text = iconv.decode(bytes, ICONV_NAMES[codepage]);
      const cp = text.codePointAt(0);
      if (cp === undefined || text.length !== 1) continue;
      // U+FFFD marks holes (CP1252 0x81…); C1 controls are the upper half of ISO-8859-15.
      if (cp === 0xfffd || (cp >= 0x7f && cp <= 0x9f)) continue;
      if (!built.has(cp)) built.set(cp, b);
    }
    map = built;
    maps.set(codepage, map);
  }
  return map;
}
