/** What the client needs from its surroundings; each defaults to the browser's, and tests inject their own. */

/** The part of the Web Locks API (navigator.locks) the client uses. */
export interface LockManagerLike {
  request<T>(name: string, callback: (lock: unknown) => Promise<T> | T): Promise<T>;
  request<T>(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: (lock: unknown) => Promise<T> | T): Promise<T>;
}

/** The part of BroadcastChannel the client uses. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface AuthEnvironment {
  fetch: typeof fetch;
  /** Web Locks; null where there are none (each tab then refreshes for itself and the server's reuse window covers a collision). */
  locks: LockManagerLike | null;
  /** A channel shared by the tabs of this origin; null where BroadcastChannel is missing. */
  openChannel: ((name: string) => ChannelLike) | null;
  sessionStorage: StorageLike | null;
  localStorage: StorageLike | null;
  /** The page's address. */
  currentUrl(): string;
  /** Leaves the page for `url` (the hosted sign-in, the end-session endpoint). */
  navigate(url: string): void;
  /** Rewrites the address bar without navigating (takes the code out of it after the callback). */
  replaceUrl(url: string): void;
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The browser's environment, read when a client is made (never at import, so server rendering is safe). */
export function browserEnvironment(): AuthEnvironment {
  const g = globalThis as typeof globalThis & { navigator?: Navigator; location?: Location; history?: History; window?: Window };
  const storage = (name: 'sessionStorage' | 'localStorage'): StorageLike | null => {
    try {
      return g.window?.[name] ?? null;
    } catch {
      return null; // storage disabled (privacy settings, sandboxed frame)
    }
  };
  return {
    fetch: (...args) => g.fetch(...args),
    locks: (g.navigator?.locks as LockManagerLike | undefined) ?? null,
    openChannel: typeof g.BroadcastChannel === 'function' ? (name) => new g.BroadcastChannel(name) as unknown as ChannelLike : null,
    sessionStorage: storage('sessionStorage'),
    localStorage: storage('localStorage'),
    currentUrl: () => g.location?.href ?? '',
    navigate: (url) => g.location?.assign(url),
    replaceUrl: (url) => g.history?.replaceState(g.history.state, '', url),
    now: () => Date.now(),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}
