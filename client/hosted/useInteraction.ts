import { useSearchParams } from 'react-router-dom';

/** The pending OpenID Connect sign-in this page serves (`?interaction=`), kept across the hosted pages' links. */
export function useInteraction(): string | null {
  const [params] = useSearchParams();
  return params.get('interaction') || null;
}
