import { activeOrganizationOf, userFromIdToken, type AuthSnapshot, type SignInOptions, type SignOutOptions } from '@authplatform/js';
import type { AuthClientLike } from '../src/index.js';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const jwt = (claims: Record<string, unknown>) => `${base64url({ alg: 'ES256' })}.${base64url(claims)}.signature`;

/**
 * A stand-in for the AuthClient whose state the test sets, recording what the components ask of it
 * (the client itself is tested against the real server in packages/js/tests).
 */
export class StubClient implements AuthClientLike {
  snapshot: AuthSnapshot = { status: 'loading', user: null, organization: null, accessClaims: null, expiresAt: null, signOutReason: null, error: null };
  readonly calls: { signIn: SignInOptions[]; signOut: SignOutOptions[]; switchOrganization: string[] } = { signIn: [], signOut: [], switchOrganization: [] };
  private readonly listeners = new Set<() => void>();

  init = async () => ({ callback: false });
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.snapshot;
  getAccessToken = async () => (this.snapshot.status === 'signedIn' ? 'access-token' : null);
  signIn = async (options: SignInOptions = {}) => {
    this.calls.signIn.push(options);
  };
  signOut = async (options: SignOutOptions = {}) => {
    this.calls.signOut.push(options);
    this.set({ status: 'signedOut', user: null, organization: null, accessClaims: null, signOutReason: 'user' });
  };
  switchOrganization = async (organization: string) => {
    this.calls.switchOrganization.push(organization);
  };
  destroy = () => undefined;

  set(changes: Partial<AuthSnapshot>) {
    this.snapshot = { ...this.snapshot, ...changes };
    for (const listener of this.listeners) listener();
  }

  /** Signed in with these ID token and access token claims, as the real client derives its snapshot. */
  signInAs(idClaims: Record<string, unknown>, accessClaims: Record<string, unknown> = {}) {
    const access = { sub: idClaims.sub, ...accessClaims };
    this.set({ status: 'signedIn', user: userFromIdToken(jwt(idClaims), jwt(access)), accessClaims: access, organization: activeOrganizationOf(access), signOutReason: null });
  }
}
