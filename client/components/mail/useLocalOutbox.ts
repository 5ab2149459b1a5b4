import { trpc } from '../../lib/trpc';

/**
 * The local demo's outbox (no SMTP_URL, a loopback APP_URL): available when the server answers the
 * list, which it does only there and only for an admin or a browser on its own machine. `enabled`
 * keeps other pages from asking.
 */
export function useLocalOutbox(enabled: boolean) {
  const query = trpc.localMail.list.useQuery(undefined, { enabled, retry: false, staleTime: 30_000, refetchOnWindowFocus: false });
  return { available: enabled && query.isSuccess, query };
}
