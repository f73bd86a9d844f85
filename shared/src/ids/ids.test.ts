import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isId, newId } from './index.js';

test('an id is its prefix and 26 characters that sort by creation time', () => {
  const first = newId('job', Date.parse('2026-01-01T00:00:00Z'));
  const later = newId('job', Date.parse('2026-01-01T00:00:01Z'));
  assert.match(first, /^job_[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.ok(first < later);
});

test('ids made within one millisecond still increase', () => {
  const ids = Array.from({ length: 100 }, () => newId('job', 1_000));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
});

test('isId tells an id of the prefix from anything else', () => {
  const id = newId('job', Date.now());
  assert.equal(isId('job', id), true);
  assert.equal(isId('tpl', id), false);
  assert.equal(isId('job', id + 'A'), false);
  assert.equal(isId('job', id.slice(0, -1) + 'U'), false);
  assert.equal(isId('job', 'job_'), false);
});
