/**
 * Text → printer bytes in one codepage, with transliteration of what the codepage lacks.
 *
 * Encoded text is returned as a "byte string": a JS string whose char codes are the bytes
 * (0x20-0xFF). Layout code measures, wraps and pads it as printed cells (one byte is one cell),
 * which is right only after transliteration (`œ` takes two cells once it is `oe`).
 */
import { codepageMap, type CodepageMap, type CodepageName } from './tables.js';
import { stripAccents, transliteration } from './transliterate.js';

/** One kind of change the encoder made to the text, with how often it made it. */
export interface Substitution {
  /** The character of the document. */
  char: string;
  /** What is printed instead ('' when the character is dropped). */
  replacement: string;
  codepage: CodepageName;
  count: number;
}

interface Replacement {
  bytes: string;
  printed: string;
}

const MAX_DEPTH = 4;
const COMBINING_MARK = /^\p{M}$/u;

/**
 * Encodes text into one codepage. Characters the codepage lacks are replaced (from the
 * transliteration table, then by stripping accents, then by '?'); each replacement is worked out
 * once per encoder and counted in `substitutions`. Control characters are dropped (tabs become
 * spaces, as do line breaks), so text never carries printer commands.
 */
export class CodepageEncoder {
  readonly codepage: CodepageName;
  private readonly map: CodepageMap;
  private readonly cache = new Map<string, Replacement>();
  private readonly counts = new Map<string, Substitution>();

  constructor(codepage: CodepageName) {
    this.codepage = codepage;
    this.map = codepageMap(codepage);
  }

  /** The byte string of `text` (one char code per printed byte). */
  encode(text: string): string {
    // Fast path: printable ASCII needs no work (most receipt text is).
    let i = 0;
    const n = text.length;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c > 0x7e) break;
      i++;
    }
    if (i === n) return text;
    // The last ASCII letter may carry the combining accents that follow it (NFD text).
    if (i > 0) i--;
    let out = text.slice(0, i);
    const rest = text.slice(i).normalize('NFC');
    for (const char of rest) {
      const cp = char.codePointAt(0)!;
      if (cp >= 0x20 && cp <= 0x7e) {
        out += char;
        continue;
      }
      const byte = this.map.get(cp);
      if (byte !== undefined) {
        out += String.fromCharCode(byte);
        continue;
      }
      const r = this.replace(char);
      out += r.bytes;
      const counted = this.counts.get(char);
      if (counted === undefined) {
        this.counts.set(char, {
          char,
          replacement: r.printed,
          codepage: this.codepage,
          count: 1,
        });
      } else counted.count++;
    }
    return out;
  }

  /** Every change made so far, in the order first met. */
  substitutions(): Substitution[] {
    return [...this.counts.values()].map((s) => ({ ...s }));
  }

  private replace(char: string): Replacement {
    let r = this.cache.get(char);
    if (r === undefined) {
      r = this.resolve(char, 0);
      this.cache.set(char, r);
    }
    return r;
  }

  private resolve(char: string, depth: number): Replacement {
    const cp = char.codePointAt(0)!;
    if (cp === 0x09 || cp === 0x0a || cp === 0x0d) return { bytes: ' ', printed: ' ' };
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return { bytes: '', printed: '' };
    if (COMBINING_MARK.test(char)) return { bytes: '', printed: '' };
    const byte = this.map.get(cp);
    if (byte !== undefined) return { bytes: String.fromCharCode(byte), printed: char };
    if (depth < MAX_DEPTH) {
      const candidate = transliteration(char) ?? stripAccents(char);
      if (candidate !== undefined) {
        let bytes = '';
        let printed = '';
        for (const c of candidate) {
          const part = this.resolve(c, depth + 1);
          bytes += part.bytes;
          printed += part.printed;
        }
        return { bytes, printed };
      }
    }
    return { bytes: '?', printed: '?' };
  }
}

/** Encodes one string; the substitutions made are returned with it. */
export function encodeText(
  text: string,
  codepage: CodepageName,
): { bytes: Uint8Array; substitutions: Substitution[] } {
  const encoder = new CodepageEncoder(codepage);
  const s = encoder.encode(text);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return { bytes, substitutions: encoder.substitutions() };
}
