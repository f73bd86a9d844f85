import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hashSecret } from '../../services/api-keys.js';
import { startHarness, type Harness } from '../../testing/harness.js';
import { LAST_USED_RESOLUTION_MS } from './auth.js';

describe('API keys: lastUsedAt', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  /** The key's lastUsedAt once the recording write (made after the answer) has landed. */
  async function lastUsedAt(key: string, expected: number | null): Promise<number | null> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const found = await h.store.organizations.findApiKeyByHash(hashSecret(key));
      const value = found!.apiKey.lastUsedAt;
      if (value === expected || Date.now() > deadline) return value;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  test('is recorded when a key is used, at most once a minute', async () => {
    const org = await h.org();
    assert.equal(await lastUsedAt(org.testKey, null), null, 'a new key was never used');

    const first = h.clock.now();
    assert.equal((await h.call('GET', '/v1/me', { key: org.testKey })).status, 200);
    assert.equal(await lastUsedAt(org.testKey, first), first);

    h.clock.advance(LAST_USED_RESOLUTION_MS - 1);
    const within = h.clock.now();
    assert.equal((await h.call('GET', '/v1/me', { key: org.testKey })).status, 200);
    // The other key's use is written after the first key's would have been (writes are queued
    // in order): once it has landed, the first key's time is still the first use.
    assert.equal((await h.call('GET', '/v1/me', { key: org.liveKey })).status, 200);
    assert.equal(await lastUsedAt(org.liveKey, within), within, 'each key has its own time');
    assert.equal(await lastUsedAt(org.testKey, first), first, 'a use within the minute');

    h.clock.advance(1);
    const later = h.clock.now();
    assert.equal((await h.call('GET', '/v1/me', { key: org.testKey })).status, 200);
    assert.equal(await lastUsedAt(org.testKey, later), later, 'a use a minute later');
  });
});
