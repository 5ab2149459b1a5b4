import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { ConfigError } from '../config.js';

/**
 * How long a command waits for Redis's first byte back. Past it the connection counts as dead (a
 * network partition closes nothing: without this, commands would wait for TCP to give up, minutes):
 * it is closed, the waiting commands fail over to memory, and ioredis connects again.
 */
export const REDIS_SOCKET_TIMEOUT_MS = 1_000;

/**
 * The shared store several instances use for rate limits and spent captcha tokens (REDIS_URL).
 * Commands fail at once while Redis is away instead of queueing (no offline queue), and those in
 * flight when the connection is lost fail with it rather than wait to be sent again on the next
 * connection (no retries: ioredis would keep them past its retry limit until Redis answers again), so
 * the callers' in-memory fallbacks take over and no request waits on a dead connection; ioredis keeps
 * reconnecting.
 */
export async function connectRedis(url: string, logger: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 5_000,
    socketTimeout: REDIS_SOCKET_TIMEOUT_MS,
  });
  let started = false;
  let available = true;
  let lastError: Error | null = null;
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  // Once per outage, however it ends the connection: a Redis that restarts within ioredis's first retry
  // raises no error at all, only a closed connection.
  redis.on('reconnecting', () => {
    if (!started || !available) return;
    available = false;
    logger.warn({ err: lastError ?? undefined }, "Redis is unavailable: rate limits and captcha tokens fall back to this instance's memory until it is back");
  });
  redis.on('ready', () => {
    if (started && !available) logger.info('Redis is back: rate limits and captcha tokens are shared again');
    available = true;
    lastError = null;
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
