/** Real identity providers on loopback for "Sign in with …" tests; see each module for details. */
export { CookieJar, followToRedirect } from './identity-providers/browser.js';
export {
  startTestOidcProvider,
  type OidcOutcome,
  type OidcTestClient,
  type OidcTestUser,
  type TestOidcProvider,
  type TestOidcProviderOptions,
} from './identity-providers/oidc.js';
export {
  startTestGitHub,
  type GitHubOutcome,
  type GitHubTestClient,
  type GitHubTestEmail,
  type GitHubTestUser,
  type TestGitHub,
  type TestGitHubOptions,
} from './identity-providers/github.js';
