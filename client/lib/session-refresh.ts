/**
 * One refresh of a browser realm's session at a time: the calls of this tab that fail with 401 at once
 * wait for the same refresh, and the origin's tabs (which share the session cookies) never refresh the
 * same refresh token at once, since presenting a spent one signs the user out (reuse detection).
 */
export interface RefreshCoordinator {
  /**
   * Renews the session for a call that failed for want of one, sent at `failedCallSentAt` (`now()`'s
   * clock): true when the call may be retried once. Concurrent callers share one refresh; a call sent
   * before a refresh (of this tab or another) finished is retried without one. A failed refresh runs
   * `onRefreshFailed` once and answers false to every caller waiting for it.
   */
  refreshFor(failedCallSentAt: number): Promise<boolean>;
}

/** The part of the Web Locks API used here (navigator.locks). */
export interface SharedLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** The part of a BroadcastChannel used here. */
export interface TabChannel {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

/**
 * How the origin's tabs agree on who refreshes: under a Web Lock (one tab at a time; `storage`, shared by
 * the tabs, says when the last refresh finished), by announcing refreshes on a BroadcastChannel (a tab
 * waits for the one another tab announced), or not at all (each tab on its own; the server forgives the
 * same browser's replay for a few seconds, REFRESH_REUSE_INTERVAL).
 */
export type TabSharing =
  | { kind: 'locks'; locks: SharedLocks; storage?: Pick<Storage, 'getItem' | 'setItem'> }
  | { kind: 'channel'; open: (name: string) => TabChannel }
  | { kind: 'none' };

export interface RefreshCoordinatorOptions {
  /** The realm whose session this is ('platform', 'hosted:pk_…'): tabs coordinate per realm. */
  realm: string;
  /** Renews the session (the server reads the HttpOnly refresh cookie and sets new cookies); rejects when it cannot. */
  refresh: () => Promise<unknown>;
  /** The session is gone: called once per failed refresh. */
  onRefreshFailed?: () => void;
  /** Default: what the browser offers (`browserTabSharing()`). */
  tabs?: TabSharing;
  now?: () => number;
}

/** How long a tab waits for a refresh another tab announced (it may have been closed meanwhile). */
const PEER_REFRESH_WAIT_MS = 10_000;

/** Web Locks when the browser has them, else a BroadcastChannel, else none (jsdom, old browsers). */
export function browserTabSharing(): TabSharing {
  const locks = typeof navigator !== 'undefined' ? (navigator.locks as SharedLocks | undefined) : undefined;
  if (locks) return { kind: 'locks', locks, storage: originStorage() };
  if (typeof BroadcastChannel !== 'undefined') {
    return {
      kind: 'channel',
      open: (name) => {
        const channel = new BroadcastChannel(name);
        // Node's BroadcastChannel (tests) would otherwise keep the process alive.
        (channel as { unref?: () => void }).unref?.();
        return channel;
      },
    };
  }
  return { kind: 'none' };
}

/** localStorage, unless the browser refuses it (storage disabled): the lock alone still keeps refreshes apart. */
function originStorage(): Pick<Storage, 'getItem' | 'setItem'> | undefined {
  try {
    return typeof localStorage !== 'undefined' ? localStorage : undefined;
  } catch {
    return undefined;
  }
}

export function createRefreshCoordinator({ realm, refresh, onRefreshFailed, tabs = browserTabSharing(), now = Date.now }: RefreshCoordinatorOptions): RefreshCoordinator {
  const refreshAcrossTabs = acrossTabs(realm, refresh, tabs, now);
  let inFlight: Promise<boolean> | null = null;
  /** When this tab's last refresh finished. */
  let refreshedAt = Number.NEGATIVE_INFINITY;

  return {
    refreshFor(failedCallSentAt) {
      if (inFlight) return inFlight;
      // Sent with the cookies a refresh has replaced since: a retry carries the new ones.
      if (refreshedAt >= failedCallSentAt) return Promise.resolve(true);
      inFlight = refreshAcrossTabs(failedCallSentAt)
        .then(
          () => {
            refreshedAt = now();
            return true;
          },
          () => {
            onRefreshFailed?.();
            return false;
          },
        )
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
  };
}

/** `refresh` as the tabs agree to run it: resolves once the session cookies are fresh for a call sent at `sentAt`. */
function acrossTabs(realm: string, refresh: () => Promise<unknown>, tabs: TabSharing, now: () => number): (sentAt: number) => Promise<void> {
  const name = `authplatform:refresh:${realm}`;
  switch (tabs.kind) {
    case 'none':
      return async () => {
        await refresh();
      };

    case 'locks': {
      // Read and written only under the lock, so the tab that waited sees the refresh that made it wait.
      let local = Number.NEGATIVE_INFINITY;
      const key = `authplatform:refreshed-at:${realm}`;
      const lastRefreshedAt = () => {
        try {
          return Math.max(local, Number(tabs.storage?.getItem(key) ?? Number.NEGATIVE_INFINITY));
        } catch {
          return local;
        }
      };
      return (sentAt) =>
        tabs.locks.request(name, async () => {
          if (lastRefreshedAt() >= sentAt) return;
          await refresh();
          local = now();
          try {
            tabs.storage?.setItem(key, String(local));
          } catch {
            /* storage full or refused: the lock still kept the refreshes apart */
          }
        });
    }

    case 'channel': {
      // Each tab announces its refresh ("start", then "done" or "failed"); a tab that needs one while
      // another tab's is announced waits for it. Two tabs starting in the same instant both refresh, which
      // the server's reuse interval forgives; Web Locks, where present, leave no such window.
      const channel = tabs.open(name);
      let peerRefreshedAt = Number.NEGATIVE_INFINITY;
      let peer: { settled: Promise<void>; settle: () => void } | null = null;
      channel.onmessage = (event) => {
        const message = event.data as { type?: unknown; at?: unknown } | null;
        if (message?.type === 'start') {
          if (peer) return;
          let settle = () => {};
          const settled = new Promise<void>((resolve) => {
            const timer = setTimeout(() => settle(), PEER_REFRESH_WAIT_MS);
            settle = () => {
              clearTimeout(timer);
              peer = null;
              resolve();
            };
          });
          peer = { settled, settle };
        } else if (message?.type === 'done' || message?.type === 'failed') {
          if (message.type === 'done' && typeof message.at === 'number') peerRefreshedAt = Math.max(peerRefreshedAt, message.at);
          peer?.settle();
        }
      };
      return async (sentAt) => {
        while (peer) await peer.settled;
        if (peerRefreshedAt >= sentAt) return;
        channel.postMessage({ type: 'start' });
        try {
          await refresh();
        } catch (error) {
          channel.postMessage({ type: 'failed' });
          throw error;
        }
        channel.postMessage({ type: 'done', at: now() });
      };
    }
  }
}
