import { Suspense } from 'react';
import { Box } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { FullPageLoader } from '../auth/ProtectedRoute';
import { Footer } from './Footer';
import { Header } from './Header';
import { ScrollToTop } from './ScrollToTop';

export function Layout() {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <ScrollToTop />
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header />
      <Box component="main" id="main" tabIndex={-1} style={{ flex: 1, outline: 'none' }}>
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </Box>
      <Footer />
    </Box>
  );
}
