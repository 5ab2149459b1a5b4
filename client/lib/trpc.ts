import { createTRPCReact, createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/react-query';
import type { TRPCLink, Operation } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AnyRouter } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/router';
import { createPlatformApiClient } from './api-client';
import { createRefreshCoordinator, type RefreshCoordinator, type TabSharing } from './session-refresh';

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
  /** The realm's one refresh, shared with its REST client and, through the Web Locks API, with the other tabs. */
  session: RefreshCoordinator;
  /** Operations that must not be retried (default: the session calls themselves). */
  skip?: (op: Operation) => boolean;
}

/**
 * A link that, when a call fails with UNAUTHORIZED, waits for the session's one refresh and retries the
 * call once. If the refresh fails, the coordinator's `onRefreshFailed` runs (once) and the original error
 * reaches the caller.
 */
export function createRefreshLink<TRouter extends AnyRouter>(options: RefreshLinkOptions): TRPCLink<TRouter> {
  const skip = options.skip ?? ((op: Operation) => NO_REFRESH_PATHS.has(op.path));

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
              void options.session.refreshFor(sentAt).then((ok) => {
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

const sameOriginFetch: typeof fetch = (input, init) => fetch(input, { ...init, credentials: 'same-origin' });

export interface PlatformClientsOptions {
  url?: string;
  /** The session is gone (its refresh failed): called once per failed refresh. */
  onSessionExpired: () => void;
  /** How the tabs share the refresh (default: what the browser offers). */
  tabs?: TabSharing;
}

/**
 * The dashboard's clients and their one session: the tRPC client (refresh link in front of a batching
 * HTTP link to /trpc) and the REST client of the routes it calls outside tRPC, both refreshing through
 * the same coordinator, whose refresh is `auth.refresh` (an answer without tokens in the body).
 */
export function createPlatformClients({ url = TRPC_URL, onSessionExpired, tabs }: PlatformClientsOptions) {
  // A plain client for the refresh call itself, so it never passes through the refresh link.
  const sessionClient = createTRPCClient<AppRouter>({ links: [httpLink({ url, fetch: sameOriginFetch })] });
  const session = createRefreshCoordinator({ realm: 'platform', refresh: () => sessionClient.auth.refresh.mutate({}), onRefreshFailed: onSessionExpired, tabs });
  const trpcClient = trpc.createClient({
    links: [createRefreshLink<AppRouter>({ session }), httpBatchLink({ url, fetch: sameOriginFetch })],
  });
  return { trpcClient, api: createPlatformApiClient(session) };
}

export type AppTrpcClient = ReturnType<typeof createPlatformClients>['trpcClient'];
