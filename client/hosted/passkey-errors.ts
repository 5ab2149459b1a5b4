import { passkeyErrorMessage } from '../lib/passkeys';
import { ApiError } from '../lib/api-client';
import { hostedErrorMessage } from './api';

/** The text for a failed passkey step: the server's detail, the browser's own message, or the fallback. */
export function passkeyFailureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? hostedErrorMessage(error, fallback) : passkeyErrorMessage(error, fallback);
}
