import type { MfaChallenge, MfaMethod } from '../../shared/schemas/mfa';
import { SOCIAL_ERRORS, SOCIAL_PROVIDER_NAMES, type SocialErrorCode, type SocialProvider } from '../../shared/schemas/social';

/**
 * Sign-in with a provider, as the pages see it: a browser navigation to the server's start URL, and the
 * query (`social_error`, `social_linked`, `return_to`) or fragment (`mfa_token`) the server comes back with.
 */

/** The message of a `?social_error=` code; null for an unknown code (text from the address is never shown). */
export function socialErrorMessage(code: string | null | undefined): string | null {
  return code && Object.hasOwn(SOCIAL_ERRORS, code) ? SOCIAL_ERRORS[code as SocialErrorCode] : null;
}

/** The provider's name for a `?social_linked=` id; null for anything else. */
export function linkedProviderName(id: string | null | undefined): string | null {
  return id && Object.hasOwn(SOCIAL_PROVIDER_NAMES, id) ? SOCIAL_PROVIDER_NAMES[id as SocialProvider] : null;
}

/** The second step a sign-in with a provider came back with (`#mfa_token=…`), as the password form's challenge. */
export function challengeFromFragment(hash: string): MfaChallenge | null {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const token = fragment.get('mfa_token');
  if (!token) return null;
  const offered = (fragment.get('methods') ?? '').split(',').filter((method): method is MfaMethod => ['totp', 'recovery_code', 'passkey'].includes(method));
  return { mfa_required: true, mfa_token: token, methods: offered.length > 0 ? offered : ['totp', 'recovery_code'] };
}

/** The start of a sign-in (or of connecting a provider) under `apiBase` (`/api/v1` or `/hosted/{key}/api/v1`). */
export function socialStartUrl(apiBase: string, provider: SocialProvider, params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  const search = query.toString();
  return `${apiBase}/auth/oauth/${encodeURIComponent(provider)}/authorize${search ? `?${search}` : ''}`;
}
