import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { SESSION_KEY, useHosted } from './HostedContext';
import { browser } from './navigation';

/**
 * What happens once the cookies are set: back to the provider (a full navigation, it is a server route)
 * when an app asked for this sign-in, otherwise to the account page. `returnTo` (a page of this project,
 * brought back by a sign-in with a provider that needed a second factor) wins over both.
 */
export function useSignedIn(interaction: string | null, returnTo: string | null = null): () => void {
  const { paths } = useHosted();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(() => {
    queryClient.removeQueries({ queryKey: SESSION_KEY });
    const target = returnTo ?? (interaction ? paths.afterSignIn(interaction) : null);
    if (target && target !== paths.page('account')) browser.assign(target);
    else navigate(paths.page('account'), { replace: true });
  }, [interaction, returnTo, paths, navigate, queryClient]);
}
