import type { WebhookDeliveryError } from '../../../shared/schemas/webhooks.js';
import { NonPublicAddressError } from '../ip-intel/public-fetch.js';

interface ErrorLike {
  name?: string;
  code?: string;
  syscall?: string;
  cause?: unknown;
  errors?: unknown[];
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'ESERVFAIL']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** OpenSSL's verification codes as Node names them (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED…) and its TLS/SSL errors. */
const TLS_CODE = /CERT|CRL|SELF_SIGNED|^UNABLE_TO_|^INVALID_CA$|^PATH_LENGTH_EXCEEDED$|^INVALID_PURPOSE$|^HOSTNAME_MISMATCH$|^ERR_TLS_|^ERR_SSL_|^EPROTO$/;

/**
 * The category of a failed fetch: fetch wraps the socket's or resolver's error as its `cause` (an
 * AggregateError when several addresses were tried), so the whole chain is read.
 */
export function deliveryErrorOf(failure: unknown): WebhookDeliveryError {
  const chain = errorChain(failure);
  const has = (test: (error: ErrorLike) => boolean) => chain.some(test);
  if (has((e) => e.name === 'TimeoutError' || TIMEOUT_CODES.has(e.code ?? ''))) return 'timeout';
  if (has((e) => e instanceof NonPublicAddressError || e.name === 'NonPublicAddressError')) return 'not_public';
  if (has((e) => e.syscall === 'getaddrinfo' || DNS_CODES.has(e.code ?? ''))) return 'dns_failed';
  if (has((e) => TLS_CODE.test(e.code ?? ''))) return 'tls';
  if (has((e) => e.code === 'ECONNREFUSED')) return 'connect_refused';
  return 'connection_failed';
}

function errorChain(failure: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  const pending: unknown[] = [failure];
  while (pending.length > 0 && chain.length < 20) {
    const next = pending.shift();
    if (typeof next !== 'object' || next === null) continue;
    const error = next as ErrorLike;
    chain.push(error);
    pending.push(error.cause, ...(Array.isArray(error.errors) ? error.errors : []));
  }
  return chain;
}
