import type { HeaderBag } from '../modules/ip-intel/ip-intel.js';
import type { SessionClient } from '../../shared/schemas/sessions.js';

/** What a service may know about the caller's connection; transports fill it in. */
export interface RequestInfo {
  /** The socket's address, or the right-most X-Forwarded-For entry past the proxies TRUST_PROXY trusts. */
  ip: string;
  /** What per-address limits count: the address, or its /64 for IPv6 (networkOf). */
  network: string;
  userAgent: string | null;
  headers: HeaderBag;
  /** The door the request came through; a session it starts is labelled with it. */
  client: SessionClient;
}

export function userAgentOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  return value ? value.slice(0, 512) : null;
}
