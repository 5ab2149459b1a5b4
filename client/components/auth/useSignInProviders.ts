import { trpc } from '../../lib/trpc';

/** The providers the platform's sign-in and sign-up pages offer (none configured → an empty list; a failure → none shown). */
export function useSignInProviders() {
  return trpc.social.providers.useQuery(undefined, { staleTime: 60_000 }).data?.providers;
}
