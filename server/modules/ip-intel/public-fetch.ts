import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
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

/** A URL whose host is plainly not public (localhost, or a private, loopback or link-local address), before any lookup. */
export function isPlainlyPrivate(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || (parseIp(host) !== null && !isPublicAddress(host));
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** DNS as the socket sees it, refusing a name that resolves to any non-public address (checked at connect time, so a second answer cannot rebind it). */
function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address))) return callback(new NonPublicAddressError(hostname), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/**
 * fetch for addresses someone other than the operator chose (a project's sign-in provider): it
 * reaches public addresses only, whatever the name resolves to, and never follows a redirect on its
 * own. The operator's own settings use the ordinary fetch.
 */
export function createPublicFetch(): typeof fetch {
  const agent = new Agent({ connect: { lookup: publicLookup } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An address literal is connected to without a lookup: check it here.
    if (parseIp(host) && !isPublicAddress(host)) throw new NonPublicAddressError(host);
    const redirect = init?.redirect === 'manual' ? 'manual' : 'error';
    return undiciFetch(url, { ...(init as object), redirect, dispatcher: agent } as Parameters<typeof undiciFetch>[1]);
  }) as unknown as typeof fetch;
}
