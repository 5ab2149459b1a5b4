import { useMemo } from 'react';
import type { MachineClient, MachineClientWithSecret } from '../../../shared/schemas/machine-clients';
import { usePlatformApi } from '../../lib/platform-api';

export type MachineClientInput = { name: string; scopes: string[] };

export const machineClientKeys = { list: (projectId: string) => ['machine-clients', projectId] as const };

/** A project's machine clients over REST (/api/v1/projects/{id}/machine-clients): there is no tRPC procedure for them. */
export function useMachineClientsApi(projectId: string) {
  const api = usePlatformApi();
  return useMemo(() => {
    const call = api.session;
    const base = `/projects/${encodeURIComponent(projectId)}/machine-clients`;
    const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
    return {
      list: () => call<{ machine_clients: MachineClient[] }>('GET', base),
      create: (input: MachineClientInput) => call<MachineClientWithSecret>('POST', base, input),
      update: (id: string, changes: Partial<MachineClientInput> & { revoked?: true }) => call<MachineClient>('PATCH', one(id), changes),
      rotate: (id: string) => call<MachineClientWithSecret>('POST', `${one(id)}/rotate-secret`),
      remove: (id: string) => call<{ message: string }>('DELETE', one(id)),
    };
  }, [projectId, api]);
}
