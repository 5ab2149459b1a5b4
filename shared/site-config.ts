/**
 * What the dashboard shows of the operator's own site, set by LANDING_PAGE, PRIVACY_URL and
 * TERMS_URL. The server writes it into index.html (a meta tag, read before the first render).
 */
export interface SiteConfig {
  /** The marketing page at `/`; off, `/` goes to sign-in. */
  landingPage: boolean;
  privacyUrl: string | null;
  termsUrl: string | null;
}

export const SITE_CONFIG_META = 'authplatform-site';

export const DEFAULT_SITE_CONFIG: SiteConfig = Object.freeze({ landingPage: true, privacyUrl: null, termsUrl: null });

/** The meta tag's content, read back; anything missing or malformed is the default. */
export function parseSiteConfig(content: string | null | undefined): SiteConfig {
  if (!content) return DEFAULT_SITE_CONFIG;
  try {
    const value = JSON.parse(content) as Partial<SiteConfig>;
    const url = (candidate: unknown) => (typeof candidate === 'string' && /^https?:\/\//.test(candidate) ? candidate : null);
    return { landingPage: value.landingPage !== false, privacyUrl: url(value.privacyUrl), termsUrl: url(value.termsUrl) };
  } catch {
    return DEFAULT_SITE_CONFIG;
  }
}
