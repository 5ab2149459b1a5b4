import { createContext, useContext } from 'react';
import type { AuthClient, AuthSnapshot } from '@authplatform/js';

/** What the components need of the client (an AuthClient, or a test's stand-in). */
export type AuthClientLike = Pick<AuthClient, 'init' | 'subscribe' | 'getSnapshot' | 'getAccessToken' | 'signIn' | 'signOut' | 'switchOrganization' | 'destroy'>;

export interface AuthContextValue {
  client: AuthClientLike | null;
  snapshot: AuthSnapshot;
  /** The project's hosted account page. */
  accountUrl: string;
}

export const LOADING: AuthSnapshot = { status: 'loading', user: null, organization: null, accessClaims: null, expiresAt: null, signOutReason: null, error: null };

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuthContext(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('@authplatform/react: wrap the app in <AuthProvider>');
  return value;
}
