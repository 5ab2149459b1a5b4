import type { ReactNode } from 'react';
import { useAuth } from './useAuth.js';

/** Its children only when someone is signed in (nothing while loading). */
export function SignedIn({ children }: { children?: ReactNode }) {
  return useAuth().isSignedIn ? <>{children}</> : null;
}

/** Its children only when nobody is signed in (nothing while loading). */
export function SignedOut({ children }: { children?: ReactNode }) {
  const { isLoaded, isSignedIn } = useAuth();
  return isLoaded && !isSignedIn ? <>{children}</> : null;
}

export interface ProtectProps {
  /** A permission the user must hold in the session's organization (access token claim org_permissions). */
  permission?: string;
  /** The role the user must have in the session's organization (claim org_role). */
  role?: string;
  /** Shown to a signed-in user without the permission or role (default nothing). */
  fallback?: ReactNode;
  children?: ReactNode;
}

/**
 * Its children for a signed-in user with the permission and role asked for, in the organization the
 * session is in. The UI's guard only: your API checks the same claims on the access token it gets.
 */
export function Protect({ permission, role, fallback = null, children }: ProtectProps) {
  const { isSignedIn, organization } = useAuth();
  if (!isSignedIn) return null;
  const allowed = (permission === undefined || !!organization?.permissions.includes(permission)) && (role === undefined || organization?.role === role);
  return <>{allowed ? children : fallback}</>;
}
