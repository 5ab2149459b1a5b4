import type { SessionClient } from '../../../shared/schemas/sessions.js';

const LABELS: Record<Exclude<SessionClient, 'oidc'>, string> = {
  dashboard: 'Dashboard',
  hosted: 'Hosted pages',
  public_api: 'Public API',
};

/** The door a session came through, for people: 'Hosted pages', 'OpenID Connect: Shop', 'Unknown client' (a session from before it was recorded). */
export function sessionClientLabel(client: SessionClient | null, clientName: string | null): string {
  if (client === null) return 'Unknown client';
  if (client === 'oidc') return clientName ? `OpenID Connect: ${clientName}` : 'OpenID Connect';
  return LABELS[client];
}
