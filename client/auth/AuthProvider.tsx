import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import type { User } from '../../shared/schemas/user';
import { MESSAGES } from '../../shared/messages';
import { isUnauthorized, trpc } from '../lib/trpc';
import { notify } from '../lib/notify';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthContextValue {
  status: AuthStatus;
  user: User | null;
  /** Puts a freshly signed-in user in place (the login answer) without another round trip. */
  setUser: (user: User) => void;
  /** Loads the current user again (after a profile change); a failure clears the user. */
  refreshUser: () => Promise<void>;
  /** auth.logOut, then the user is cleared and the browser goes to /login. */
  signOut: () => Promise<void>;
  /** Forgets the user without a call (the server already ended the session, e.g. account deleted); `state` goes with the navigation. */
  endSession: (to: string, state?: unknown) => void;
}

export const SESSION_QUERY_KEY = ['auth', 'session'] as const;

const AuthContext = createContext<AuthContextValue | null>(null);

/** Subscribe here to learn that a refresh failed (the link calls `emit`). */
export class SessionEvents {
  private listeners = new Set<() => void>();
  on(listener: () => void) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
  emit() {
    for (const listener of this.listeners) listener();
  }
}

export function AuthProvider({ children, sessionEvents }: { children: ReactNode; sessionEvents: SessionEvents }) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const locationRef = useRef(location);
  locationRef.current = location;

  // Signed out is an answer, not an error: auth.session says user null to a visitor without session cookies,
  // and UNAUTHORIZED (after the refresh link tried once) when the cookies no longer work.
  const loadSession = useCallback(async (): Promise<User | null> => {
    try {
      return (await utils.client.auth.session.query()).user;
    } catch (error) {
      if (isUnauthorized(error)) return null;
      throw error;
    }
  }, [utils]);

  const session = useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: loadSession,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

  const user = session.data ?? null;
  const status: AuthStatus = session.isPending ? 'loading' : user ? 'authenticated' : 'unauthenticated';

  const clearUser = useCallback(() => {
    queryClient.setQueryData(SESSION_QUERY_KEY, null);
    // Nothing of the previous user may linger in the cache.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] });
  }, [queryClient]);

  // A refresh failed: the session is over. Only a signed-in user is sent to /login; a visitor stays put.
  useEffect(
    () =>
      sessionEvents.on(() => {
        const wasSignedIn = Boolean(queryClient.getQueryData<User | null>(SESSION_QUERY_KEY));
        if (!wasSignedIn) return;
        const from = locationRef.current;
        clearUser();
        if (from.pathname !== '/login') navigate('/login', { replace: true, state: { from } });
      }),
    [sessionEvents, queryClient, clearUser, navigate],
  );

  const setUser = useCallback((next: User) => queryClient.setQueryData(SESSION_QUERY_KEY, next), [queryClient]);

  const refreshUser = useCallback(async () => {
    try {
      const next = await queryClient.fetchQuery({ queryKey: SESSION_QUERY_KEY, queryFn: loadSession, staleTime: 0 });
      if (!next) clearUser();
    } catch (error) {
      console.error('Could not reload the current user', error);
      clearUser();
    }
  }, [queryClient, loadSession, clearUser]);

  const logOut = trpc.auth.logOut.useMutation();
  const signOut = useCallback(async () => {
    try {
      await logOut.mutateAsync();
      notify.success(MESSAGES.loggedOut);
    } catch (error) {
      console.error('Logout failed', error);
    }
    navigate('/login');
    clearUser();
  }, [logOut, navigate, clearUser]);

  const endSession = useCallback(
    (to: string, state?: unknown) => {
      navigate(to, { replace: true, state });
      clearUser();
    },
    [navigate, clearUser],
  );

  const value = useMemo<AuthContextValue>(
    () => ({ status, user, setUser, refreshUser, signOut, endSession }),
    [status, user, setUser, refreshUser, signOut, endSession],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
