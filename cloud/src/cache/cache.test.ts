import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MemoryBus } from '../bus/memory.js';
import { MemoryCache } from './memory.js';
import { RedisBus } from '../bus/redis.js';
import { RedisCache } from './redis.js';
import type { BusEvent, EventBus } from '../bus/events.js';
import type { CacheStore } from './types.js';
import { redisReachable, REDIS_URL } from '../testing/redis.js';

const redisUp = await redisReachable();
const kinds: Array<{
  name: string;
  skip: string | false;
  make: () => { cache: CacheStore; bus: EventBus };
}> = [
  { name: 'memory', skip: false, make: () => ({ cache: new MemoryCache(), bus: new MemoryBus() }) },
  {
    name: 'redis',
    skip: redisUp ? false : `Redis not reachable at ${REDIS_URL} (set REDIS_URL)`,
    make: () => {
      const prefix = `pwtest:${randomBytes(4).toString('hex')}:`;
      return {
        cache: RedisCache.connect(REDIS_URL, { prefix }),
        bus: RedisBus.connect(REDIS_URL, { prefix }),
      };
    },
  },
];

const T0 = 1_760_000_000_000;

for (const kind of kinds) {
  describe(`cache and bus (${kind.name})`, { skip: kind.skip }, () => {
    const { cache, bus } = kind.skip ? ({} as ReturnType<typeof kind.make>) : kind.make();
    after(async () => {
      await cache?.close();
      await bus?.close();
    });

    test('a bucket admits its capacity at once, then refuses with the time until the next token', async () => {
      const opts = { capacity: 3, refillPerSecond: 2, now: T0 };
      for (let i = 0; i < 3; i++) assert.equal((await cache.takeToken('k1', opts)).allowed, true);
      const refused = await cache.takeToken('k1', opts);
      assert.equal(refused.allowed, false);
      assert.equal(refused.retryAfterMs, 500);
    });

    test('a bucket refills with time and buckets are independent', async () => {
      const opts = { capacity: 1, refillPerSecond: 1, now: T0 };
      assert.equal((await cache.takeToken('k2', opts)).allowed, true);
      assert.equal((await cache.takeToken('k2', { ...opts, now: T0 + 999 })).allowed, false);
      assert.equal((await cache.takeToken('k2', { ...opts, now: T0 + 1000 })).allowed, true);
      assert.equal((await cache.takeToken('k3', opts)).allowed, true);
    });

    test('a published event reaches every subscriber', async () => {
      const received = new Promise<BusEvent>((resolve) => {
        void bus.subscribe(resolve);
      });
      // Redis subscriptions are asynchronous: wait until ours is registered before publishing.
      await bus.subscribe(() => undefined);
      const event: BusEvent = {
        type: 'job.state_changed',
        organizationId: 'org_1',
        mode: 'test',
        jobId: 'job_1',
        state: 'printed',
        errorCode: null,
        at: new Date(T0).toISOString(),
        job: { id: 'job_1' },
      };
      await bus.publish(event);
      assert.deepEqual(await received, event);
    });

    test('ping answers while the store is up', async () => {
      await cache.ping();
    });
  });
}
