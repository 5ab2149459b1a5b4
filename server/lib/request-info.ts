import type { HeaderBag } from '../modules/ip-intel/ip-intel.js';

/** What a service may know about the caller's connection; transports fill it in. */
export interface RequestInfo {
  /** The socket's address, or X-Forwarded-For's when TRUST_PROXY is on (Fastify's trustProxy decides). */
  ip: string;
  userAgent: string | null;
  headers: HeaderBag;
}

export function userAgentOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  return value ? value.slice(0, 512) : null;
}
