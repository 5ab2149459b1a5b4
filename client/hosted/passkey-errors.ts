import { passkeyErrorMessage } from '../lib/passkeys';
import { HostedApiError, hostedErrorMessage } from './api';

/** The text for a failed passkey step: the server's detail, the browser's own message, or the fallback. */
export function passkeyFailureMessage(error: unknown, fallback: string): string {
  return error instanceof HostedApiError ? hostedErrorMessage(error, fallback) : passkeyErrorMessage(error, fallback);
}
