import type { Location } from 'react-router-dom';
import { POST_LOGIN_DEFAULT_PATH } from '../../shared/constants';

export interface AuthLocationState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
  message?: string;
}

/** Where to go after signing in: the remembered 'from' location (never the auth pages), else /dashboard. */
export function postLoginPath(state: unknown): string {
  const from = (state as AuthLocationState | null | undefined)?.from;
  if (!from || typeof from.pathname !== 'string' || !from.pathname.startsWith('/')) return POST_LOGIN_DEFAULT_PATH;
  if (from.pathname.startsWith('//') || ['/login', '/signup'].includes(from.pathname)) return POST_LOGIN_DEFAULT_PATH;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

export function navigationMessage(state: unknown): string | undefined {
  const message = (state as AuthLocationState | null | undefined)?.message;
  return typeof message === 'string' && message ? message : undefined;
}
