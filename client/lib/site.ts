import { parseSiteConfig, SITE_CONFIG_META, type SiteConfig } from '../../shared/site-config';

/** The operator's site settings the server wrote into index.html (defaults under the dev server). */
export function siteConfig(): SiteConfig {
  return parseSiteConfig(document.querySelector(`meta[name="${SITE_CONFIG_META}"]`)?.getAttribute('content'));
}
