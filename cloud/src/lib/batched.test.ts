import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Batched } from './batched.js';

/** A run that records its batches and answers when released. */
function recorder() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  const run = async (keys: number[]) => {
    batches.push(keys);
    await new Promise<void>((resolve) => releases.push(resolve));
    if (keys.includes(13)) throw new Error('thirteen');
    return keys.map((k) => k * 10);
  };
  const released = async (i: number) => {
    while (releases.length <= i) await new Promise((resolve) => setImmediate(resolve));
    releases[i]!();
  };
  return { batches, run, released };
}

test('calls of one turn are answered by one run, each with its own value', async () => {
  const r = recorder();
  const batched = new Batched(r.run);
  const answers = Promise.all([1, 2, 3].map((k) => batched.call(k)));
  await r.released(0);
  assert.deepEqual(await answers, [10, 20, 30]);
  assert.deepEqual(r.batches, [[1, 2, 3]]);
});

test('calls made while a run is on its way wait and form the next batch; a failure fails only its batch', async () => {
  const r = recorder();
  const batched = new Batched(r.run);
  const first = batched.call(1);
  await new Promise((resolve) => setImmediate(resolve));
  const later = [batched.call(13), batched.call(4)];
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(r.batches, [[1]], 'the second batch waits for the first');
  await r.released(0);
  assert.equal(await first, 10);
  await r.released(1);
  await assert.rejects(later[0]!, /thirteen/);
  await assert.rejects(later[1]!, /thirteen/);
  assert.deepEqual(r.batches, [[1], [13, 4]]);
  // The batcher goes on after a failure.
  const after = batched.call(5);
  await r.released(2);
  assert.equal(await after, 50);
});

test('no run answers more than maxBatch calls', async () => {
  const r = recorder();
  const batched = new Batched(r.run, 2);
  const answers = Promise.all([1, 2, 3, 4, 5].map((k) => batched.call(k)));
  for (let i = 0; i < 3; i++) await r.released(i);
  assert.deepEqual(await answers, [10, 20, 30, 40, 50]);
  assert.deepEqual(r.batches, [[1, 2], [3, 4], [5]]);
});

test('a run that answers a different number of values than it was asked fails its batch', async () => {
  const batched = new Batched(async (keys: number[]) => keys.slice(1));
  await assert.rejects(
    Promise.all([batched.call(1), batched.call(2)]),
    /a batch of 2 was answered with 1 values/,
  );
});
