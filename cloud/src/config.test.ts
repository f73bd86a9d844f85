import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { configFromEnv, DEFAULT_LIMITS } from './config.js';
import { gatewayOptionsFromEnv } from './gateway/gateway.js';

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

describe('the agent gateway’s settings from the environment', () => {
  test('AGENT_* settings are read, and each one out of range is refused naming its rule', () => {
    assert.deepEqual(gatewayOptionsFromEnv({}), {});
    const options = gatewayOptionsFromEnv({
      AGENT_HEARTBEAT_INTERVAL_MS: '5000',
      AGENT_LIVENESS_MARGIN_MS: '0',
      AGENT_TOKEN_RECHECK_MS: '1000',
      AGENT_OFFLINE_GRACE_MS: '300000',
    });
    assert.equal(options.offlineGraceMs, 300_000);
    assert.equal(options.heartbeatIntervalMs, 5000);
    assert.equal(options.livenessMarginMs, 0);
    assert.equal(options.tokenRecheckMs, 1000);
    for (const [name, value, rule] of [
      ['AGENT_HEARTBEAT_INTERVAL_MS', '999', 'from 1000 to 300000'],
      ['AGENT_HEARTBEAT_INTERVAL_MS', 'often', 'from 1000 to 300000'],
      ['AGENT_LIVENESS_MARGIN_MS', '-1', 'from 0 to 300000'],
      ['AGENT_TOKEN_RECHECK_MS', '500', 'from 1000 to 86400000'],
      ['AGENT_OFFLINE_GRACE_MS', '300001', 'from 0 to 300000'],
    ] as const) {
      assert.throws(
        () => gatewayOptionsFromEnv({ [name]: value }),
        new RegExp(`${name} must be a whole number of milliseconds ${rule}, not ${value}`),
      );
    }
  });
});
