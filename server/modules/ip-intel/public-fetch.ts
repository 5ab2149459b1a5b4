import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { isIPv4 } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { isNonPublic, parseIp } from './ip-address.js';

/** A request to a private, loopback or link-local address that an outbound fetch refused (SSRF). */
export class NonPublicAddressError extends Error {
  constructor(host: string) {
    super(`${host} is not a public address`);
    this.name = 'NonPublicAddressError';
  }
}

const isPublicAddress = (address: string) => {
  const ip = parseIp(address);
  return ip !== null && !isNonPublic(ip);
};

/** 127.0.0.0/8 (also written ::ffff:127.x.y.z) or ::1: this machine, not any other private address. */
export function isLoopbackAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  const ip = parseIp(text);
  if (ip === null) return false;
  if (ip.v === 4) return ip.n >>> 24 === 127 && (isIPv4(text) || /^::ffff:/i.test(text));
  return ip.w[0] === 0 && ip.w[1] === 0 && ip.w[2] === 0 && ip.w[3] === 1;
}

/** A URL whose host is plainly this machine (localhost, a .localhost name, or a loopback address), before any lookup. */
export function isPlainlyLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || isLoopbackAddress(host);
}

/** A URL whose host is plainly not public (localhost, or a private, loopback or link-local address), before any lookup. */
export function isPlainlyPrivate(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || (parseIp(host) !== null && !isPublicAddress(host));
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** DNS as the socket sees it, refusing a name that resolves to any address `allowed` refuses (checked at connect time, so a second answer cannot rebind it). */
const checkedLookup =
  (allowed: (address: string) => boolean) =>
  (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || !addresses.every((entry) => allowed(entry.address))) return callback(new NonPublicAddressError(hostname), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };

/**
 * fetch for addresses someone other than the operator chose (a project's sign-in provider): it
 * reaches public addresses only, whatever the name resolves to, and never follows a redirect on its
 * own. The operator's own settings use the ordinary fetch. `allowLoopback` also lets it reach this
 * machine's loopback (a development project's receiver on a local install), still no other private address.
 */
export function createPublicFetch(options: { allowLoopback?: boolean } = {}): typeof fetch {
  const allowed = options.allowLoopback ? (address: string) => isPublicAddress(address) || isLoopbackAddress(address) : isPublicAddress;
  const agent = new Agent({ connect: { lookup: checkedLookup(allowed) } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An address literal is connected to without a lookup: check it here.
    if (parseIp(host) && !allowed(host)) throw new NonPublicAddressError(host);
    const redirect = init?.redirect === 'manual' ? 'manual' : 'error';
    return undiciFetch(url, { ...(init as object), redirect, dispatcher: agent } as Parameters<typeof undiciFetch>[1]);
  }) as unknown as typeof fetch;
}
