import { useQuery } from '@tanstack/react-query';
import { useHosted } from './HostedContext';

/** The providers the project's sign-in and sign-up pages offer (none connected → an empty list; a failure → none shown). */
export function useHostedSignInProviders() {
  const { api } = useHosted();
  return useQuery({ queryKey: ['sign-in-providers'], queryFn: api.signInProviders, staleTime: 60_000 }).data?.providers;
}
