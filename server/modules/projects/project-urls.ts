import type { Config } from '../../config.js';

/** The project's OpenID Connect issuer: the `iss` of its end users' tokens and the base of its discovery document. */
export function issuerOf(config: Pick<Config, 'appUrl'>, projectKey: string): string {
  return `${config.appUrl}/projects/${projectKey}`;
}

/** Where the project's hosted sign-in pages live (and its mail links point when it has no website_url). */
export function hostedPagesUrlOf(config: Pick<Config, 'appUrl'>, projectKey: string): string {
  return `${config.appUrl}/hosted/${projectKey}`;
}

/**
 * The dashboard's "Test sign-in" page: a redirect URI every project's provider accepts. It is this
 * server's own page, so a code sent there stays in the browser that signed in, and only the tab that
 * started the test (holding its PKCE verifier and state) can exchange it.
 */
export function testSignInRedirectOf(config: Pick<Config, 'appUrl'>): string {
  return `${config.appUrl}/test-sign-in/callback`;
}

/** The hosted pages' start of an enterprise sign-in (a browser navigation to the connection's IdP). */
export function hostedSsoStartUrlOf(config: Pick<Config, 'appUrl'>, projectKey: string): string {
  return `${hostedPagesUrlOf(config, projectKey)}/api/v1/auth/sso/start`;
}

/** Where an enterprise sign-in started on the hosted pages comes back from the ACS or OIDC callback, in the same browser. */
export function hostedSsoFinishUrlOf(config: Pick<Config, 'appUrl'>, projectKey: string): string {
  return `${hostedPagesUrlOf(config, projectKey)}/api/v1/auth/sso/finish`;
}
