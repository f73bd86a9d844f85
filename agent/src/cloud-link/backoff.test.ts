import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { busyDelayMs, reconnectDelayMs, seededRandom } from './backoff.js';

function busiestSecond(delays: number[]): number {
  const buckets = new Map<number, number>();
  for (const d of delays)
    buckets.set(Math.floor(d / 1000), (buckets.get(Math.floor(d / 1000)) ?? 0) + 1);
  return Math.max(...buckets.values()) / delays.length;
}

describe('reconnect backoff', () => {
  test('the window doubles from the base and stops at the cap', () => {
    const top = () => 0.999999;
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 40].map((f) => reconnectDelayMs(f, top, { baseMs: 1000, capMs: 10_000 })),
      [999, 1999, 3999, 7999, 9999, 9999, 9999],
    );
    assert.equal(
      reconnectDelayMs(3, () => 0),
      0,
    );
  });

  test('10,000 agents dropped by a cloud restart do not come back in the same second', () => {
    const agents = Array.from({ length: 10_000 }, (_, i) => seededRandom(i + 1));
    const first = agents.map((random) => reconnectDelayMs(0, random));
    // Five one-second buckets: about a fifth each, never most of them.
    assert.ok(busiestSecond(first) < 0.25, `busiest second holds ${busiestSecond(first)}`);
    const fourth = agents.map((random) => reconnectDelayMs(3, random));
    assert.ok(busiestSecond(fourth) < 0.03, `busiest second holds ${busiestSecond(fourth)}`);
    // Without jitter every agent would pick the same delay.
    const withoutJitter = agents.map(() => reconnectDelayMs(0, () => 0.5));
    assert.equal(busiestSecond(withoutJitter), 1);
  });
});

describe('a busy cloud', () => {
  test('the agent waits the Retry-After hint plus up to as much jitter, at most the cap twice', () => {
    assert.equal(
      busyDelayMs(5000, () => 0),
      5000,
    );
    assert.equal(
      busyDelayMs(5000, () => 0.999_999),
      9999,
    );
    assert.equal(
      busyDelayMs(600_000, () => 0, 60_000),
      60_000,
      'a hint above the cap is cut to it',
    );
  });
});
