import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { MemoryCache } from '../cache/memory.js';
import { RedisCache } from '../cache/redis.js';
import { redisReachable, REDIS_URL } from '../testing/redis.js';
import { throttleDelayMs, throttleDelays, type CacheStore } from '../cache/types.js';
import { ManualClock } from '../lib/clock.js';
import {
  DEFAULT_ACCOUNT_THROTTLE,
  DEFAULT_ADDRESS_THROTTLE,
  Throttle,
  type ThrottleOptions,
} from './throttle.js';

const redisUp = await redisReachable();
/** This run's keys in Redis: runs (and parallel test files) do not see each other's counts. */
const REDIS_PREFIX = `pwtest:${randomBytes(4).toString('hex')}:`;

const kinds: Array<{ name: string; skip: string | false; open: () => CacheStore }> = [
  { name: 'memory', skip: false, open: () => new MemoryCache() },
  {
    name: 'redis',
    skip: redisUp ? false : `Redis not reachable at ${REDIS_URL} (set REDIS_URL)`,
    open: () => RedisCache.connect(REDIS_URL, { prefix: REDIS_PREFIX }),
  },
];

for (const kind of kinds) {
  describe(`Throttle (${kind.name})`, { skip: kind.skip }, () => {
    const opened: CacheStore[] = [];
    after(async () => {
      await Promise.all(opened.map((cache) => cache.close()));
    });
    const open = (): CacheStore => {
      const cache = kind.open();
      opened.push(cache);
      return cache;
    };
    let n = 0;
    /** A throttle with keys of its own, over a store of its own unless one is given. */
    const throttleOf = (
      clock: ManualClock,
      options: ThrottleOptions = DEFAULT_ACCOUNT_THROTTLE,
      cache: CacheStore = open(),
    ) => new Throttle(cache, clock, options, `t${n++}:`);

    test('allows the free attempts, then waits a delay that doubles up to the cap', async () => {
      const clock = new ManualClock(0);
      const throttle = throttleOf(clock);
      for (let i = 0; i < 5; i++) {
        assert.equal(await throttle.waitMs('a'), 0);
        await throttle.fail('a');
      }
      assert.equal(await throttle.waitMs('a'), 1_000);
      await throttle.fail('a');
      assert.equal(await throttle.waitMs('a'), 2_000);
      for (let i = 0; i < 40; i++) await throttle.fail('a');
      assert.equal(await throttle.waitMs('a'), 15 * 60_000);
      clock.advance(15 * 60_000);
      assert.equal(
        await throttle.waitMs('a'),
        0,
        'the owner is never locked out longer than the cap',
      );
    });

    test('a success resets the count, and keys are independent', async () => {
      const clock = new ManualClock(0);
      const throttle = throttleOf(clock);
      for (let i = 0; i < 6; i++) await throttle.fail('a');
      assert.ok((await throttle.waitMs('a')) > 0);
      assert.equal(await throttle.waitMs('b'), 0);
      await throttle.reset('a');
      assert.equal(await throttle.waitMs('a'), 0);
      for (let i = 0; i < 4; i++) await throttle.fail('a');
      assert.equal(await throttle.waitMs('a'), 0, 'counting starts again from zero');
    });

    test('two throttles over one store (account and address) keep separate counts', async () => {
      const clock = new ManualClock(0);
      const cache = open();
      const accounts = new Throttle(cache, clock, DEFAULT_ACCOUNT_THROTTLE, 'account:');
      const addresses = new Throttle(cache, clock, DEFAULT_ADDRESS_THROTTLE, 'address:');
      for (let i = 0; i < 5; i++) await accounts.fail('same-key');
      assert.equal(await accounts.waitMs('same-key'), 1_000);
      assert.equal(await addresses.waitMs('same-key'), 0);
      await addresses.reset('same-key');
      assert.equal(await accounts.waitMs('same-key'), 1_000);
    });

    test('a key quiet for forgetAfterMs starts counting from zero again', async () => {
      const clock = new ManualClock(0);
      const throttle = throttleOf(clock);
      for (let i = 0; i < 4; i++) await throttle.fail('a');
      clock.advance(15 * 60_000 - 1);
      await throttle.fail('a');
      assert.equal(await throttle.waitMs('a'), 1_000, 'the fifth failure within the window counts');
      clock.advance(15 * 60_000);
      await throttle.fail('a');
      assert.equal(await throttle.waitMs('a'), 0);
    });

    if (kind.name === 'memory') {
      test('forgets the oldest key beyond maxKeys', async () => {
        const throttle = throttleOf(new ManualClock(0), {
          ...DEFAULT_ACCOUNT_THROTTLE,
          freeAttempts: 1,
          maxKeys: 2,
        });
        await throttle.fail('a');
        await throttle.fail('b');
        await throttle.fail('c');
        assert.equal(await throttle.waitMs('a'), 0);
        assert.ok((await throttle.waitMs('b')) > 0);
        assert.ok((await throttle.waitMs('c')) > 0);
      });
    }

    if (kind.name === 'redis') {
      test('a key expires once forgotten and no longer blocked, whichever is later', async () => {
        const raw = new Redis(REDIS_URL);
        try {
          const clock = new ManualClock(0);
          const options = {
            ...DEFAULT_ACCOUNT_THROTTLE,
            freeAttempts: 1,
            baseDelayMs: 5 * 60_000,
            maxDelayMs: 10 * 60_000,
            forgetAfterMs: 60_000,
          };
          const cache = open();
          const blocked = new Throttle(cache, clock, options, 'expiry:');
          await blocked.fail('a');
          const blockTtl = await raw.pttl(`${REDIS_PREFIX}throttle:expiry:a`);
          assert.ok(blockTtl > 5 * 60_000 - 5_000 && blockTtl <= 5 * 60_000, `pttl ${blockTtl}`);
          const free = new Throttle(cache, clock, { ...options, freeAttempts: 5 }, 'expiry:');
          await free.fail('b');
          const forgetTtl = await raw.pttl(`${REDIS_PREFIX}throttle:expiry:b`);
          assert.ok(forgetTtl > 60_000 - 5_000 && forgetTtl <= 60_000, `pttl ${forgetTtl}`);
        } finally {
          raw.disconnect();
        }
      });

      test('two instances (two connections) count one account together, and a reset on one clears both', async () => {
        const clock = new ManualClock(0);
        const prefix = `shared${n++}:`;
        const one = new Throttle(open(), clock, DEFAULT_ACCOUNT_THROTTLE, prefix);
        const two = new Throttle(open(), clock, DEFAULT_ACCOUNT_THROTTLE, prefix);
        for (let i = 0; i < 3; i++) await one.fail('owner@example.com');
        for (let i = 0; i < 2; i++) await two.fail('owner@example.com');
        assert.equal(await one.waitMs('owner@example.com'), 1_000, 'five failures in all');
        assert.equal(await two.waitMs('owner@example.com'), 1_000);
        await Promise.all([one.fail('owner@example.com'), two.fail('owner@example.com')]);
        assert.equal(
          await one.waitMs('owner@example.com'),
          4_000,
          'concurrent failures both count',
        );
        await two.reset('owner@example.com');
        assert.equal(await one.waitMs('owner@example.com'), 0);
        for (let i = 0; i < 4; i++) await one.fail('owner@example.com');
        assert.equal(await two.waitMs('owner@example.com'), 0, 'the count started again');
      });
    }
  });
}

describe('throttle delays', () => {
  const cases: ThrottleOptions[] = [
    DEFAULT_ACCOUNT_THROTTLE,
    DEFAULT_ADDRESS_THROTTLE,
    { ...DEFAULT_ACCOUNT_THROTTLE, freeAttempts: 0 },
    { ...DEFAULT_ACCOUNT_THROTTLE, maxDelayMs: 0 },
    { ...DEFAULT_ACCOUNT_THROTTLE, baseDelayMs: 1, maxDelayMs: Number.MAX_SAFE_INTEGER },
  ];
  test('the table sent to the Redis script is throttleDelayMs, its last entry holding beyond', () => {
    for (const options of cases) {
      const delays = throttleDelays(options);
      assert.ok(delays.length >= 1 && delays.length <= options.freeAttempts + 30);
      for (let failures = 1; failures <= options.freeAttempts + 100; failures++) {
        assert.equal(
          delays[Math.min(failures, delays.length) - 1],
          throttleDelayMs(failures, options),
          `${JSON.stringify(options)} after ${failures} failures`,
        );
      }
    }
  });
});
