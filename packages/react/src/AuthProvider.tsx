import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { AuthClient, type AuthClientOptions } from '@authplatform/js';
import { AuthContext, LOADING, type AuthClientLike } from './context.js';

export interface AuthProviderProps extends Partial<Omit<AuthClientOptions, 'environment'>> {
  /** The project's issuer: APP_URL/projects/{project_key}. */
  issuer: string;
  /** The project key. */
  clientId: string;
  /** A client made elsewhere (shared with non-React code, or a test's); the provider then neither makes nor destroys one. */
  client?: AuthClientLike;
  /** The hosted account page; default: the project's, next to its issuer. */
  accountUrl?: string;
  /** Called after a sign-in callback with the `returnTo` the sign-in asked for (route there with your router). */
  onRedirectCallback?: (returnTo: string | undefined) => void;
  children?: ReactNode;
}

const noSubscription = () => () => undefined;
const loading = () => LOADING;

/** APP_URL/projects/{key} → APP_URL/hosted/{key}/account (the server's layout). */
function accountUrlOf(issuer: string): string {
  return `${issuer.replace(/\/projects\/([^/]+)\/?$/, '/hosted/$1')}/account`;
}

/**
 * Holds the project's client for the tree. The client is made in an effect, never during render, so
 * the provider renders on a server (everything is "loading" there) and hydrates without a mismatch.
 */
export function AuthProvider({ client: given, children, accountUrl, onRedirectCallback, ...options }: AuthProviderProps) {
  const [client, setClient] = useState<AuthClientLike | null>(given ?? null);
  const { issuer, clientId, redirectUri, postLogoutRedirectUri, scope, refreshToken, refreshLeewayS } = options;
  const refreshTokenKey = typeof refreshToken === 'object' ? refreshToken.cookieEndpoint : refreshToken;

  useEffect(() => {
    const made = given ?? new AuthClient({ ...options, issuer, clientId });
    setClient(made);
    let live = true;
    made.init().then(
      (result) => {
        if (live && result.callback) onRedirectCallback?.(result.returnTo);
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (!given) made.destroy();
    };
    // The client is remade only when what it talks to changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [given, issuer, clientId, redirectUri, postLogoutRedirectUri, scope, refreshTokenKey, refreshLeewayS]);

  const snapshot = useSyncExternalStore(client?.subscribe ?? noSubscription, client?.getSnapshot ?? loading, loading);
  const value = useMemo(() => ({ client, snapshot, accountUrl: accountUrl ?? accountUrlOf(issuer) }), [client, snapshot, accountUrl, issuer]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
