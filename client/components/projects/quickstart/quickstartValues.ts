import type { Project } from '../../../../shared/schemas/projects';

export const APP_KINDS = [
  { value: 'spa', label: 'Single-page app' },
  { value: 'server', label: 'Server app' },
  { value: 'mobile', label: 'Mobile app' },
  { value: 'backend', label: 'Backend only' },
] as const;
export type AppKind = (typeof APP_KINDS)[number]['value'];

export const isAppKind = (value: unknown): value is AppKind => APP_KINDS.some((kind) => kind.value === value);

/** What an app of this project is configured with, as the server serves it (issuer and hosted pages come from the server's APP_URL). */
export interface QuickstartValues {
  /** The server's APP_URL: what the SDK calls appUrl. */
  appUrl: string;
  issuer: string;
  clientId: string;
  jwksUrl: string;
  signInUrl: string;
  apiBaseUrl: string;
}

export function quickstartValues(project: Pick<Project, 'issuer' | 'project_key' | 'hosted_pages_url'>): QuickstartValues {
  const suffix = `/projects/${project.project_key}`;
  const appUrl = project.issuer.endsWith(suffix) ? project.issuer.slice(0, -suffix.length) : new URL(project.issuer).origin;
  return {
    appUrl,
    issuer: project.issuer,
    clientId: project.project_key,
    jwksUrl: `${appUrl}/public/api/v1/projects/${project.project_key}/jwks.json`,
    signInUrl: `${project.hosted_pages_url}/sign-in`,
    apiBaseUrl: `${appUrl}/public/api/v1`,
  };
}

/**
 * The values as a `.env` file. A browser bundle only sees variables with its bundler's prefix (Vite's
 * VITE_), so a single-page app's are prefixed. The API key is a placeholder: it is shown once, where it
 * is created, and belongs on a server only.
 */
export function envBlock(kind: AppKind, values: QuickstartValues): string {
  const prefix = kind === 'spa' ? 'VITE_' : '';
  const lines = [
    `${prefix}AUTHPLATFORM_URL=${values.appUrl}`,
    `${prefix}AUTHPLATFORM_ISSUER=${values.issuer}`,
    `${prefix}AUTHPLATFORM_CLIENT_ID=${values.clientId}`,
    `${prefix}AUTHPLATFORM_JWKS_URL=${values.jwksUrl}`,
    `${prefix}AUTHPLATFORM_SIGN_IN_URL=${values.signInUrl}`,
    `${prefix}AUTHPLATFORM_API_URL=${values.apiBaseUrl}`,
  ];
  if (kind === 'backend') lines.push('# Create a key under API keys (shown once); keep it on your server', 'AUTHPLATFORM_API_KEY=sk_test_...');
  return `${lines.join('\n')}\n`;
}
