/**
 * Redis cache store (ioredis), required when more than one instance serves the API: buckets and
 * login throttles are shared by every instance.
 */
import { Redis } from 'ioredis';
import {
  throttleDelays,
  type CacheStore,
  type ThrottleOptions,
  type TokenBucketOptions,
  type TokenBucketResult,
} from './types.js';

// The bucket as a hash {tokens, updatedAt}; refilled, taken from and expired in one atomic step.
const TAKE_TOKEN = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'updatedAt')
local tokens = tonumber(state[1])
local updated = tonumber(state[2])
if tokens == nil then
  tokens = capacity
  updated = now
end
local elapsed = math.max(0, now - updated) / 1000
tokens = math.min(capacity, tokens + elapsed * rate)
updated = math.max(updated, now)
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) / rate * 1000)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updatedAt', tostring(updated))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return {allowed, math.floor(tokens), retry}
`;

// A login throttle as a hash {failures, blockedUntil, lastFailureAt}; one failure counted in one
// atomic step (throttleFailure in types.ts). The delays come from throttleDelays: ARGV[2 + i] is
// the delay after i failures, the last one for any count beyond. The key expires when it is both
// forgotten (forgetAfterMs) and no longer blocked.
const THROTTLE_FAIL = `
local now = tonumber(ARGV[1])
local forget = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'failures', 'blockedUntil', 'lastFailureAt')
local failures = tonumber(state[1])
local blocked = tonumber(state[2])
local last = tonumber(state[3])
if failures == nil or blocked == nil or last == nil or now - last >= forget then
  failures = 0
  blocked = 0
end
failures = failures + 1
local delay = tonumber(ARGV[2 + math.min(failures, #ARGV - 2)])
if delay > 0 then
  blocked = now + delay
end
redis.call('HSET', KEYS[1], 'failures', tostring(failures), 'blockedUntil', tostring(blocked),
  'lastFailureAt', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil(forget), math.ceil(blocked - now)))
return failures
`;

type Scripts = Record<string, (...args: unknown[]) => Promise<unknown>>;

export interface RedisOptions {
  /** Key prefix, so several deployments can share one Redis. Default `printwire:`. */
  prefix?: string;
}

export class RedisCache implements CacheStore {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    options: RedisOptions = {},
  ) {
    this.prefix = options.prefix ?? 'printwire:';
    this.redis.defineCommand('printwireTakeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
    this.redis.defineCommand('printwireThrottleFail', { numberOfKeys: 1, lua: THROTTLE_FAIL });
  }

  static connect(url: string, options: RedisOptions = {}): RedisCache {
    return new RedisCache(
      new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true }),
      options,
    );
  }

  async takeToken(key: string, options: TokenBucketOptions): Promise<TokenBucketResult> {
    const run = (
      this.redis as unknown as Record<string, (...args: unknown[]) => Promise<number[]>>
    ).printwireTakeToken!.bind(this.redis);
    const [allowed, remaining, retry] = await run(
      `${this.prefix}bucket:${key}`,
      options.capacity,
      options.refillPerSecond,
      options.now,
    );
    return { allowed: allowed === 1, remaining: remaining ?? 0, retryAfterMs: retry ?? 0 };
  }

  // Reading one field and deleting the key are single commands, atomic without a script.
  async throttleWait(key: string, now: number): Promise<number> {
    const blocked = Number(await this.redis.hget(this.throttleKey(key), 'blockedUntil'));
    return Number.isFinite(blocked) ? Math.max(0, blocked - now) : 0;
  }

  async throttleFail(key: string, options: ThrottleOptions, now: number): Promise<void> {
    const run = (this.redis as unknown as Scripts).printwireThrottleFail!.bind(this.redis);
    await run(this.throttleKey(key), now, options.forgetAfterMs, ...throttleDelays(options));
  }

  async throttleReset(key: string): Promise<void> {
    await this.redis.del(this.throttleKey(key));
  }

  private throttleKey(key: string): string {
    return `${this.prefix}throttle:${key}`;
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
