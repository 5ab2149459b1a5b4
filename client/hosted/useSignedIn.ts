import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { SESSION_KEY, useHosted } from './HostedContext';
import { browser } from './navigation';

/**
 * What happens once the cookies are set: back to the provider (a full navigation, it is a server route)
 * when an app asked for this sign-in, otherwise to the account page.
 */
export function useSignedIn(interaction: string | null): () => void {
  const { paths } = useHosted();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(() => {
    queryClient.removeQueries({ queryKey: SESSION_KEY });
    if (interaction) browser.assign(paths.afterSignIn(interaction));
    else navigate(paths.page('account'), { replace: true });
  }, [interaction, paths, navigate, queryClient]);
}
