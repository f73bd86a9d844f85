import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeSymbology, expandUpcE, gs1CheckDigit, type Symbology } from './symbologies.js';

const enc = (s: Symbology, data: string | number[]) =>
  encodeSymbology(
    s,
    typeof data === 'string' ? Buffer.from(data, 'latin1') : Uint8Array.from(data),
  );

describe('barcode symbologies', () => {
  test('GS1 check digits match published numbers', () => {
    assert.equal(gs1CheckDigit('400638133393'), 1);
    assert.equal(gs1CheckDigit('03600029145'), 2);
    assert.equal(gs1CheckDigit('9638507'), 4);
  });

  test('EAN-13 modules: 95 with guards, first digit in the parity', () => {
    const r = enc('EAN13', '400638133393');
    assert.ok(r.ok);
    assert.equal(r.hri, '4006381333931');
    assert.ok(r.bars.kind === 'modules');
    assert.equal(r.bars.modules.length, 95);
    assert.ok(r.bars.modules.startsWith('101'));
    assert.equal(r.bars.modules.slice(45, 50), '01010');
  });

  test('a wrong check digit is refused', () => {
    const r = enc('EAN13', '4006381333932');
    assert.deepEqual(r, { ok: false, reason: 'EAN13 check digit is wrong' });
    assert.equal(enc('UPC-A', '036000291453').ok, false);
    assert.equal(enc('EAN8', '96385075').ok, false);
  });

  test('UPC-E expands to UPC-A for its check digit and accepts 6, 7, 8, 11 and 12 digits', () => {
    assert.equal(expandUpcE('0', '425261'), '04210000526');
    for (const data of ['425261', '0425261', '04252614', '04210000526', '042100005264']) {
      const r = enc('UPC-E', data);
      assert.ok(r.ok, data);
      assert.equal(r.hri, '04252614');
    }
    assert.equal(enc('UPC-E', '03600029145').ok, false, 'not zero-suppressible');
  });

  test('ITF needs an even number of digits; CODABAR needs start and stop characters', () => {
    assert.equal(enc('ITF', '12345').ok, false);
    assert.equal(enc('ITF', '123456').ok, true);
    assert.equal(enc('CODABAR', '12345').ok, false);
    assert.equal(enc('CODABAR', 'a12345d').ok, true);
  });

  test('CODE39 adds its * start and stop and refuses lowercase', () => {
    const r = enc('CODE39', 'AB-1');
    assert.ok(r.ok);
    assert.equal(r.hri, '*AB-1*');
    assert.equal(enc('CODE39', 'ab').ok, false);
  });

  test('CODE128 follows the {A {B {C selectors; code set C takes a byte per digit pair', () => {
    const c = enc('CODE128', [0x7b, 0x43, 12, 34, 0x7b, 0x42, 0x41]);
    assert.ok(c.ok);
    assert.equal(c.hri, '1234A');
    assert.ok(c.bars.kind === 'modules');
    // start C, 12, 34, code B, A, check, each 11 modules, and the 13-module stop
    assert.equal(c.bars.modules.length, 6 * 11 + 13);
    assert.equal(enc('CODE128', 'no selector').ok, false);
    assert.equal(enc('CODE128', [0x7b, 0x43, 100]).ok, false);
    const literal = enc('CODE128', '{Ba{{b');
    assert.ok(literal.ok);
    assert.equal(literal.hri, 'a{b');
  });

  test('CODE93 encodes full ASCII with shift characters and two check characters', () => {
    const upper = enc('CODE93', 'AB');
    const lower = enc('CODE93', 'ab');
    assert.ok(upper.ok && lower.ok);
    assert.ok(upper.bars.kind === 'modules' && lower.bars.kind === 'modules');
    // start, 2 characters (4 with shifts), 2 checks, stop: 9 modules each, and a final bar
    assert.equal(upper.bars.modules.length, 6 * 9 + 1);
    assert.equal(lower.bars.modules.length, 8 * 9 + 1);
  });
});
