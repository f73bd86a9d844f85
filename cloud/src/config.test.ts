import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { configFromEnv, DEFAULT_LIMITS } from './config.js';

describe('configuration from the environment', () => {
  test('SWEEP_INTERVAL_MS sets how often expired jobs are failed, 60 s when unset', () => {
    assert.equal(configFromEnv({}).limits.sweepIntervalMs, 60_000);
    const config = configFromEnv({ SWEEP_INTERVAL_MS: '1000' });
    assert.equal(config.limits.sweepIntervalMs, 1000);
    assert.equal(config.limits.maxBodyBytes, DEFAULT_LIMITS.maxBodyBytes, 'other limits kept');
  });

  test('a SWEEP_INTERVAL_MS out of range is refused, naming the variable and the rule', () => {
    for (const value of ['999', '3600001', '1.5', 'soon']) {
      assert.throws(
        () => configFromEnv({ SWEEP_INTERVAL_MS: value }),
        new RegExp(
          `SWEEP_INTERVAL_MS must be a whole number of milliseconds from 1000 to 3600000, not ${value}`,
        ),
      );
    }
  });
});
