import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { labelDots, labelSizeProblem, parseLabelSize } from './label-size.js';

describe('label sizes', () => {
  test('inches count dots as the printer does: 4 × 6 in at 203 dpi is 812 × 1218', () => {
    assert.deepEqual(labelDots(parseLabelSize('4x6in'), 203), { width: 812, height: 1218 });
    assert.deepEqual(labelDots(parseLabelSize('4x6in'), 300), { width: 1200, height: 1800 });
  });

  test('millimetres go through 25.4 mm an inch', () => {
    assert.deepEqual(labelDots(parseLabelSize('100x150mm'), 203), { width: 799, height: 1199 });
    assert.deepEqual(labelDots(parseLabelSize('57x32mm'), 600), { width: 1346, height: 756 });
  });

  test('decimals and upper case are read; the text is kept lower case', () => {
    const size = parseLabelSize('2.25X1.25IN');
    assert.equal(size.text, '2.25x1.25in');
    assert.equal(size.widthMm, 57.15);
  });

  test('a size that is not WxH in mm or in, or out of bounds, says why', () => {
    assert.match(labelSizeProblem('80mm')!, /WIDTHxHEIGHT in mm or in/);
    assert.match(labelSizeProblem('4x6cm')!, /WIDTHxHEIGHT/);
    assert.match(labelSizeProblem('3x100mm')!, /at least 5 mm/);
    assert.match(labelSizeProblem('300x100mm')!, /at most 220 mm wide/);
    assert.throws(() => parseLabelSize('4x60in'), RangeError);
    assert.equal(labelSizeProblem('4x6in'), null);
  });
});
