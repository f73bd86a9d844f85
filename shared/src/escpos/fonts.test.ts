import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { INTERNATIONAL_SETS, characterTable } from './charsets.js';
import { getFont, parseFont } from './fonts.js';

/** The six Printwire code pages: ESC t number and iconv-lite name. */
const SIX: Array<[number, string]> = [
  [0, 'cp437'],
  [2, 'cp850'],
  [16, 'cp1252'],
  [17, 'cp866'],
  [19, 'cp858'],
  [40, 'iso-8859-15'],
];

describe('virtual printer fonts', () => {
  test('font A is 12x24 dots and font B 9x17', () => {
    assert.deepEqual([getFont('A').width, getFont('A').height], [12, 24]);
    assert.deepEqual([getFont('B').width, getFont('B').height], [9, 17]);
  });

  for (const [number, encoding] of SIX) {
    test(`both fonts have a glyph for every printable character of ${encoding}`, () => {
      const all = Buffer.alloc(256);
      for (let i = 0; i < 256; i++) all[i] = i;
      const decoded = [...iconv.decode(all, encoding)];
      const table = characterTable(number)!;
      const missing: string[] = [];
      for (let byte = 0x20; byte < 256; byte++) {
        const char = table.chars[byte]!;
        const code = decoded[byte]!.codePointAt(0)!;
        const printable = code !== 0xfffd && !(code >= 0x7f && code < 0xa0);
        if (printable) assert.equal(char, decoded[byte], `byte 0x${byte.toString(16)}`);
        if (char === '') continue;
        for (const font of [getFont('A'), getFont('B')]) {
          const glyph = font.glyphs.get(char.codePointAt(0)!);
          if (!glyph) missing.push(`${font.name}:${char}`);
          else if (char.trim() !== '' && code !== 0xa0) {
            assert.ok(glyph.runs.length > 0, `${font.name} draws ${char}`);
          }
        }
      }
      assert.deepEqual(missing, []);
    });
  }

  test('letters and digits have distinct glyphs, and almost all glyphs are distinct', () => {
    for (const font of [getFont('A'), getFont('B')]) {
      const key = (c: string) => font.glyphs.get(c.codePointAt(0)!)!.runs.join(',');
      const ascii = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'];
      assert.equal(new Set(ascii.map(key)).size, ascii.length, `font ${font.name}`);
      // Homoglyphs (Latin A, Cyrillic А, Greek Α) may share a bitmap; placeholders would not.
      const all = [...font.glyphs.values()].map((g) => g.runs.join(','));
      assert.ok(new Set(all).size > all.length * 0.85, `font ${font.name}`);
    }
  });

  test('both fonts draw every character of the ESC R international sets', () => {
    for (const { name, chars } of Object.values(INTERNATIONAL_SETS)) {
      for (const ch of chars) {
        for (const font of [getFont('A'), getFont('B')]) {
          assert.ok(font.glyphs.has(ch.codePointAt(0)!), `${font.name} lacks ${ch} of ${name}`);
        }
      }
    }
  });

  test('a file that is not a font is refused', () => {
    assert.throws(() => parseFont('A', new Uint8Array(16)), /not a PWF1 file/);
  });
});

const TERMINUS = '/usr/share/fonts/X11/misc/ter-u24b_unicode.pcf.gz';
const canRebuild = existsSync(TERMINUS) && !spawnSync('pcf2bdf', ['-h']).error;

describe('virtual printer fonts are reproducible', () => {
  test(
    'rebuilding them from Terminus gives the committed files byte for byte',
    { skip: canRebuild ? false : 'needs Debian xfonts-terminus and pcf2bdf to rebuild the fonts' },
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'printwire-fonts-'));
      try {
        const script = fileURLToPath(new URL('../../scripts/build-fonts.ts', import.meta.url));
        execFileSync(process.execPath, ['--import', 'tsx', script, dir], { stdio: 'pipe' });
        for (const name of ['font-a.bin', 'font-b.bin']) {
          const committed = readFileSync(new URL(`../../fonts/${name}`, import.meta.url));
          assert.ok(readFileSync(join(dir, name)).equals(committed), name);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
