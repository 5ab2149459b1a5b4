import type { ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from './AuthProvider';
import { useHostedT } from '../i18n/useHostedT';

/** Spinner while the session loads; visitors go to /login (replacing this entry) remembering where they were. */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'unauthenticated') return <Navigate to="/login" replace state={{ from: location }} />;
  return <>{children}</>;
}

export function FullPageLoader() {
  const { t } = useHostedT();
  return (
    <Center py={120} role="status" aria-label={t('common.loading')}>
      <Loader />
    </Center>
  );
}
