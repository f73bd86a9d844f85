import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from './ids.js';

const FORMAT = /^job_[0-9A-HJKMNP-TV-Z]{26}$/;

test('ids are prefixed Crockford base32 and strictly increase, within one millisecond too', () => {
  const start = Date.now() + 10_000;
  const ids: string[] = [];
  // Several thousand ids draw the random pool more than once.
  for (let i = 0; i < 3000; i++) ids.push(newId('job', start + Math.floor(i / 3)));
  for (const id of ids) assert.match(id, FORMAT);
  for (let i = 1; i < ids.length; i++)
    assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`);
  assert.equal(new Set(ids).size, ids.length);
});

test('an id made with an earlier clock reading still sorts after the ones before it', () => {
  const later = Date.now() + 20_000;
  const first = newId('job', later);
  const second = newId('job', later - 5_000);
  assert.ok(first < second);
});

test('ids of different milliseconds differ in their random part', () => {
  const t = Date.now() + 30_000;
  const randomParts = new Set<string>();
  for (let i = 0; i < 2000; i++) randomParts.add(newId('job', t + i).slice(-16));
  assert.equal(randomParts.size, 2000);
});
