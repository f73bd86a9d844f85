import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { renderLabel } from './index.js';
import { LABEL_MAX_DOTS } from './bitmap.js';
import { inkIn, readPng } from './testing.js';

describe('hostile labels are refused or drawn in part, within bounded memory', () => {
  it('refuses a label larger than LABEL_MAX_DOTS with a RangeError naming the size', () => {
    assert.throws(
      () => renderLabel('^XA^PW32000^LL32000^XZ'),
      (e: Error) => {
        assert.ok(e instanceof RangeError);
        assert.match(e.message, /label size: 32000 x 32000 dots is more than the 50000000 dots/);
        return true;
      },
    );
    assert.throws(() => renderLabel('N\nq30000\nQ30000,0\nP1\n'), RangeError);
    assert.equal(LABEL_MAX_DOTS, 50_000_000);
  });

  it('skips fields whose size alone passes the limit and draws the rest', () => {
    const r = renderLabel(
      '^XA^FO0,0^GB100000,100000,5^FS^FO0,0^GFA,999999999,999999999,99999,FF^FS' +
        '^FO0,0^A0N,32000,32000^FDhuge^FS^FO10,10^GB20,20,20^FS^XZ',
    );
    assert.equal(r.warnings.length, 3, r.warnings.join('\n'));
    assert.equal(inkIn(readPng(r.png), 10, 10, 20, 20), 400);
  });

  it('refuses a ~DG too large to store and an EPL GW too large to draw, with warnings', () => {
    const dg = renderLabel('~DGR:X.GRF,999999999,100,FF^XA^FO0,0^XGR:X.GRF^FS^XZ');
    assert.match(dg.warnings.join('\n'), /~DG R:X.GRF not stored/);
    const gw = renderLabel('N\nq100\nQ100,0\nGW0,0,60000,60000,\nP1\n');
    assert.match(gw.warnings.join('\n'), /GW not drawn/);
  });

  it('a Z64 graphic that inflates past its declared size is a warning', () => {
    const b64 = deflateSync(Buffer.alloc(1_000_000)).toString('base64');
    const r = renderLabel(`^XA^FO0,0^GFA,8,8,2,:Z64:${b64}^FS^XZ`);
    assert.match(r.warnings.join('\n'), /does not inflate/);
  });

  it('garbage is skipped and listed, never thrown', () => {
    const junk =
      '^XA' +
      Array.from({ length: 2000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join('') +
      '^XZ';
    const r = renderLabel(junk);
    assert.equal(r.labelCount, 1);
    assert.ok(Array.isArray(r.skipped));
  });
});
