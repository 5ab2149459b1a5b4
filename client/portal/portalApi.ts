import type { z } from 'zod';
import type { AdminPortalOverviewSchema, AdminPortalSessionSchema, ConnectionTestAnswerSchema, CreatePortalConnectionInputSchema } from '../../shared/schemas/admin-portal';
import type { ScimTokenSchema, SsoConnection, UpdateSsoConnectionInputSchema } from '../../shared/schemas/sso';
import { ApiError } from '../lib/api-client';

export type PortalOverview = z.infer<typeof AdminPortalOverviewSchema>;
export type PortalConnectionInput = z.input<typeof CreatePortalConnectionInputSchema>;
export type ScimToken = z.infer<typeof ScimTokenSchema>;

/** The setup portal's browser API (/portal/api/v1): same-origin JSON, the portal session in its HttpOnly cookie. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/portal/api/v1${path}`, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new ApiError(response.status, typeof answer.detail === 'string' ? answer.detail : `HTTP ${response.status}`, answer);
  return answer as T;
}

export const portalApi = {
  open: (token: string) => call<z.infer<typeof AdminPortalSessionSchema>>('POST', '/session', { token }),
  close: () => call<{ message: string }>('DELETE', '/session'),
  overview: () => call<PortalOverview>('GET', '/organization'),
  create: (input: PortalConnectionInput) => call<SsoConnection>('POST', '/connections', input),
  update: (id: string, changes: z.input<typeof UpdateSsoConnectionInputSchema>) => call<SsoConnection>('PATCH', `/connections/${encodeURIComponent(id)}`, changes),
  remove: (id: string) => call<{ message: string }>('DELETE', `/connections/${encodeURIComponent(id)}`),
  verifyDomains: (id: string) => call<SsoConnection>('POST', `/connections/${encodeURIComponent(id)}/verify-domains`),
  createScimToken: (id: string) => call<ScimToken>('POST', `/connections/${encodeURIComponent(id)}/scim-token`),
  startTest: (id: string) => call<{ authorization_url: string }>('POST', `/connections/${encodeURIComponent(id)}/test`),
  testResult: () => call<z.infer<typeof ConnectionTestAnswerSchema>>('GET', '/test-result'),
};
