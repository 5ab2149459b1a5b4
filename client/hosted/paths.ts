import type { SocialProvider } from '../../shared/schemas/social';
import { socialStartUrl } from '../lib/social';

/** Addresses of one project's hosted pages; `interaction` is the pending OpenID Connect sign-in, if any. */
export interface HostedPaths {
  base: string;
  /** A hosted page, keeping `interaction` (and other params) when given. */
  page(name: HostedPageName, params?: Record<string, string | null | undefined>): string;
  /** Where a finished sign-in goes: back to the provider when an app asked, else the account page. */
  afterSignIn(interaction: string | null): string;
  /** The provider's logout endpoint, with the query the app sent to the sign-out page. */
  logout(search: string): string;
  /** The start of a sign-in with a provider, or of connecting one (`intent: 'link'`): a browser navigation. */
  socialStart(provider: SocialProvider, params: Record<string, string | null | undefined>): string;
  /** The start of a sign-in with the organization's identity provider (enterprise SSO): a browser navigation. */
  ssoStart(params: Record<string, string | null | undefined>): string;
}

export type HostedPageName = 'sign-in' | 'sign-up' | 'forgot-password' | 'reset-password' | 'verify-email' | 'account' | 'sign-out' | 'signed-out' | 'link-account' | 'accept-invitation' | 'device';

export function hostedPaths(projectKey: string): HostedPaths {
  const base = `/hosted/${encodeURIComponent(projectKey)}`;
  const page: HostedPaths['page'] = (name, params = {}) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
    const search = query.toString();
    return `${base}/${name}${search ? `?${search}` : ''}`;
  };
  return {
    base,
    page,
    afterSignIn: (interaction) =>
      interaction ? `${base}/authorize/continue?${new URLSearchParams({ interaction })}` : page('account'),
    logout: (search) => `${base}/logout${search.startsWith('?') ? search : search ? `?${search}` : ''}`,
    socialStart: (provider, params) => socialStartUrl(`${base}/api/v1`, provider, params),
    ssoStart: (params) => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
      return `${base}/api/v1/auth/sso/start?${query}`;
    },
  };
}
