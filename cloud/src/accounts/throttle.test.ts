import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../lib/clock.js';
import { DEFAULT_ACCOUNT_THROTTLE, LoginThrottle } from './throttle.js';

describe('LoginThrottle', () => {
  test('allows the free attempts, then waits a delay that doubles up to the cap', () => {
    const clock = new ManualClock(0);
    const throttle = new LoginThrottle(clock, DEFAULT_ACCOUNT_THROTTLE);
    for (let i = 0; i < 5; i++) {
      assert.equal(throttle.waitMs('a'), 0);
      throttle.fail('a');
    }
    assert.equal(throttle.waitMs('a'), 1_000);
    throttle.fail('a');
    assert.equal(throttle.waitMs('a'), 2_000);
    for (let i = 0; i < 40; i++) throttle.fail('a');
    assert.equal(throttle.waitMs('a'), 15 * 60_000);
    clock.advance(15 * 60_000);
    assert.equal(throttle.waitMs('a'), 0, 'the owner is never locked out longer than the cap');
  });

  test('a success resets the count, and keys are independent', () => {
    const clock = new ManualClock(0);
    const throttle = new LoginThrottle(clock, DEFAULT_ACCOUNT_THROTTLE);
    for (let i = 0; i < 6; i++) throttle.fail('a');
    assert.ok(throttle.waitMs('a') > 0);
    assert.equal(throttle.waitMs('b'), 0);
    throttle.reset('a');
    assert.equal(throttle.waitMs('a'), 0);
  });

  test('forgets the oldest key beyond maxKeys', () => {
    const throttle = new LoginThrottle(new ManualClock(0), {
      ...DEFAULT_ACCOUNT_THROTTLE,
      freeAttempts: 1,
      maxKeys: 2,
    });
    throttle.fail('a');
    throttle.fail('b');
    throttle.fail('c');
    assert.equal(throttle.waitMs('a'), 0);
    assert.ok(throttle.waitMs('b') > 0);
    assert.ok(throttle.waitMs('c') > 0);
  });

  test('a key quiet for forgetAfterMs starts counting from zero again', () => {
    const clock = new ManualClock(0);
    const throttle = new LoginThrottle(clock, DEFAULT_ACCOUNT_THROTTLE);
    for (let i = 0; i < 4; i++) throttle.fail('a');
    clock.advance(15 * 60_000 - 1);
    throttle.fail('a');
    assert.equal(throttle.waitMs('a'), 1_000, 'the fifth failure within the window counts');
    clock.advance(15 * 60_000);
    throttle.fail('a');
    assert.equal(throttle.waitMs('a'), 0);
  });
});
