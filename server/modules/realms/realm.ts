import type { AccessTokens } from '../sessions/access-tokens.js';

/**
 * Whose accounts an operation works on: the platform's own (developers, project_id null) or one
 * project's end users. The same services serve both; only these differ.
 */
export interface Realm {
  projectId: string | null;
  /** Signs and verifies this realm's access tokens (the platform's key, or the project's own). */
  accessTokens: AccessTokens;
  /** Base of the links in this realm's mails: APP_URL, or the project's website_url. */
  linkBase: string;
}

/** Keys rate limits and throttles per realm, so one project's traffic never locks out another's users. */
export function realmKey(realm: Pick<Realm, 'projectId'>, value: string): string {
  return `${realm.projectId ?? 'platform'}:${value}`;
}
