import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis server answers at TEST_REDIS_URL (these machines run one on 127.0.0.1:6379). */
export async function redisAnswers(): Promise<boolean> {
  const url = new URL(TEST_REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 6379), timeout: 1000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** A key prefix of its own for one test file, and a way to delete everything under it afterwards. */
export function testKeyPrefix(): { prefix: string; list(): Promise<string[]>; cleanUp(): Promise<void> } {
  const prefix = `authplatform-test:${randomBytes(6).toString('hex')}:`;
  return {
    prefix,
    async list() {
      const redis = new Redis(TEST_REDIS_URL);
      try {
        return await redis.keys(`${prefix}*`);
      } finally {
        redis.disconnect();
      }
    },
    async cleanUp() {
      const redis = new Redis(TEST_REDIS_URL);
      try {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    },
  };
}
