import { useCallback } from 'react';
import type { ActiveOrganization, AuthSnapshot, SignInOptions, SignOutOptions, SignOutReason, User } from '@authplatform/js';
import { useAuthContext } from './context.js';

export interface UseAuth {
  /** False until the client has found out whether someone is signed in (always false on a server). */
  isLoaded: boolean;
  isSignedIn: boolean;
  user: User | null;
  /** The organization the session is in, with the role and permissions there. */
  organization: ActiveOrganization | null;
  /** Why the last session ended (user, revoked, expired), until the next sign-in. */
  signOutReason: SignOutReason | null;
  /** A valid access token (refreshed once for all tabs when needed), or null when signed out. */
  getAccessToken(options?: { forceRefresh?: boolean }): Promise<string | null>;
  signIn(options?: SignInOptions): Promise<void>;
  signOut(options?: SignOutOptions): Promise<void>;
  switchOrganization(organization: string): Promise<void>;
  /** The whole state, for what the fields above do not cover (access token claims, the callback's error). */
  snapshot: AuthSnapshot;
}

export function useAuth(): UseAuth {
  const { client, snapshot } = useAuthContext();
  const getAccessToken = useCallback((options?: { forceRefresh?: boolean }) => (client ? client.getAccessToken(options) : Promise.resolve(null)), [client]);
  const signIn = useCallback((options?: SignInOptions) => (client ? client.signIn(options) : Promise.resolve()), [client]);
  const signOut = useCallback((options?: SignOutOptions) => (client ? client.signOut(options) : Promise.resolve()), [client]);
  const switchOrganization = useCallback((organization: string) => (client ? client.switchOrganization(organization) : Promise.resolve()), [client]);
  return {
    isLoaded: snapshot.status !== 'loading',
    isSignedIn: snapshot.status === 'signedIn',
    user: snapshot.user,
    organization: snapshot.organization,
    signOutReason: snapshot.signOutReason,
    getAccessToken,
    signIn,
    signOut,
    switchOrganization,
    snapshot,
  };
}
