import type { Project } from '../../../../shared/schemas/projects';

/**
 * "Test sign-in": the dashboard runs the project's own OpenID Connect sign-in (authorization code +
 * PKCE, with openid-client as the quickstart tells apps to) and comes back to its page
 * /test-sign-in/callback, a redirect URI every project's provider accepts because it is this server's
 * own page. What the exchange needs (PKCE verifier, state, nonce) waits in localStorage for ten minutes,
 * so a sign-up finished from a mailed link in another tab still completes; it is one-time, spent on
 * return, and worth nothing without the code the provider sends only to that page. No API key is
 * involved: the dashboard is a public client.
 */

export const TEST_SIGN_IN_PATH = '/test-sign-in/callback';
const STORAGE_PREFIX = 'test-sign-in:';
const PENDING_TTL_MS = 10 * 60 * 1000;

interface Pending {
  projectId: string;
  projectName: string;
  issuer: string;
  clientId: string;
  verifier: string;
  nonce: string;
  startedAt: number;
}

export interface TestSignInResult {
  projectId: string;
  projectName: string;
  idTokenClaims: Record<string, unknown>;
  accessTokenClaims: Record<string, unknown>;
}

const loadClient = () => import('openid-client');

async function providerOf(issuer: string, clientId: string) {
  const oidc = await loadClient();
  const url = new URL(issuer);
  // A local install serves plain http; openid-client refuses that unless told.
  const insecure = url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
  return { oidc, config: await oidc.discovery(url, clientId, undefined, oidc.None(), insecure) };
}

/** The provider's redirect URI for the test: this server's callback page (the issuer's origin is APP_URL's). */
export const testRedirectUri = (issuer: string) => `${new URL(issuer).origin}${TEST_SIGN_IN_PATH}`;

function forgetStale(now: number) {
  for (const key of Object.keys(localStorage)) {
    if (!key.startsWith(STORAGE_PREFIX)) continue;
    try {
      if (now - (JSON.parse(localStorage.getItem(key) ?? '{}') as Pending).startedAt > PENDING_TTL_MS) localStorage.removeItem(key);
    } catch {
      localStorage.removeItem(key);
    }
  }
}

/** Where the browser goes to start the test: the project's authorize endpoint, always showing its sign-in page. */
export async function startTestSignIn(project: Pick<Project, 'id' | 'name' | 'issuer' | 'project_key'>): Promise<string> {
  const { oidc, config } = await providerOf(project.issuer, project.project_key);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  forgetStale(Date.now());
  const pending: Pending = { projectId: project.id, projectName: project.name, issuer: project.issuer, clientId: project.project_key, verifier, nonce, startedAt: Date.now() };
  localStorage.setItem(`${STORAGE_PREFIX}${state}`, JSON.stringify(pending));
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: testRedirectUri(project.issuer),
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    prompt: 'login',
  }).href;
}

export class TestSignInError extends Error {}

/** Back on the callback page: spends the pending test of this `state` and exchanges the code for the claims. */
export async function finishTestSignIn(callback: URL): Promise<TestSignInResult> {
  const state = callback.searchParams.get('state') ?? '';
  const key = `${STORAGE_PREFIX}${state}`;
  const stored = state ? localStorage.getItem(key) : null;
  localStorage.removeItem(key);
  const pending = stored ? (JSON.parse(stored) as Pending) : null;
  if (!pending || Date.now() - pending.startedAt > PENDING_TTL_MS) {
    throw new TestSignInError('This browser did not start this test sign-in, or it started more than ten minutes ago. Start it again from the project.');
  }
  const denied = callback.searchParams.get('error');
  if (denied) throw new TestSignInError(callback.searchParams.get('error_description') ?? denied);
  const { oidc, config } = await providerOf(pending.issuer, pending.clientId);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: pending.verifier, expectedState: state, expectedNonce: pending.nonce });
  const { decodeJwt } = await import('jose');
  const result = {
    projectId: pending.projectId,
    projectName: pending.projectName,
    idTokenClaims: { ...tokens.claims() },
    accessTokenClaims: decodeJwt(tokens.access_token) as Record<string, unknown>,
  };
  // A test leaves no session behind: the app session the code made ends now.
  await oidc.tokenRevocation(config, tokens.access_token).catch(() => undefined);
  return result;
}
