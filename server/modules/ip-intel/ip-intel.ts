import { defaultIpDataFiles, findV4, findV6, countryText, loadIpData, type IpData, type IpDataFiles } from './ip-data.js';

export { ipDataFilesIn, type IpDataFiles } from './ip-data.js';
import { ipKey, isNonPublic, parseIp } from './ip-address.js';
import { HOSTING_ASNS, HOSTING_ORG_PATTERNS, isHostingNetwork } from './hosting-networks.js';

/** What we can tell about a client address without any network call. */
export interface IpVerdict {
  country_code: string | null;
  is_vpn: boolean;
  is_proxy: boolean;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface IpIntel {
  /** `headers` are the request's; `trustProxy` says whether forwarding headers are ours (then they are no proxy signal). */
  lookup(ip: string, headers: HeaderBag, trustProxy: boolean): IpVerdict;
}

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'via', 'x-real-ip', 'client-ip', 'x-client-ip', 'true-client-ip', 'x-proxy-id'];

/** A request that arrives with forwarding headers we did not ask for came through somebody's proxy. */
export function hasProxyHeaders(headers: HeaderBag, trustProxy: boolean): boolean {
  if (trustProxy || !headers) return false;
  return FORWARDING_HEADERS.some((name) => headers[name] !== undefined);
}

export interface IpIntelOptions {
  /**
   * Where the data comes from. `true` (default): the CSV files of the npm data packages
   * (@ip-location-db/dbip-country, @ip-location-db/asn), or the files named in `files`.
   * `false`: no dataset at all — every address gets country_code null and is_vpn false
   * (only `proxyAddresses` and the headers still count); for tests that do not look at these fields.
   */
  data?: boolean;
  /** Replaces some or all of the data files (same CSV layout), e.g. a newer download. */
  files?: Partial<IpDataFiles>;
  /** Replaces the curated hosting/VPN AS list (HOSTING_ASNS). */
  hostingAsns?: Iterable<number>;
  /** Replaces the organisation-name patterns (HOSTING_ORG_PATTERNS); `[]` turns name matching off. */
  hostingOrgPatterns?: readonly RegExp[];
  /** Addresses that are known proxies, e.g. a Tor exit list the operator downloads; they answer is_proxy. */
  proxyAddresses?: Iterable<string>;
}

/** Everything known about one address; `lookup` is the short form of this. */
export interface IpDetails {
  /** The address as understood: IPv4-mapped and 6to4 IPv6 become IPv4; null when malformed. */
  address: string | null;
  public: boolean;
  country_code: string | null;
  asn: number | null;
  as_org: string | null;
  hosting: boolean;
  known_proxy: boolean;
}

export interface IpDirectoryInfo {
  /** Milliseconds the first load of these files took (0 when no data is loaded). */
  loadMs: number;
  files: IpDataFiles | null;
  rows: { countryV4: number; countryV6: number; asnV4: number; asnV6: number };
  hostingAsnCount: number;
}

export interface IpDirectory {
  describe(ip: string): IpDetails;
  readonly info: IpDirectoryInfo;
}

/** Hosting verdicts per AS for the default list and patterns, computed once per loaded dataset. */
const defaultHostingSets = new WeakMap<IpData, ReadonlySet<number>>();

function hostingSet(data: IpData, asns: ReadonlySet<number> | ReadonlyMap<number, unknown>, patterns: readonly RegExp[]): ReadonlySet<number> {
  const set = new Set<number>(asns.keys());
  if (patterns.length > 0) for (const [asn, org] of data.asnOrgs) if (isHostingNetwork(asn, org, asns, patterns)) set.add(asn);
  return set;
}

/**
 * The address directory behind createIpIntel. Loading reads ~60 MB of CSV once per process
 * (about 0.5 s, ~35 MB of typed arrays); every lookup after that is two binary searches.
 */
export function createIpDirectory(options: IpIntelOptions = {}): IpDirectory {
  const data = options.data === false ? null : loadIpData({ ...defaultIpDataFiles(), ...options.files });
  const customList = options.hostingAsns !== undefined || options.hostingOrgPatterns !== undefined;
  const asns = options.hostingAsns !== undefined ? new Set(options.hostingAsns) : HOSTING_ASNS;
  const patterns = options.hostingOrgPatterns ?? HOSTING_ORG_PATTERNS;
  let hosting: ReadonlySet<number> = new Set(asns.keys());
  if (data) {
    const cached = customList ? undefined : defaultHostingSets.get(data);
    hosting = cached ?? hostingSet(data, asns, patterns);
    if (!customList && !cached) defaultHostingSets.set(data, hosting);
  }
  const proxies = new Set<string>();
  for (const raw of options.proxyAddresses ?? []) {
    const parsed = parseIp(raw);
    if (parsed) proxies.add(ipKey(parsed));
  }

  function describe(ip: string): IpDetails {
    const parsed = parseIp(ip);
    if (!parsed) return { address: null, public: false, country_code: null, asn: null, as_org: null, hosting: false, known_proxy: false };
    const address = ipKey(parsed);
    const known_proxy = proxies.has(address);
    const isPublic = !isNonPublic(parsed);
    if (!isPublic || !data) {
      return { address, public: isPublic, country_code: null, asn: null, as_org: null, hosting: false, known_proxy };
    }
    let country: number | undefined;
    let asn: number | undefined;
    if (parsed.v === 4) {
      const c = findV4(data.countryV4, parsed.n);
      const a = findV4(data.asnV4, parsed.n);
      country = c === -1 ? undefined : data.countryV4.values[c];
      asn = a === -1 ? undefined : data.asnV4.values[a];
    } else {
      const c = findV6(data.countryV6, parsed.w);
      const a = findV6(data.asnV6, parsed.w);
      country = c === -1 ? undefined : data.countryV6.values[c];
      asn = a === -1 ? undefined : data.asnV6.values[a];
    }
    // AS 0 marks space announced by nobody (bogons in the RIR files).
    const knownAsn = asn !== undefined && asn !== 0 ? asn : null;
    return {
      address,
      public: true,
      country_code: country === undefined ? null : countryText(country),
      asn: knownAsn,
      as_org: knownAsn === null ? null : (data.asnOrgs.get(knownAsn) ?? null),
      hosting: knownAsn !== null && hosting.has(knownAsn),
      known_proxy,
    };
  }

  return {
    describe,
    info: {
      loadMs: data?.loadMs ?? 0,
      files: data?.files ?? null,
      rows: {
        countryV4: data?.countryV4.length ?? 0,
        countryV6: data?.countryV6.length ?? 0,
        asnV4: data?.asnV4.length ?? 0,
        asnV6: data?.asnV6.length ?? 0,
      },
      hostingAsnCount: hosting.size,
    },
  };
}

/**
 * Offline IP intelligence: country from DB-IP's country table, is_vpn from the address's AS
 * (a curated hosting/VPN list plus organisation-name patterns), is_proxy from forwarding headers
 * we did not expect and from `proxyAddresses`. The data is loaded synchronously here, once;
 * `lookup` is synchronous, allocation-light and never throws.
 */
export function createIpIntel(options: IpIntelOptions = {}): IpIntel {
  const directory = createIpDirectory(options);
  return {
    lookup(ip, headers, trustProxy) {
      let viaHeaders = false;
      try {
        viaHeaders = hasProxyHeaders(headers, trustProxy);
        const details = directory.describe(ip);
        return { country_code: details.country_code, is_vpn: details.hosting, is_proxy: viaHeaders || details.known_proxy };
      } catch {
        return { country_code: null, is_vpn: false, is_proxy: viaHeaders };
      }
    },
  };
}
