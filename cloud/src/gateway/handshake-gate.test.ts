import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HandshakeGate, type Release } from './handshake-gate.js';

test('the gate runs `concurrency` handshakes, queues `queue` more in order, and refuses the next at once', async () => {
  const gate = new HandshakeGate({ concurrency: 2, queue: 1 });
  const first = await gate.enter();
  const second = await gate.enter();
  assert.ok(first && second);
  const order: string[] = [];
  const third = gate.enter().then((release) => {
    order.push('third');
    return release;
  });
  assert.deepEqual(gate.load, { running: 2, waiting: 1 });
  assert.equal(await gate.enter(), undefined, 'the queue holds one: the fourth is refused');
  first();
  first(); // a second call changes nothing
  const turn = (await third) as Release;
  assert.deepEqual(order, ['third']);
  assert.deepEqual(gate.load, { running: 2, waiting: 0 });
  second();
  turn();
  assert.deepEqual(gate.load, { running: 0, waiting: 0 });
});

test('a handshake that hangs up while queued gives its place up', async () => {
  const gate = new HandshakeGate({ concurrency: 1, queue: 5 });
  const running = await gate.enter();
  const other = gate.enter();
  let hangUp!: () => void;
  const queued = gate.enter(new Promise<void>((resolve) => (hangUp = resolve)));
  assert.equal(await gate.enter(), undefined, 'two may wait (nothing finished yet): full');
  hangUp();
  assert.equal(await queued, undefined);
  const after = gate.enter();
  assert.deepEqual(gate.load, { running: 1, waiting: 2 });
  running!();
  (await other)!();
  assert.ok(await after, 'the next in line gets the turn');
});

test('the queue grows with the pace of the last maxWaitMs: as many may wait as finished then', async () => {
  let now = 0;
  const gate = new HandshakeGate({ concurrency: 1, queue: 4, maxWaitMs: 5000, now: () => now });
  // Three turns of 2.5 s, finished at 2.5, 5 and 7.5 s: a pace that alone would let one wait.
  for (let i = 0; i < 3; i++) {
    const release = (await gate.enter())!;
    now += 2500;
    release();
  }
  const running = await gate.enter();
  const waiting = [gate.enter(), gate.enter(), gate.enter()];
  assert.deepEqual(gate.load, { running: 1, waiting: 3 });
  assert.equal(await gate.enter(), undefined, 'three finished in the last 5 s: three may wait');
  now = 12_501; // those three are older than maxWaitMs: two may wait (2 × concurrency), three do
  running!();
  const next = (await waiting[0])!;
  assert.equal(await gate.enter(), undefined);
  next();
  for (const w of waiting.slice(1)) (await w)!();
});

test('after a quiet while, the first seconds of a storm queue what the recent pace can serve in half of maxWaitMs', async () => {
  let now = 0;
  const gate = new HandshakeGate({ concurrency: 2, queue: 1000, maxWaitMs: 5000, now: () => now });
  // Turns of 20 ms, then a quiet minute: none finished within the last 5 s.
  for (let i = 0; i < 40; i++) {
    const release = (await gate.enter())!;
    now += 20;
    release();
  }
  now += 60_000;
  const turns = [await gate.enter(), await gate.enter()];
  // 2 at a time, 20 ms each: 500 in 5 s; half of it may wait, not 2 × concurrency.
  const queued = Array.from({ length: 250 }, () => gate.enter());
  assert.deepEqual(gate.load, { running: 2, waiting: 250 });
  assert.equal(await gate.enter(), undefined, 'the 251st is told to come back');
  for (const t of turns) t!();
  for (const q of queued) (await q)!();
  assert.deepEqual(gate.load, { running: 0, waiting: 0 });
});
