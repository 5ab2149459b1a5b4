import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { hostedErrorMessage } from './api';

export type TokenState<T = unknown> = { kind: 'loading' } | { kind: 'success'; answer: T } | { kind: 'error'; detail: string } | { kind: 'invalid' };

/**
 * Spends the `?token=` of a mailed link once (even when React runs effects twice in development): a
 * link works once, so a second call would only report it used.
 */
export function useMailedToken<T>(spend: (token: string) => Promise<T>, fallback: string): TokenState<T> {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [state, setState] = useState<TokenState<T>>(token ? { kind: 'loading' } : { kind: 'invalid' });
  const attempted = useRef<string | null>(null);
  const spendRef = useRef(spend);
  spendRef.current = spend;

  useEffect(() => {
    if (!token || attempted.current === token) return;
    attempted.current = token;
    setState({ kind: 'loading' });
    spendRef.current(token).then(
      (answer) => setState({ kind: 'success', answer }),
      (error: unknown) => setState({ kind: 'error', detail: hostedErrorMessage(error, fallback) }),
    );
  }, [token, fallback]);

  return state;
}
