import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DISCOVERY_INTERVAL_MS,
  DISCOVERY_INTERVAL_RANGE,
  discoveryIntervalFromEnv,
} from './discovery-loop.js';

describe('the discovery interval', () => {
  test('is 30 s unless PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS says otherwise, within 1000-3600000', () => {
    const name = 'PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS';
    assert.equal(discoveryIntervalFromEnv({}), DISCOVERY_INTERVAL_MS);
    assert.equal(DISCOVERY_INTERVAL_MS, 30_000);
    assert.equal(discoveryIntervalFromEnv({ [name]: '' }), DISCOVERY_INTERVAL_MS);
    assert.equal(discoveryIntervalFromEnv({ [name]: '1000' }), DISCOVERY_INTERVAL_RANGE.min);
    assert.equal(discoveryIntervalFromEnv({ [name]: '3600000' }), DISCOVERY_INTERVAL_RANGE.max);
    for (const bad of ['999', '3600001', '1e4', '-5', '2.5', 'soon']) {
      assert.throws(() => discoveryIntervalFromEnv({ [name]: bad }), {
        code: 'VALIDATION_FAILED',
        message: new RegExp(`${name} must be a whole number of milliseconds from 1000 to 3600000`),
      });
    }
  });
});
