import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/charts/styles.css';
import './styles.css';

import { useState, type ReactNode } from 'react';
import { getDefaultZIndex, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AuthProvider, SessionEvents } from './auth/AuthProvider';
import { PlatformStepUp } from './components/settings/PlatformStepUp';
import type { ApiClient } from './lib/api-client';
import { PlatformApiProvider } from './lib/platform-api';
import { createPlatformClients, trpc, type AppTrpcClient } from './lib/trpc';
import { AppRoutes } from './routes';
import { colorThemeManager, cssVariablesResolver, theme } from './theme';

const TOAST_Z_INDEX = (getDefaultZIndex('modal') + getDefaultZIndex('popover')) / 2;

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** Theme, toasts, data and session. Tests pass their own clients and router. */
export function AppProviders({
  trpcClient,
  platformApi,
  queryClient,
  sessionEvents,
  children,
}: {
  trpcClient: AppTrpcClient;
  /** The REST client of the routes the dashboard calls outside tRPC, sharing the tRPC client's session. */
  platformApi: ApiClient;
  queryClient: QueryClient;
  sessionEvents: SessionEvents;
  children: ReactNode;
}) {
  const [colorSchemeManager] = useState(colorThemeManager);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
    >
      {/* Above the header and dialogs (a dialog's outcome shows over it), below menus and popovers: toasts stack down the
          right-hand side, and were over the account menu's items once there were a few of them. */}
      <Notifications position="top-right" zIndex={TOAST_Z_INDEX} />
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <PlatformApiProvider value={platformApi}>
          <QueryClientProvider client={queryClient}>
            <AuthProvider sessionEvents={sessionEvents}>
              <PlatformStepUp>{children}</PlatformStepUp>
            </AuthProvider>
          </QueryClientProvider>
        </PlatformApiProvider>
      </trpc.Provider>
    </MantineProvider>
  );
}

export function App() {
  const [sessionEvents] = useState(() => new SessionEvents());
  const [queryClient] = useState(createQueryClient);
  const [clients] = useState(() => createPlatformClients({ onSessionExpired: () => sessionEvents.emit() }));
  // A data router (one splat route holding the route table) so a screen can hold a navigation back with useBlocker.
  const [router] = useState(() =>
    createBrowserRouter([
      {
        path: '*',
        element: (
          <AppProviders trpcClient={clients.trpcClient} platformApi={clients.api} queryClient={queryClient} sessionEvents={sessionEvents}>
            <AppRoutes />
          </AppProviders>
        ),
      },
    ]),
  );
  return <RouterProvider router={router} useTransitions={false} />;
}
