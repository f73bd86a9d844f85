/**
 * For tests that need Redis: its URL (`REDIS_URL`, else the local server) and whether it answers,
 * so that a machine without Redis skips those tests with a message instead of failing.
 */
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

export async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
  });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Why a suite that needs Redis is skipped, or false. */
export async function redisSkip(): Promise<string | false> {
  return (await redisReachable()) ? false : `Redis not reachable at ${REDIS_URL} (set REDIS_URL)`;
}
