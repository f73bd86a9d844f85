import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoalescedPass } from './coalesced.js';

describe('CoalescedPass', () => {
  test('requests made while a pass runs fold into exactly one more pass', async () => {
    let passes = 0;
    let release: (() => void) | undefined;
    const pass = new CoalescedPass(
      () => {
        passes++;
        return new Promise<void>((resolve) => (release = resolve));
      },
      (err) => assert.fail(String(err)),
    );
    const first = pass.run();
    const folded = [pass.run(), pass.run(), pass.run()];
    assert.equal(passes, 1);
    release!();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(passes, 2, 'one more pass for the three requests');
    release!();
    await Promise.all([first, ...folded]);
    assert.equal(passes, 2);
  });

  test('a failed pass is reported and the next request runs a new pass', async () => {
    const errors: unknown[] = [];
    let fail = true;
    let passes = 0;
    const pass = new CoalescedPass(
      async () => {
        passes++;
        if (fail) throw new Error('database away');
      },
      (err) => errors.push(err),
    );
    await pass.run();
    assert.equal((errors[0] as Error).message, 'database away');
    fail = false;
    await pass.run();
    assert.equal(passes, 2);
    assert.equal(errors.length, 1);
  });
});
