import { isIPv4, isIPv6 } from 'node:net';

/**
 * A parsed client address. IPv4 is one unsigned 32-bit number; IPv6 is four big-endian 32-bit words.
 * IPv4-mapped IPv6 (::ffff:a.b.c.d) is turned into plain IPv4 so that both spellings answer alike,
 * and so is a 6to4 address (2002:AABB:CCDD::/48 carries the IPv4 address A.B.C.D).
 */
export type ParsedIp = { v: 4; n: number } | { v: 6; w: Uint32Array };

/**
 * Parses an address as it may come from a socket or a header: surrounding spaces, [brackets]
 * and an IPv6 zone (%eth0) are tolerated, anything else that is not a plain IPv4 or IPv6 address
 * (ports, CIDR suffixes, host names, leading-zero octets) gives null. Never throws.
 */
export function parseIp(input: unknown): ParsedIp | null {
  if (typeof input !== 'string' || input.length === 0 || input.length > 64) return null;
  let s = input.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone !== -1) s = s.slice(0, zone);
  if (isIPv4(s)) return { v: 4, n: parseIPv4(s) };
  if (!isIPv6(s)) return null;
  const w = parseIPv6(s);
  if (w === null) return null;
  // ::ffff:0:0/96, IPv4-mapped: the same host as its IPv4 address.
  if (w[0] === 0 && w[1] === 0 && w[2] === 0xffff) return { v: 4, n: w[3]! };
  // 2002::/16, 6to4: the next 32 bits are the sending host's public IPv4 address.
  if (w[0]! >>> 16 === 0x2002) return { v: 4, n: (((w[0]! & 0xffff) << 16) | (w[1]! >>> 16)) >>> 0 };
  return { v: 6, w };
}

/** `s` must already be a valid dotted quad. */
function parseIPv4(s: string): number {
  let n = 0;
  let octet = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      n = n * 256 + octet;
      octet = 0;
    } else {
      octet = octet * 10 + (c - 48);
    }
  }
  return (n * 256 + octet) >>> 0;
}

/** `s` must already be a valid IPv6 address (no zone). Handles `::` and a trailing dotted quad. */
function parseIPv6(s: string): Uint32Array | null {
  const groups: number[] = [];
  let tail: number[] = [];
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parseHalf = (half: string, out: number[]): boolean => {
    if (half === '') return true;
    const parts = half.split(':');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i === parts.length - 1 && part.includes('.')) {
        if (!isIPv4(part)) return false;
        const n = parseIPv4(part);
        out.push(n >>> 16, n & 0xffff);
      } else {
        if (part.length === 0 || part.length > 4) return false;
        const g = parseInt(part, 16);
        if (Number.isNaN(g)) return false;
        out.push(g);
      }
    }
    return true;
  };
  if (!parseHalf(halves[0]!, groups)) return null;
  if (halves.length === 2) {
    if (!parseHalf(halves[1]!, tail)) return null;
    const missing = 8 - groups.length - tail.length;
    if (missing < 1) return null;
    for (let i = 0; i < missing; i++) groups.push(0);
  } else {
    tail = [];
  }
  groups.push(...tail);
  if (groups.length !== 8) return null;
  const w = new Uint32Array(4);
  for (let i = 0; i < 4; i++) w[i] = ((groups[2 * i]! << 16) | groups[2 * i + 1]!) >>> 0;
  return w;
}

/** [network, prefix length] pairs of IPv4 space that is not a routable public host. */
const NON_PUBLIC_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

const NON_PUBLIC_V4_RANGES = NON_PUBLIC_V4.map(([net, bits]) => {
  const start = parseIPv4(net);
  const size = 2 ** (32 - bits);
  return [start, start + size - 1] as const;
});

/** IPv6 prefixes (as parsed words + length) that are not a routable public host. */
const NON_PUBLIC_V6: ReadonlyArray<readonly [string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, benchmarking…)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const NON_PUBLIC_V6_PREFIXES = NON_PUBLIC_V6.map(([net, bits]) => ({ w: parseIPv6(net)!, bits }));

function v6InPrefix(w: Uint32Array, prefix: Uint32Array, bits: number): boolean {
  for (let i = 0; i < 4 && bits > 0; i++, bits -= 32) {
    const take = Math.min(32, bits);
    const mask = take === 32 ? 0xffffffff : ~(0xffffffff >>> take) >>> 0;
    if (((w[i]! & mask) >>> 0) !== ((prefix[i]! & mask) >>> 0)) return false;
  }
  return true;
}

/**
 * True for addresses no dataset can place: private, loopback, link-local, unspecified, CGNAT,
 * documentation, multicast and reserved space. 2001::/23 is listed as a whole although a few
 * anycast services sit in 2001:1::/32 to 2001:4::/32; none of them is a client.
 */
export function isNonPublic(ip: ParsedIp): boolean {
  if (ip.v === 4) {
    for (const [start, end] of NON_PUBLIC_V4_RANGES) if (ip.n >= start && ip.n <= end) return true;
    return false;
  }
  // Global unicast is 2000::/3; everything outside it is either listed above or unassigned.
  if ((ip.w[0]! >>> 29) !== 1) return true;
  for (const { w, bits } of NON_PUBLIC_V6_PREFIXES) if (v6InPrefix(ip.w, w, bits)) return true;
  return false;
}

/** Canonical text of a parsed address (IPv4 dotted quad; IPv6 as eight full hex groups), for set membership. */
export function ipKey(ip: ParsedIp): string {
  if (ip.v === 4) return `${ip.n >>> 24}.${(ip.n >>> 16) & 255}.${(ip.n >>> 8) & 255}.${ip.n & 255}`;
  const parts: string[] = [];
  for (let i = 0; i < 4; i++) parts.push((ip.w[i]! >>> 16).toString(16), (ip.w[i]! & 0xffff).toString(16));
  return parts.join(':');
}

/**
 * The unit per-address limits count: an IPv4 address, or the /64 an IPv6 address sits in (one home
 * or one cloud VM owns a whole /64, so counting single IPv6 addresses would hand out billions of
 * budgets). Anything unparsable counts as itself.
 */
export function networkOf(address: string): string {
  const ip = parseIp(address);
  if (!ip) return address;
  if (ip.v === 4) return ipKey(ip);
  const groups: string[] = [];
  for (let i = 0; i < 2; i++) groups.push((ip.w[i]! >>> 16).toString(16), (ip.w[i]! & 0xffff).toString(16));
  return `${groups.join(':')}::/64`;
}
