import type { Location } from 'react-router-dom';
import { POST_LOGIN_DEFAULT_PATH } from '../../shared/constants';
import { safeRedirectPath } from '../../shared/safe-redirect';

export interface AuthLocationState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
  message?: string;
}

/**
 * A `?return_to=` this app may go to: a page of this origin (under `within`), as a path; else null.
 * The server applies the same rule (shared/safe-redirect.ts) before it redirects.
 */
export function safeReturnTo(value: string | null | undefined, within = '/'): string | null {
  return safeRedirectPath(value, window.location.origin, within);
}

/** Where to go after signing in: the remembered 'from' location (never the auth pages), else /dashboard. */
export function postLoginPath(state: unknown): string {
  const from = (state as AuthLocationState | null | undefined)?.from;
  if (!from || typeof from.pathname !== 'string' || ['/login', '/signup'].includes(from.pathname)) return POST_LOGIN_DEFAULT_PATH;
  return safeReturnTo(`${from.pathname}${from.search ?? ''}${from.hash ?? ''}`) ?? POST_LOGIN_DEFAULT_PATH;
}

export function navigationMessage(state: unknown): string | undefined {
  const message = (state as AuthLocationState | null | undefined)?.message;
  return typeof message === 'string' && message ? message : undefined;
}
