import { TRPCClientError } from '@trpc/client';
import { ApiError, apiErrorMessage } from './api-client';

/**
 * The user-safe text of a failed call: the server's detail when it sent one (a tRPC error's message),
 * otherwise the fallback (network failures, unexpected shapes).
 */
export function errorMessage(error: unknown, fallback: string): string {
  // A REST call's refusal (`{"detail": …}`): its detail, except for server failures.
  if (error instanceof ApiError) return apiErrorMessage(error, fallback);
  if (!(error instanceof TRPCClientError)) return fallback;
  const data = error.data as { code?: string } | null | undefined;
  const message = typeof error.message === 'string' ? error.message.trim() : '';
  if (!data?.code || !message) return fallback;
  // A raw validation dump (a JSON list of issues) is not for people.
  if (message.startsWith('[') || message.startsWith('{')) return fallback;
  if (message === 'Internal Server Error' || message === 'INTERNAL_SERVER_ERROR') return fallback;
  return message;
}

export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  return (error.data as { code?: string } | null | undefined)?.code;
}
