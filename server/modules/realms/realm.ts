import type { StoredSignInMethods } from './sign-in-methods.js';
import type { ProjectRow } from '../../db/schema.js';
import type { MailBrand } from '../../mail/branding.js';
import type { CaptchaVerifier } from '../captcha/captcha.js';
import type { AccessTokens } from '../sessions/access-tokens.js';

/**
 * Whose accounts an operation works on: the platform's own (developers, project_id null) or one
 * project's end users. The same services serve both; only these differ.
 */
export interface Realm {
  projectId: string | null;
  /** Signs and verifies this realm's access tokens (the platform's key, or the project's own). */
  accessTokens: AccessTokens;
  /**
   * Base of the links in this realm's mails: APP_URL; a project's hosted pages, or its website_url when
   * it has one and does not use its hosted sign-in (mailLinkBaseOf); always the hosted pages on the hosted pages.
   */
  linkBase: string;
  /** Where this realm's passkeys belong (WebAuthn relying party); null when it has no web address. */
  relyingParty: RelyingParty | null;
  /** The rules for this realm's accounts: the platform's from its configuration, a project's from its settings. */
  policy: RealmPolicy;
}

/** What a project may set for its end users (project_settings), and the platform sets for its accounts in the environment. */
export interface RealmPolicy {
  passwordMinLength: number;
  /** Refuse passwords from the common (breached) list. */
  checkCommonPasswords: boolean;
  accessTokenTtlS: number;
  /** Also how long a session lives without a refresh. */
  refreshTokenTtlS: number;
  /** Asked on sign-up, sign-in, resend and forgot-password; provider 'none' passes every call. */
  captcha: CaptchaVerifier;
  /** Refuse sign-ins from VPN, proxy and hosting networks (BLOCK_VPN). */
  blockVpn: boolean;
  allowUnverifiedSignIn: boolean;
  mail: MailBrand;
  /** Organizations of the realm's accounts: whether they may create them, how many one may belong to, and the custom-claims template (JSON text). */
  organizations: { selfService: boolean; maxPerUser: number; customClaims: string | null };
  /** The first factors the realm's accounts may sign in with (projects/sign-in-methods.ts reads and checks them). */
  signInMethods: StoredSignInMethods;
}

/** A WebAuthn relying party: passkeys are bound to `id` (a host name) and used from `origin`. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingPartyAt(url: string, name: string): RelyingParty {
  const { hostname, origin } = new URL(url);
  return { id: hostname, origin, name };
}

/** Monitoring works over one realm's accounts: the platform's (projectId null) or one project's end users. */
export type MonitorScope = Pick<Realm, 'projectId'>;

export const PLATFORM_SCOPE: MonitorScope = Object.freeze({ projectId: null });

/** Each project's end users as realms, resolved from an API key (implemented in modules/projects/project-realms.ts). */
export interface ProjectRealms {
  /** The realm of a project's end users on the public API (its policy from the project's settings, cached). */
  realmOf(project: ProjectRow): Promise<Realm>;
  /** X-API-Key → its project's realm: 401 for a missing, unknown or revoked key, 403 for an inactive project. */
  authenticateApiKey(apiKey: string | undefined): Promise<{ realm: Realm; project: ProjectRow; apiKeyId: string }>;
  /**
   * The realm of a project's hosted pages and OpenID Connect provider, by its public key: 404 for an
   * unknown key, 403 for an inactive project or owner. Its mail links point at the hosted pages, and
   * its passkeys belong to APP_URL's host (where the hosted pages run).
   */
  hostedRealm(projectKey: string): Promise<{ realm: Realm; project: ProjectRow }>;
  /** The name, sender and colour of an account's mails: its project's (cached with its settings), or the platform's for null. */
  mailBrandOf(projectId: string | null): Promise<MailBrand>;
  jwks(projectKey: string): Promise<ReturnType<AccessTokens['jwks']>>;
  /** Writes the API calls counted in memory so far (keys' last use, daily analytics). */
  flushUsage(): Promise<void>;
  /** Writes what is left and stops counting in the background (on shutdown). */
  close(): Promise<void>;
}

/** Keys rate limits and throttles per realm, so one project's traffic never locks out another's users. */
export function realmKey(realm: Pick<Realm, 'projectId'>, value: string): string {
  return `${realm.projectId ?? 'platform'}:${value}`;
}
