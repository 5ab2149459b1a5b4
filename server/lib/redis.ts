import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { ConfigError } from '../config.js';

/**
 * The shared store several instances use for rate limits and spent captcha tokens (REDIS_URL).
 * Commands fail at once while Redis is away instead of queueing, so the callers' in-memory
 * fallbacks take over and no request waits on a dead connection; ioredis keeps reconnecting.
 */
export async function connectRedis(url: string, logger: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 5_000 });
  let started = false;
  let available = true;
  let lastError: Error | null = null;
  redis.on('error', (error: Error) => {
    lastError = error;
    if (!started || !available) return;
    available = false;
    logger.warn({ err: error }, "Redis is unavailable: rate limits and captcha tokens fall back to this instance's memory until it is back");
  });
  redis.on('ready', () => {
    if (started && !available) logger.info('Redis is back: rate limits and captcha tokens are shared again');
    available = true;
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const cause = lastError ?? (error instanceof Error ? error : new Error(String(error)));
    throw new ConfigError(`REDIS_URL: cannot connect (${cause.message})`);
  }
  started = true;
  return redis;
}
