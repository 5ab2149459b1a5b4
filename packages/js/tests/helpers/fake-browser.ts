import type { AuthEnvironment, StorageLike } from '../../src/environment.js';
import type { LockManagerLike } from '../../src/environment.js';

export class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/**
 * A clock whose timers fire when the test moves it on (advance), so "refresh before expiry" is tested
 * without waiting; a zero delay still fires on its own, on the next turn of the event loop.
 */
export class FakeClock {
  offsetMs = 0;
  private timers = new Map<number, { at: number; run: () => void }>();
  private seq = 0;

  now = () => Date.now() + this.offsetMs;

  setTimeout = (run: () => void, ms: number): unknown => {
    const id = ++this.seq;
    if (ms <= 0) {
      const handle = setTimeout(() => {
        if (this.timers.delete(id)) run();
      }, 0);
      this.timers.set(id, { at: this.now(), run: () => clearTimeout(handle) });
      return id;
    }
    this.timers.set(id, { at: this.now() + ms, run });
    return id;
  };

  clearTimeout = (id: unknown): void => {
    this.timers.delete(id as number);
  };

  /** Moves the clock on and runs every timer that is due. */
  advance(ms: number): void {
    this.offsetMs += ms;
    const now = this.now();
    for (const [id, timer] of [...this.timers]) {
      if (timer.at <= now && this.timers.delete(id)) timer.run();
    }
  }
}

export interface FakeTab {
  environment: Partial<AuthEnvironment>;
  url: { current: string };
  navigations: string[];
  sessionStorage: MemoryStorage;
}

/** One browser tab: its address bar, its sessionStorage, and the origin's shared parts passed in. */
export function fakeTab(shared: { fetch: typeof fetch; clock: FakeClock; locks: LockManagerLike | null; localStorage?: MemoryStorage; channel?: boolean }, start = 'https://app.example/'): FakeTab {
  const url = { current: start };
  const navigations: string[] = [];
  const sessionStorage = new MemoryStorage();
  return {
    url,
    navigations,
    sessionStorage,
    environment: {
      fetch: shared.fetch,
      locks: shared.locks,
      openChannel: shared.channel === false ? null : (name) => new BroadcastChannel(name) as never,
      sessionStorage,
      localStorage: shared.localStorage ?? new MemoryStorage(),
      currentUrl: () => url.current,
      navigate: (to) => navigations.push(to),
      replaceUrl: (to) => {
        url.current = to;
      },
      now: shared.clock.now,
      setTimeout: shared.clock.setTimeout,
      clearTimeout: shared.clock.clearTimeout,
    },
  };
}

/** Resolves with the payload of the next `name` event. */
export function nextEvent<T>(on: (name: never, listener: (payload: T) => void) => () => void, name: string): Promise<T> {
  return new Promise((resolve) => {
    const off = on(name as never, (payload) => {
      off();
      resolve(payload);
    });
  });
}
