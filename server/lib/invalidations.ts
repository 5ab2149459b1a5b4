import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** What an instance may keep in memory and must drop when another changes it. */
export type InvalidationTopic = 'api-keys' | 'project-settings' | 'lookups';

/** How long a change waits for the other instances to confirm they dropped their copies. */
export const INVALIDATION_ACK_TIMEOUT_MS = 250;

/**
 * How often the subscription's connection is asked whether it is alive. It only listens, so one that
 * dies without closing (a network partition, a balancer dropping idle connections) would otherwise go
 * unnoticed, and every change after it unheard: with lib/redis.ts's socket timeout it is noticed within
 * this and a second, and the connection made again (which drops the cached copies once subscribed).
 */
export const SUBSCRIPTION_HEARTBEAT_MS = 2_000;

/**
 * Tells every instance that something they cache has changed: this one at once, the others over
 * Redis pub/sub when REDIS_URL is set (a single instance needs nothing more). Each instance that
 * receives the message drops its copies and confirms; `publish` resolves once every instance Redis
 * delivered it to has confirmed (or INVALIDATION_ACK_TIMEOUT_MS passed), so the change's answer goes
 * out only after no instance can serve the old copy. Each cache also bounds how long an entry lives,
 * which is what holds while Redis is away; a subscriber that reconnects drops everything once it is
 * subscribed again, since it may have missed messages.
 */
export interface Invalidations {
  publish(topic: InvalidationTopic): Promise<void>;
  subscribe(topic: InvalidationTopic, drop: () => void): void;
  close(): Promise<void>;
}

export async function createInvalidations(shared: { redis: Redis; keyPrefix: string } | null, logger: FastifyBaseLogger): Promise<Invalidations> {
  const subscribers = new Map<InvalidationTopic, Array<() => void>>();
  const dropLocally = (topic: InvalidationTopic) => subscribers.get(topic)?.forEach((drop) => drop());
  const dropAll = () => subscribers.forEach((drops) => drops.forEach((drop) => drop()));
  const subscribe = (topic: InvalidationTopic, drop: () => void) => subscribers.set(topic, [...(subscribers.get(topic) ?? []), drop]);

  if (!shared) {
    if (cluster.isWorker) return siblingInvalidations(dropLocally, subscribe);
    return { publish: async (topic) => dropLocally(topic), subscribe, close: async () => {} };
  }

  const { redis } = shared;
  const changes = `${shared.keyPrefix}invalidate`;
  const confirmations = `${shared.keyPrefix}invalidated`;
  /** Changes this instance published, by id: confirmations counted so far, and how many Redis delivered (once it says). */
  interface Pending {
    confirmed: number;
    expected: number | null;
    done: () => void;
  }
  const waiting = new Map<string, Pending>();
  const settle = (pending: Pending) => {
    if (pending.expected !== null && pending.confirmed >= pending.expected) pending.done();
  };

  // A connection in subscriber mode can run no other command: a second one, kept only for this. It
  // subscribes itself each time it connects (not ioredis's autoResubscribe, which gives no word of when
  // that is done): after a reconnection, what it caches is dropped only once the subscription is back,
  // so a change published while it was away is covered by the drop, and one published after by a message.
  const listener = redis.duplicate({ lazyConnect: true, autoResubscribe: false });
  listener.on('error', () => {}); // the main connection reports Redis outages
  let subscribedBefore = false;
  const subscribed = new Promise<void>((resolve, reject) => {
    listener.on('ready', () => {
      listener.subscribe(changes, confirmations).then(
        () => {
          if (subscribedBefore) dropAll();
          subscribedBefore = true;
          resolve();
        },
        (error: unknown) => {
          // Redis went away again before answering: the next connection tries again.
          if (!subscribedBefore) reject(error);
        },
      );
    });
  });
  listener.on('message', (channel: string, message: string) => {
    if (channel === changes) {
      let change: { id: string; topic: InvalidationTopic };
      try {
        change = JSON.parse(message) as typeof change;
      } catch {
        // Not one of ours (another deployment on the same key prefix?): drop everything to be safe.
        dropAll();
        return;
      }
      dropLocally(change.topic);
      redis.publish(confirmations, change.id).catch(() => {});
    } else if (channel === confirmations) {
      const pending = waiting.get(message);
      if (pending) {
        pending.confirmed += 1;
        settle(pending);
      }
    }
  });
  await listener.connect();
  await subscribed;
  const heartbeat = setInterval(() => {
    if (listener.status === 'ready') listener.ping().catch(() => {});
  }, SUBSCRIPTION_HEARTBEAT_MS);
  heartbeat.unref();

  return {
    async publish(topic) {
      dropLocally(topic);
      const id = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const confirmed = new Promise<void>((resolve) => {
        const done = () => {
          waiting.delete(id);
          clearTimeout(timer);
          resolve();
        };
        waiting.set(id, { confirmed: 0, expected: null, done });
        timer = setTimeout(done, INVALIDATION_ACK_TIMEOUT_MS);
      });
      try {
        const receivers = await redis.publish(changes, JSON.stringify({ id, topic }));
        // Confirmations may come in before PUBLISH's answer (the count of receivers, this instance included).
        const pending = waiting.get(id);
        if (pending) {
          pending.expected = receivers;
          settle(pending);
        }
        await confirmed;
      } catch (error) {
        waiting.get(id)?.done();
        // While Redis is away (logged once by lib/redis.ts) every instance drops its copies when it is back.
        if (redis.status === 'ready') logger.warn({ err: error, topic }, 'could not tell the other instances over Redis; their cached copies expire on their own');
      }
    },
    subscribe,
    async close() {
      clearInterval(heartbeat);
      await listener.quit().catch(() => listener.disconnect());
    },
  };
}

/** The messages between a worker and the primary that relays a change to the other workers (server/cluster.ts). */
export type InvalidationMessage = { authplatform: 'invalidate'; id: string; topic: InvalidationTopic } | { authplatform: 'invalidated'; id: string };

export function isInvalidationMessage(message: unknown): message is InvalidationMessage {
  const kind = (message as { authplatform?: unknown } | null)?.authplatform;
  return kind === 'invalidate' || kind === 'invalidated';
}

/**
 * WORKERS without Redis: the workers are instances too. A change goes to the primary, which hands it
 * to every other worker and answers once each has dropped its copies (or INVALIDATION_ACK_TIMEOUT_MS passed).
 */
function siblingInvalidations(dropLocally: (topic: InvalidationTopic) => void, subscribe: Invalidations['subscribe']): Invalidations {
  const waiting = new Map<string, () => void>();
  const onMessage = (message: unknown) => {
    if (!isInvalidationMessage(message)) return;
    if (message.authplatform === 'invalidate') {
      dropLocally(message.topic);
      process.send?.({ authplatform: 'invalidated', id: message.id } satisfies InvalidationMessage);
    } else {
      waiting.get(message.id)?.();
    }
  };
  process.on('message', onMessage);
  return {
    async publish(topic) {
      dropLocally(topic);
      const id = randomUUID();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, INVALIDATION_ACK_TIMEOUT_MS);
        function done() {
          waiting.delete(id);
          clearTimeout(timer);
          resolve();
        }
        waiting.set(id, done);
        process.send?.({ authplatform: 'invalidate', id, topic } satisfies InvalidationMessage);
      });
    },
    subscribe,
    close: async () => {
      process.off('message', onMessage);
    },
  };
}
