import { LRUCache } from 'lru-cache';
import * as oauth from 'openid-client';
import type { SocialProvider } from '../../../shared/schemas/social.js';
import { isLoopbackUrl, type ConnectionSettings } from '../../config.js';
import { sha256 } from '../../lib/crypto.js';
import { createPublicFetch } from '../ip-intel/public-fetch.js';

/** Who the provider says signed in. */
export interface ProviderProfile {
  provider: SocialProvider;
  /** The provider's stable id of the user (`sub`, or GitHub's numeric id). */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  /** The provider asserted more than one factor (`amr` has `mfa`). */
  mfa: boolean;
  /** OpenID Connect: the ID token's claims with userinfo's (an enterprise connection maps names and groups from them). */
  claims?: Record<string, unknown>;
}

/** What one sign-in keeps between sending the browser to the provider and its callback. */
export interface PendingAuthorization {
  state: string;
  codeVerifier: string;
  /** OpenID Connect providers only. */
  nonce: string | null;
}

/** The provider refused, or answered something that does not hold (state, nonce, signature, audience…). */
export class ProviderFailure extends Error {
  constructor(
    readonly reason: 'cancelled' | 'provider_error' | 'no_email',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}

const REQUEST_TIMEOUT_S = 10;
const GITHUB_SCOPE = 'read:user user:email';
const OIDC_SCOPE = 'openid email profile';

/**
 * OAuth 2 and OpenID Connect with openid-client: authorization code with PKCE (S256) and state, a
 * nonce for OpenID Connect, ID tokens validated (signature, issuer, audience, expiry, nonce). The
 * providers' metadata (discovery) is kept an hour per connection. Plain http is only allowed to a
 * loopback provider (tests, a provider on the same machine).
 */
export function createProviderClient() {
  const publicFetch = createPublicFetch();
  const fetchFor = (connection: ConnectionSettings): typeof fetch => (connection.publicOnly ? publicFetch : fetch);
  const configurations = new LRUCache<string, Promise<oauth.Configuration>>({ max: 500, ttl: 60 * 60 * 1000 });

  const configurationOf = (connection: ConnectionSettings): Promise<oauth.Configuration> => {
    const key = sha256(JSON.stringify(connection));
    let configuration = configurations.get(key);
    if (!configuration) {
      configuration = buildConfiguration(connection, fetchFor(connection));
      configurations.set(key, configuration);
      // A failed discovery is not kept: the next sign-in tries again.
      configuration.catch(() => configurations.delete(key));
    }
    return configuration;
  };

  return {
    async authorizationUrl(connection: ConnectionSettings, redirectUri: string): Promise<{ url: string; pending: PendingAuthorization }> {
      const configuration = await configurationOf(connection).catch((error: unknown) => {
        throw new ProviderFailure('provider_error', `discovery failed: ${messageOf(error)}`);
      });
      const codeVerifier = oauth.randomPKCECodeVerifier();
      const state = oauth.randomState();
      const nonce = connection.github ? null : oauth.randomNonce();
      const url = oauth.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: connection.github ? GITHUB_SCOPE : OIDC_SCOPE,
        code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        ...(nonce && { nonce }),
      });
      return { url: url.href, pending: { state, codeVerifier, nonce } };
    },

    /** Turns the callback (the full URL the provider sent the browser to) into the provider's profile. */
    async profile(connection: ConnectionSettings, callbackUrl: URL, pending: PendingAuthorization): Promise<ProviderProfile> {
      const error = callbackUrl.searchParams.get('error');
      if (error === 'access_denied') throw new ProviderFailure('cancelled', 'the user cancelled at the provider');
      if (error) throw new ProviderFailure('provider_error', `the provider answered ${error}`);
      try {
        const configuration = await configurationOf(connection);
        const tokens = await oauth.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          ...(pending.nonce ? { expectedNonce: pending.nonce, idTokenExpected: true } : {}),
        });
        if (connection.github) return await gitHubProfile(fetchFor(connection), connection.github.apiUrl, tokens.access_token);
        return await openIdProfile(configuration, connection.provider, tokens);
      } catch (failure) {
        if (failure instanceof ProviderFailure) throw failure;
        throw new ProviderFailure('provider_error', messageOf(failure));
      }
    },
  };
}

