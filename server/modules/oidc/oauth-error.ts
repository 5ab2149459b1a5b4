/**
 * An OAuth 2.0 / OpenID Connect protocol error (RFC 6749 §5.2, OIDC Core §3.1.2.6): answered as
 * `{error, error_description, detail}` by the token-side endpoints, or sent back to the app's
 * redirect URI by the authorization endpoint once that URI is known to be registered.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    /** Seconds, for 429. */
    readonly retryAfterS?: number,
  ) {
    super(description);
  }

  body() {
    return { error: this.error, error_description: this.description, detail: this.description };
  }
}

/**
 * The authorization endpoint cannot trust the client or its redirect URI: the user sees an error
 * page, and is never redirected anywhere.
 */
export class AuthorizationPageError extends Error {
  constructor(
    readonly title: string,
    readonly description: string,
    readonly status = 400,
    /** Ways on from the page (back to the app, a fresh start), when there are safe ones. */
    readonly actions: readonly PageAction[] = [],
  ) {
    super(description);
  }
}

export interface PageAction {
  label: string;
  href: string;
}
