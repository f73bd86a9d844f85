import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CODEPAGES, CodepageEncoder, codepageMap, encodeText, parseCodepageName } from './index.js';

const hex = (text: string, codepage: (typeof CODEPAGES)[number]) =>
  Buffer.from(encodeText(text, codepage).bytes).toString('hex');

describe('codepage maps', () => {
  test('every codepage maps printable ASCII to itself and never to a control byte', () => {
    for (const cp of CODEPAGES) {
      const map = codepageMap(cp);
      for (let c = 0x20; c < 0x7f; c++) assert.equal(map.get(c), c, `${cp} ${c}`);
      for (const byte of map.values())
        assert.ok(byte >= 0x20 && byte !== 0x7f, `${cp} maps to ${byte}`);
    }
  });

  test('the euro sign has its byte where the codepage has one', () => {
    assert.equal(hex('€', 'CP858'), 'd5');
    assert.equal(hex('€', 'CP1252'), '80');
    assert.equal(hex('€', 'ISO-8859-15'), 'a4');
    assert.equal(hex('€', 'CP850'), '455552');
  });

  test('accented letters and Cyrillic use the codepage bytes', () => {
    assert.equal(hex('é', 'CP437'), '82');
    assert.equal(hex('é', 'CP1252'), 'e9');
    assert.equal(hex('Привет', 'CP866'), '8fe0a8a2a5e2');
    assert.equal(hex('ß', 'CP850'), 'e1');
    assert.equal(hex('œ', 'ISO-8859-15'), 'bd');
    assert.equal(hex('œ', 'CP1252'), '9c');
  });

  test('names are read in any case and common spellings', () => {
    assert.equal(parseCodepageName('cp858'), 'CP858');
    assert.equal(parseCodepageName('PC437'), 'CP437');
    assert.equal(parseCodepageName('windows-1252'), 'CP1252');
    assert.equal(parseCodepageName('iso8859-15'), 'ISO-8859-15');
    assert.equal(parseCodepageName('utf-8'), undefined);
  });
});

describe('transliteration', () => {
  test('ligatures, sharp s, curly quotes, dashes and the ellipsis have ASCII stand-ins', () => {
    const r = encodeText('œŒß’‘“”–—…', 'CP866');
    assert.equal(Buffer.from(r.bytes).toString('latin1'), `oeOEss''""--...`);
    assert.deepEqual(
      r.substitutions.map((s) => `${s.char}>${s.replacement}`),
      ['œ>oe', 'Œ>OE', 'ß>ss', "’>'", "‘>'", '“>"', '”>"', '–>-', '—>-', '…>...'],
    );
  });

  test('Cyrillic becomes Latin in codepages without it', () => {
    const r = encodeText('Щи Борщ Юля', 'CP1252');
    assert.equal(Buffer.from(r.bytes).toString('latin1'), 'Shchi Borshch Yulya');
    assert.ok(r.substitutions.every((s) => s.codepage === 'CP1252'));
  });

  test('accents are stripped as the last resort, and what cannot be printed becomes ?', () => {
    const r = encodeText('Łódź Ő 🙂', 'CP437');
    // ó is in CP437 (0xA2); Ł has a table entry; ź and Ő lose their accents; the emoji has nothing.
    assert.equal(
      Buffer.from(r.bytes).toString('hex'),
      Buffer.from('L\xa2dz O ?', 'latin1').toString('hex'),
    );
    assert.deepEqual(
      r.substitutions.map((s) => `${s.char}>${s.replacement}`),
      ['Ł>L', 'ź>z', 'Ő>O', '🙂>?'],
    );
  });

  test('text written decomposed (NFD) is composed before lookup', () => {
    assert.equal(hex('e\u0301', 'CP1252'), 'e9');
  });

  test('control characters are dropped and whitespace controls become spaces', () => {
    assert.equal(hex('a\x1b\x00b\tc\nd', 'CP437'), Buffer.from('ab c d').toString('hex'));
  });

  test('each substitution is reported once with how often it was made', () => {
    const encoder = new CodepageEncoder('CP437');
    encoder.encode('5 € + 3 €');
    encoder.encode('€');
    assert.deepEqual(encoder.substitutions(), [
      { char: '€', replacement: 'EUR', codepage: 'CP437', count: 3 },
    ]);
  });
});

test('a combining accent that cannot be composed is dropped, not printed as ?', () => {
  const r = encodeText('x\u0301', 'CP437');
  assert.equal(Buffer.from(r.bytes).toString('latin1'), 'x');
});
