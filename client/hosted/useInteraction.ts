import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { safeReturnTo } from '../auth/redirect';
import type { Continuation } from './api';
import { useHosted } from './HostedContext';

/** The pending OpenID Connect sign-in this page serves (`?interaction=`), kept across the hosted pages' links. */
export function useInteraction(): string | null {
  const [params] = useSearchParams();
  return params.get('interaction') || null;
}

/** The app's sign-in this page serves: a waiting OpenID Connect request, or a page of these hosted pages to return to. */
export function useContinuation(): Continuation {
  const [params] = useSearchParams();
  const { paths } = useHosted();
  const interaction = params.get('interaction') || null;
  const returnTo = safeReturnTo(params.get('return_to'), `${paths.base}/`);
  return useMemo(() => ({ interaction, return_to: returnTo }), [interaction, returnTo]);
}
