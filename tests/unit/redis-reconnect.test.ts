import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvalidations } from '../../server/lib/invalidations.js';
import { connectRedis } from '../../server/lib/redis.js';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../helpers/redis-server.js';
import { startTcpRelay, type TcpRelay } from '../helpers/tcp-relay.js';
import { until } from '../helpers/until.js';

/**
 * lib/redis.ts and lib/invalidations.ts against a redis-server of the test's own, killed and started
 * again, or behind a relay that holds a command back or stops passing anything (a partition): the
 * outage is logged once, and after a reconnection the cached copies are dropped once the subscription
 * is back, never before, however the connection was lost.
 */

/** A logger that keeps what it is told, by level. */
function recordingLogger() {
  const lines: Array<{ level: string; msg: string }> = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, msg: String(args.find((arg) => typeof arg === 'string') ?? '') });
  const logger = { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug'), trace: at('trace'), fatal: at('fatal'), silent: () => {}, level: 'info' };
  return { lines, logger: { ...logger, child: () => logger } as unknown as FastifyBaseLogger };
}

const installed = redisServerInstalled();
if (!installed) console.warn('redis-server is not installed: the redis-reconnect tests are skipped.');

describe.runIf(installed)('an instance whose Redis goes away and comes back', () => {
  let redis: OwnRedis;
  let relay: TcpRelay;
  beforeAll(async () => {
    redis = await ownRedis();
    await redis.start();
    relay = await startTcpRelay({ host: '127.0.0.1', port: redis.port });
  });
  afterAll(async () => {
    await relay?.close();
    await redis?.kill();
  });

  it('keeps a healthy subscription: its heartbeats are answered, and nothing is dropped or logged', async () => {
    const { lines, logger } = recordingLogger();
    const connection = await connectRedis(redis.url, logger);
    const invalidations = await createInvalidations({ redis: connection, keyPrefix: `${randomUUID()}:` }, logger);
    const events: string[] = [];
    invalidations.subscribe('api-keys', () => events.push('dropped'));
    const observer = new Redis(redis.url);
    const pings = async () => Number(/cmdstat_ping:calls=(\d+)/.exec(await observer.info('commandstats'))?.[1] ?? 0);
    try {
      const before = await pings();
      await until(async () => (await pings()) >= before + 2, 'two heartbeats');
      expect(events).toEqual([]);
      expect(lines).toEqual([]);
      expect(connection.status).toBe('ready');
    } finally {
      observer.disconnect();
      await invalidations.close();
      connection.disconnect();
    }
  });

  it('logs the outage once and the return once', async () => {
    const { lines, logger } = recordingLogger();
    const connection = await connectRedis(redis.url, logger);
    const invalidations = await createInvalidations({ redis: connection, keyPrefix: `${randomUUID()}:` }, logger);
    try {
      await redis.kill();
      await until(() => connection.status !== 'ready', 'the instance to notice');
      // Changes made meanwhile are not told to anyone; that is no news once the outage is logged.
      await invalidations.publish('api-keys');
      await invalidations.publish('project-settings');
      await redis.start();
      await until(() => lines.some((line) => line.level === 'info'), 'the instance to notice Redis is back');
      expect(lines).toEqual([
        { level: 'warn', msg: "Redis is unavailable: rate limits and captcha tokens fall back to this instance's memory until it is back" },
        { level: 'info', msg: 'Redis is back: rate limits and captcha tokens are shared again' },
      ]);
    } finally {
      await invalidations.close();
      connection.disconnect();
    }
  });

  it('drops its cached copies once it has subscribed again, so a change published before that is not missed', async () => {
    const keyPrefix = `${randomUUID()}:`;
    const { logger } = recordingLogger();
    const connection = await connectRedis(`redis://127.0.0.1:${relay.port}`, logger);
    const invalidations = await createInvalidations({ redis: connection, keyPrefix }, logger);
    const events: string[] = [];
    invalidations.subscribe('api-keys', () => events.push('dropped'));
    const otherInstance = new Redis(redis.url);
    try {
      // The connections drop (a restart); the instance connects again, but its SUBSCRIBE is slow to arrive.
      const subscription = relay.holdFrom(/subscribe/i);
      relay.forward();
      await subscription.held;
      // Meanwhile another instance revokes a key: nobody is subscribed to hear it.
      const receivers = await otherInstance.publish(`${keyPrefix}invalidate`, JSON.stringify({ id: randomUUID(), topic: 'api-keys' }));
      expect(receivers).toBe(0);
      events.push('published');
      subscription.release();
      await until(async () => ((await otherInstance.pubsub('NUMSUB', `${keyPrefix}invalidate`)) as [string, number])[1] === 1, 'the instance to subscribe again');
      await until(() => events.at(-1) === 'dropped', 'the instance to drop its copies');
      expect(events).toEqual(['published', 'dropped']);
    } finally {
      otherInstance.disconnect();
      await invalidations.close();
      connection.disconnect();
    }
  });

  it('notices a subscription whose connection died without closing, and once Redis answers again drops its cached copies', async () => {
    const keyPrefix = `${randomUUID()}:`;
    const { logger } = recordingLogger();
    const connection = await connectRedis(`redis://127.0.0.1:${relay.port}`, logger);
    const invalidations = await createInvalidations({ redis: connection, keyPrefix }, logger);
    const events: string[] = [];
    invalidations.subscribe('api-keys', () => events.push('dropped'));
    const otherInstance = new Redis(redis.url);
    try {
      const noticed = relay.nextClientClose();
      relay.partition();
      // Redis still counts the subscription: the message is sent into the partition and lost.
      expect(await otherInstance.publish(`${keyPrefix}invalidate`, JSON.stringify({ id: randomUUID(), topic: 'api-keys' }))).toBe(1);
      events.push('published');
      // Nothing closes a partitioned connection: the instance has to find out by itself.
      await noticed;
      relay.heal();
      await until(() => events.at(-1) === 'dropped', 'the instance to subscribe again and drop its copies');
      expect(events).toEqual(['published', 'dropped']);
    } finally {
      otherInstance.disconnect();
      await invalidations.close();
      connection.disconnect();
      relay.forward();
    }
  });
});
