import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { tcpAnswers } from './tcp-probe.js';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis server answers at TEST_REDIS_URL (these machines run one on 127.0.0.1:6379). */
export const redisAnswers = () => tcpAnswers(TEST_REDIS_URL, 6379);

async function withRedis<T>(work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}

/** A key prefix of its own for one test file, and a way to delete everything under it afterwards. */
export function testKeyPrefix(): { prefix: string; list(): Promise<string[]>; cleanUp(): Promise<void> } {
  const prefix = `authplatform-test:${randomBytes(6).toString('hex')}:`;
  const list = () => withRedis((redis) => redis.keys(`${prefix}*`));
  return {
    prefix,
    list,
    async cleanUp() {
      const keys = await list();
      if (keys.length > 0) await withRedis((redis) => redis.del(...keys));
    },
  };
}
