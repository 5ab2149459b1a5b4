import { useMemo } from 'react';
import type { z } from 'zod';
import type { CreateSsoConnectionInputSchema, ScimTokenSchema, SsoConnection, UpdateSsoConnectionInputSchema } from '../../../shared/schemas/sso';
import { usePlatformApi } from '../../lib/platform-api';

export type SsoConnectionInput = z.input<typeof CreateSsoConnectionInputSchema>;
export type SsoConnectionChanges = z.input<typeof UpdateSsoConnectionInputSchema>;
export type ScimToken = z.infer<typeof ScimTokenSchema>;

export const ssoConnectionKeys = { list: (projectId: string) => ['sso-connections', projectId] as const };

/** A project's enterprise SSO connections over REST (/api/v1/projects/{id}/sso-connections): there is no tRPC procedure for them. */
export function useSsoConnectionsApi(projectId: string) {
  const api = usePlatformApi();
  return useMemo(() => {
    const call = api.session;
    const base = `/projects/${encodeURIComponent(projectId)}/sso-connections`;
    const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
    return {
      list: () => call<{ connections: SsoConnection[] }>('GET', base),
      create: (input: SsoConnectionInput) => call<SsoConnection>('POST', base, input),
      update: (id: string, changes: SsoConnectionChanges) => call<SsoConnection>('PATCH', one(id), changes),
      remove: (id: string) => call<{ message: string }>('DELETE', one(id)),
      verifyDomains: (id: string) => call<SsoConnection>('POST', `${one(id)}/verify-domains`),
      createScimToken: (id: string) => call<ScimToken>('POST', `${one(id)}/scim-token`),
      revokeScimToken: (id: string) => call<{ message: string }>('DELETE', `${one(id)}/scim-token`),
    };
  }, [projectId, api]);
}
