import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { configFromEnv, DEFAULT_LIMITS, defaultConfig } from './config.js';
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

describe('the sandbox’s browser (HTML label previews) from the environment', () => {
  const installed =
    (...paths: string[]) =>
    (path: string) =>
      paths.includes(path);

  test('unset: /usr/bin/chromium, else Chrome, when installed; else none', () => {
    const both = installed('/usr/bin/chromium', '/usr/bin/google-chrome-stable');
    assert.equal(configFromEnv({}, both).sandboxBrowser, '/usr/bin/chromium');
    const chrome = installed('/usr/bin/google-chrome-stable');
    assert.equal(configFromEnv({}, chrome).sandboxBrowser, '/usr/bin/google-chrome-stable');
    assert.equal(configFromEnv({}, installed()).sandboxBrowser, null);
    assert.equal(defaultConfig().sandboxBrowser, null, 'tests and embedders name one');
  });

  test('SANDBOX_BROWSER names it, or none turns previews of HTML labels off', () => {
    const exists = installed('/opt/chromium/chrome', '/usr/bin/chromium');
    const named = configFromEnv({ SANDBOX_BROWSER: '/opt/chromium/chrome' }, exists);
    assert.equal(named.sandboxBrowser, '/opt/chromium/chrome');
    assert.equal(configFromEnv({ SANDBOX_BROWSER: 'none' }, exists).sandboxBrowser, null);
  });

  test('a SANDBOX_BROWSER that does not exist is refused, naming the variable and the rule', () => {
    assert.throws(
      () => configFromEnv({ SANDBOX_BROWSER: '/nope/chrome' }, installed('/usr/bin/chromium')),
      /SANDBOX_BROWSER must be the path of a Chrome or Chromium executable, or none; \/nope\/chrome does not exist/,
    );
  });

  test('SANDBOX_HTML_TIMEOUT_MS sets the layout’s time limit, 15 s when unset', () => {
    assert.equal(configFromEnv({}).limits.sandboxHtmlTimeoutMs, 15_000);
    assert.equal(
      configFromEnv({ SANDBOX_HTML_TIMEOUT_MS: '5000' }).limits.sandboxHtmlTimeoutMs,
      5000,
    );
    assert.throws(
      () => configFromEnv({ SANDBOX_HTML_TIMEOUT_MS: '60001' }),
      /SANDBOX_HTML_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 60000, not 60001/,
    );
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
