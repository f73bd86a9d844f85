import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeJsonString, withoutControls } from './escape.js';
import { hostileString, seededRandom } from './hostile.js';

const reference = (text: string) =>
  JSON.stringify(text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')).slice(1, -1);

test('receipt string escaping writes what JSON.stringify writes, without control characters', () => {
  const fixed = [
    '',
    'plain',
    '"',
    '\\',
    'a"b\\c',
    '\n\t\r\u001b@',
    '\ud83d\ude00',
    '\ud800x',
    'x\udc00',
    '\ud83d',
    'é€',
  ];
  for (const text of fixed)
    assert.equal(escapeJsonString(text), reference(text), JSON.stringify(text));
  const random = seededRandom(7);
  for (let i = 0; i < 500; i++) {
    const text = hostileString(random);
    assert.equal(escapeJsonString(text), reference(text));
  }
});

test('a receipt value read back loses exactly the control characters but tab and line feed', () => {
  for (let c = 0; c < 0x10000; c++) {
    const unit = String.fromCharCode(c);
    const kept = c === 0x09 || c === 0x0a || (c >= 0x20 && c !== 0x7f);
    assert.equal(withoutControls(`a${unit}b`), kept ? `a${unit}b` : 'ab', `U+${c.toString(16)}`);
  }
  assert.equal(withoutControls('\u001b@x\u007f\ty\n'), '@x\ty\n');
});
