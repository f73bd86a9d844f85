import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alignIn, columnWidths, layoutPair, layoutTableRow, wrapLine } from './layout.js';

describe('word wrap', () => {
  test('breaks at the last space that fits and drops the spaces at the break', () => {
    assert.deepEqual(wrapLine('aaa bbb ccc', 7), ['aaa bbb', 'ccc']);
    assert.deepEqual(wrapLine('aaa  bbb', 4), ['aaa', 'bbb']);
    assert.deepEqual(wrapLine('short', 10), ['short']);
    assert.deepEqual(wrapLine('', 10), ['']);
  });

  test('cuts a word longer than the line', () => {
    assert.deepEqual(wrapLine('abcdefghij', 4), ['abcd', 'efgh', 'ij']);
    assert.deepEqual(wrapLine('ab abcdefgh', 4), ['ab', 'abcd', 'efgh']);
  });

  test('keeps every line within the width', () => {
    const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor';
    for (const width of [1, 3, 7, 12, 32, 48]) {
      const lines = wrapLine(text, width);
      assert.ok(
        lines.every((l) => l.length <= width),
        `width ${width}`,
      );
      assert.equal(lines.join('').replace(/ /g, ''), text.replace(/ /g, ''));
    }
  });
});

describe('pairs', () => {
  test('fill the line between left and right', () => {
    assert.deepEqual(layoutPair('Tea', '2.00', 12), ['Tea     2.00']);
    assert.deepEqual(layoutPair('', '2.00', 6), ['  2.00']);
  });

  test('shorten the left side, with an ellipsis when there is room for one', () => {
    assert.deepEqual(layoutPair('Chocolate cake slice', '4.50', 20), ['Chocolate ca... 4.50']);
    assert.deepEqual(layoutPair('Chocolate', '14.50', 10), ['Choc 14.50']);
  });

  test('keep the right side whole even when it fills the line', () => {
    assert.deepEqual(layoutPair('Note', 'abcdefghij', 10), ['Note', 'abcdefghij']);
    assert.deepEqual(layoutPair('Note', 'abcdefghijkl', 10), ['Note', 'abcdefghij', '        kl']);
  });
});

describe('tables', () => {
  test('column widths follow the fractions and use the whole line', () => {
    assert.deepEqual(columnWidths([0.5, 0.25, 0.25], 48), [24, 12, 12]);
    assert.deepEqual(columnWidths([1 / 3, 1 / 3, 1 / 3], 32), [11, 11, 10]);
    assert.deepEqual(columnWidths([0.5], 32), [16]);
    assert.deepEqual(columnWidths([0.01, 0.99], 10), [1, 9]);
  });

  test('rows wrap long cells and align each column', () => {
    assert.deepEqual(
      layoutTableRow(['Pain au chocolat', '2', '4.20'], [10, 4, 6], ['left', 'center', 'right']),
      ['Pain au    2    4.20', 'chocolat'],
    );
    assert.deepEqual(layoutTableRow(['a'], [5, 5], ['right', 'left']), ['   a']);
  });

  test('alignment pads on the left for center and right', () => {
    assert.equal(alignIn('ab', 6, 'center'), '  ab');
    assert.equal(alignIn('ab', 6, 'center', true), '  ab  ');
    assert.equal(alignIn('ab', 6, 'right'), '    ab');
    assert.equal(alignIn('abcdefgh', 6, 'right'), 'abcdefgh');
  });
});
