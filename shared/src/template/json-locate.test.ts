import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locateJsonPath, parsePath } from './json-locate.js';

test('a path as users write it splits into keys and indexes', () => {
  assert.deepEqual(parsePath('blocks[12].size'), ['blocks', 12, 'size']);
  assert.deepEqual(parsePath('rows[0][2]'), ['rows', 0, 2]);
  assert.deepEqual(parsePath('(root)'), ['(root)']);
});

test('the value at a path is found in JSON text, skipping everything before it', () => {
  const text = '{"a": "x\\"}", "blocks": [{"t": [1, {"u": "]"}]}, {"type": "text", "size": 9}]}';
  assert.equal(text.slice(locateJsonPath(text, ['blocks', 1, 'size'])), '9}]}');
  assert.equal(text.slice(locateJsonPath(text, ['blocks', 1])).slice(0, 7), '{"type"');
  assert.equal(text.slice(locateJsonPath(text, ['a'])).slice(0, 3), '"x\\');
});

test('a missing field points at the object that lacks it', () => {
  const text = '{"blocks": [ {"type": "qr"} ]}';
  assert.equal(text.slice(locateJsonPath(text, ['blocks', 0, 'value'])), '{"type": "qr"} ]}');
  assert.equal(locateJsonPath(text, ['nope', 3]), 0);
});
