import type { LockManagerLike } from '../../src/environment.js';

/**
 * An in-process Web Locks manager (navigator.locks is absent in Node 20): exclusive locks granted in
 * request order, `ifAvailable`, and `signal` to leave the queue. Shared by the "tabs" of a test.
 */
export class FakeLocks implements LockManagerLike {
  private readonly held = new Set<string>();
  private readonly queues = new Map<string, (() => void)[]>();

  request<T>(name: string, ...args: [(lock: unknown) => Promise<T> | T] | [{ ifAvailable?: boolean; signal?: AbortSignal }, (lock: unknown) => Promise<T> | T]): Promise<T> {
    const [options, callback] = args.length === 1 ? [{}, args[0]] : args;
    const run = async (): Promise<T> => {
      try {
        return await callback({ name, mode: 'exclusive' });
      } finally {
        this.held.delete(name);
        this.queues.get(name)?.shift()?.();
      }
    };
    if (!this.held.has(name)) {
      this.held.add(name);
      return run();
    }
    if (options.ifAvailable) return Promise.resolve(callback(null));
    return new Promise<T>((resolve, reject) => {
      const queue = this.queues.get(name) ?? [];
      this.queues.set(name, queue);
      const grant = () => {
        this.held.add(name);
        run().then(resolve, reject);
      };
      queue.push(grant);
      options.signal?.addEventListener('abort', () => {
        const index = queue.indexOf(grant);
        if (index >= 0) queue.splice(index, 1);
        reject(new DOMException('The request was aborted', 'AbortError'));
      });
    });
  }
}
