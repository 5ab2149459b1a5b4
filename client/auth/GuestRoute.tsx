import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from './AuthProvider';
import { FullPageLoader } from './ProtectedRoute';
import { postLoginPath, safeReturnTo } from './redirect';

/** Login and signup: signed-in users are sent on (to `?return_to=`, to 'from' when a guard sent them here, else /dashboard). */
export function GuestRoute({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'authenticated') return <Navigate to={safeReturnTo(new URLSearchParams(location.search).get('return_to')) ?? postLoginPath(location.state)} replace />;
  return <>{children}</>;
}
