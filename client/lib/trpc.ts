import { createTRPCReact, createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/react-query';
import type { TRPCLink, Operation } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AnyRouter } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/router';

/** The typed tRPC React client: hooks are `trpc.auth.me.useQuery()`, `trpc.auth.logIn.useMutation()` … */
export const trpc = createTRPCReact<AppRouter>();

export const TRPC_URL = '/trpc';

/** Calls that must never trigger a refresh: the refresh itself and the calls that establish or end a session. */
const NO_REFRESH_PATHS = new Set(['auth.refresh', 'auth.logIn', 'auth.verifyMfa', 'auth.signUp', 'auth.logOut', 'passkeys.loginOptions', 'passkeys.logIn', 'passkeys.mfaOptions']);

/** A call refused for want of a session; a refusal that asks for a step-up (step_up_required) is not one. */
export function isUnauthorized(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const data = error.data as { code?: string; step_up_required?: boolean } | undefined;
  return data?.code === 'UNAUTHORIZED' && data.step_up_required !== true;
}

export interface RefreshLinkOptions {
  /**
   * Renews the session (reads the HttpOnly refresh cookie, sets new cookies). Rejects when it cannot.
   * Gets when the failed call was sent: a refresh finished since then (by another tab) already fixed it.
   */
  refresh: (failedCallSentAt: number) => Promise<unknown>;
  /** Called once per failed refresh: the session is gone. */
  onRefreshFailed: () => void;
  /** Operations that must not be retried (default: the session calls themselves). */
  skip?: (op: Operation) => boolean;
}

/**
 * A link that, when a call fails with UNAUTHORIZED, refreshes the session once and retries the call once.
 * Concurrent failures share one in-flight refresh. If the refresh fails, `onRefreshFailed` runs and the
 * original error reaches the caller.
 */
export function createRefreshLink<TRouter extends AnyRouter>(options: RefreshLinkOptions): TRPCLink<TRouter> {
  const skip = options.skip ?? ((op: Operation) => NO_REFRESH_PATHS.has(op.path));
  let inFlight: Promise<boolean> | null = null;

  const refreshOnce = (failedCallSentAt: number): Promise<boolean> => {
    if (!inFlight) {
      inFlight = options
        .refresh(failedCallSentAt)
        .then(
          () => true,
          () => {
            options.onRefreshFailed();
            return false;
          },
        )
        .finally(() => {
          inFlight = null;
        });
    }
    return inFlight;
  };

  return () =>
    ({ op, next }) =>
      observable((observer) => {
        let current: { unsubscribe: () => void } | null = null;
        let stopped = false;

        const attempt = (retried: boolean) => {
          const sentAt = Date.now();
          current = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (error) => {
              if (retried || skip(op) || !isUnauthorized(error)) {
                observer.error(error);
                return;
              }
              void refreshOnce(sentAt).then((ok) => {
                if (stopped) return;
                if (ok) attempt(true);
                else observer.error(error);
              });
            },
          });
        };

        attempt(false);
        return () => {
          stopped = true;
          current?.unsubscribe();
        };
      });
}

/** What coordinating tabs needs: the Web Locks API and a store all tabs of the origin share. */
export interface TabCoordination {
  locks: Pick<LockManager, 'request'> | undefined;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  now: () => number;
}

const REFRESH_LOCK = 'authplatform:refresh';
const REFRESHED_AT = 'authplatform:refreshed-at';

/**
 * Tabs share the session cookies, so one refresh serves them all. Under a Web Lock one tab refreshes
 * at a time; a tab whose failed call was sent before another tab's refresh finished just retries with
 * the new cookies instead of spending the refresh token a second time. Without Web Locks, each tab
 * refreshes on its own (the server forgives the same browser's replay for a few seconds).
 */
export function refreshAcrossTabs(refresh: () => Promise<unknown>, tabs: TabCoordination): (failedCallSentAt: number) => Promise<unknown> {
  return async (failedCallSentAt) => {
    if (!tabs.locks) return refresh();
    return tabs.locks.request(REFRESH_LOCK, async () => {
      if (Number(tabs.storage.getItem(REFRESHED_AT) ?? 0) >= failedCallSentAt) return;
      await refresh();
      tabs.storage.setItem(REFRESHED_AT, String(tabs.now()));
    });
  };
}

const sameOriginFetch: typeof fetch = (input, init) => fetch(input, { ...init, credentials: 'same-origin' });

export interface AppClientOptions {
  url?: string;
  onSessionExpired: () => void;
}

/** The client the app uses: refresh link in front of a batching HTTP link to /trpc. */
export function createAppTrpcClient({ url = TRPC_URL, onSessionExpired }: AppClientOptions) {
  // A plain client for the refresh call itself, so it never passes through the refresh link.
  const sessionClient = createTRPCClient<AppRouter>({ links: [httpLink({ url, fetch: sameOriginFetch })] });
  return trpc.createClient({
    links: [
      createRefreshLink<AppRouter>({
        refresh: refreshAcrossTabs(() => sessionClient.auth.refresh.mutate({}), {
          locks: typeof navigator !== 'undefined' ? navigator.locks : undefined,
          storage: localStorage,
          now: Date.now,
        }),
        onRefreshFailed: onSessionExpired,
      }),
      httpBatchLink({ url, fetch: sameOriginFetch }),
    ],
  });
}
