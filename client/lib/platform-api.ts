import { createContext, useContext } from 'react';
import type { ApiClient } from './api-client';

const PlatformApiContext = createContext<ApiClient | null>(null);

/** Hands the dashboard's REST client (createPlatformClients' `api`) to the screens. */
export const PlatformApiProvider = PlatformApiContext.Provider;

/** The dashboard's REST client (/api/v1), refreshing through the same session as the tRPC client. */
export function usePlatformApi(): ApiClient {
  const api = useContext(PlatformApiContext);
  if (!api) throw new Error('usePlatformApi needs a PlatformApiProvider (AppProviders)');
  return api;
}