export type ProviderClient = ReturnType<typeof createProviderClient>;

async function buildConfiguration(connection: ConnectionSettings, fetchImpl: typeof fetch): Promise<oauth.Configuration> {
  const customFetch = fetchImpl as unknown as oauth.CustomFetch;
  const insecure = (url: string) => url.startsWith('http://') && isLoopbackUrl(url);
  let configuration: oauth.Configuration;
  if (connection.github) {
    const { authorizeUrl, tokenUrl } = connection.github;
    configuration = new oauth.Configuration(
      { issuer: new URL(authorizeUrl).origin, authorization_endpoint: authorizeUrl, token_endpoint: tokenUrl },
      connection.clientId,
      connection.clientSecret,
      oauth.ClientSecretPost(connection.clientSecret),
    );
    configuration[oauth.customFetch] = customFetch;
    if (insecure(tokenUrl)) oauth.allowInsecureRequests(configuration);
  } else {
    const issuer = connection.issuer!;
    configuration = await oauth.discovery(new URL(issuer), connection.clientId, connection.clientSecret, oauth.ClientSecretPost(connection.clientSecret), {
      timeout: REQUEST_TIMEOUT_S,
      [oauth.customFetch]: customFetch,
      ...(insecure(issuer) && { execute: [oauth.allowInsecureRequests] }),
    });
  }
  configuration.timeout = REQUEST_TIMEOUT_S;
  return configuration;
}

async function openIdProfile(configuration: oauth.Configuration, provider: SocialProvider, tokens: oauth.TokenEndpointResponse & oauth.TokenEndpointResponseHelpers): Promise<ProviderProfile> {
  const claims = tokens.claims();
  if (!claims) throw new ProviderFailure('provider_error', 'no ID token');
  let info: Record<string, unknown> = claims;
  // Some providers put the e-mail only in userinfo.
  if (typeof claims.email !== 'string') info = { ...(await oauth.fetchUserInfo(configuration, tokens.access_token, claims.sub)), ...claims };
  const text = (name: string) => (typeof info[name] === 'string' && (info[name] as string).trim() ? (info[name] as string).trim() : null);
  const amr = Array.isArray(claims.amr) ? claims.amr : [];
  return {
    provider,
    subject: claims.sub,
    email: text('email')?.toLowerCase() ?? null,
    emailVerified: info.email_verified === true || info.email_verified === 'true',
    firstName: text('given_name'),
    lastName: text('family_name'),
    mfa: amr.includes('mfa'),
    claims: info,
  };
}

interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
}
interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/** GitHub has no ID token: the user and their primary e-mail (and whether GitHub verified it) come from its API. */
async function gitHubProfile(fetchImpl: typeof fetch, apiUrl: string, accessToken: string): Promise<ProviderProfile> {
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetchImpl(`${apiUrl}${path}`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json', 'user-agent': 'authplatform', 'x-github-api-version': '2022-11-28' },
      redirect: 'error',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000),
    });
    if (!response.ok) throw new ProviderFailure('provider_error', `GitHub API ${path} answered ${response.status}`);
    return (await response.json()) as T;
  };
  const user = await get<GitHubUser>('/user');
  if (typeof user.id !== 'number') throw new ProviderFailure('provider_error', 'GitHub API /user answered without an id');
  const emails = await get<GitHubEmail[]>('/user/emails');
  const primary = Array.isArray(emails) ? emails.find((entry) => entry.primary) : undefined;
  const [firstName, ...rest] = (user.name ?? '').trim().split(/\s+/);
  return {
    provider: 'github',
    subject: String(user.id),
    email: primary?.email.toLowerCase() ?? null,
    emailVerified: primary?.verified === true,
    firstName: firstName || null,
    lastName: rest.join(' ') || null,
    mfa: false,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
