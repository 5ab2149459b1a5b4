/**
 * Why a call failed. Only `invalid_grant` (the session is over at the server) signs the user out;
 * `network_error` and `server_error` are retried and the user stays signed in.
 */
export type AuthErrorCode = 'invalid_grant' | 'network_error' | 'server_error' | 'invalid_response' | 'login_required' | 'callback_error' | 'signed_out';

export class AuthError extends Error {
  override readonly name = 'AuthError';
  constructor(
    readonly code: AuthErrorCode,
    message: string,
    /** The OAuth `error` the server answered, when it did. */
    readonly oauthError?: string,
  ) {
    super(message);
  }

  /** Worth trying again later: the server could not be reached or did not answer properly. */
  get transient(): boolean {
    return this.code === 'network_error' || this.code === 'server_error';
  }
}
