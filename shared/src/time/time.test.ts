import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffMs, fullJitter } from './backoff.js';
import { FakeClock } from './clock.js';

test('the backoff doubles from its base up to its cap', () => {
  const options = { baseMs: 1000, maxMs: 30_000 };
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, options)),
    [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000],
  );
  assert.equal(backoffMs(-3, options), 1000, 'no fewer than zero doublings');
  assert.equal(backoffMs(10_000, { baseMs: 5000, maxMs: Infinity }), 5000 * 2 ** 30);
});

test('full jitter draws within the window', () => {
  assert.equal(
    fullJitter(8000, () => 0),
    0,
  );
  assert.equal(
    fullJitter(8000, () => 0.5),
    4000,
  );
  assert.equal(
    fullJitter(8000, () => 0.999_999),
    7999,
  );
});

test('the fake clock runs due timers in order and only when told', () => {
  const clock = new FakeClock(1000);
  const ran: string[] = [];
  clock.setTimeout(() => ran.push('b'), 20);
  clock.setTimeout(() => ran.push('a'), 10);
  const dropped = clock.setTimeout(() => ran.push('x'), 15);
  clock.clearTimeout(dropped);
  assert.equal(clock.nextAt(), 1010);
  clock.advance(15);
  assert.deepEqual(ran, ['a']);
  assert.equal(clock.now(), 1015);
  clock.set(2000);
  assert.deepEqual(ran, ['a', 'b']);
  clock.set(500);
  assert.equal(clock.now(), 500);
  assert.equal(clock.pending, 0);
});
