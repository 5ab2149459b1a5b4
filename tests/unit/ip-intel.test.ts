import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOSTING_ASNS, isHostingNetwork } from '../../server/modules/ip-intel/hosting-networks.js';
import { isNonPublic, parseIp } from '../../server/modules/ip-intel/ip-address.js';
import { loadIpData } from '../../server/modules/ip-intel/ip-data.js';
import {
  createIpDirectory,
  createIpIntel,
  hasProxyHeaders,
  ipDataFilesIn,
  type IpDirectory,
  type IpIntel,
} from '../../server/modules/ip-intel/ip-intel.js';

// Expected values are what the shipped data says (@ip-location-db/dbip-country 2.3.2026060120,
// @ip-location-db/asn 2.3.2026061719); a data bump that moves one of these addresses shows up here.

let intel: IpIntel;
let directory: IpDirectory;

beforeAll(() => {
  directory = createIpDirectory();
  intel = createIpIntel();
});

const NO_HEADERS = {};

describe('hosting, cloud and VPN networks', () => {
  it.each([
    ['3.80.12.34', 'US', 14618, 'AWS EC2 us-east-1'],
    ['52.28.0.10', 'DE', 16509, 'AWS EC2 eu-central-1'],
    ['2600:1f18:1::1', 'US', 14618, 'AWS EC2 IPv6'],
    ['34.140.10.20', 'BE', 396982, 'Google Cloud europe-west1'],
    ['35.190.20.30', 'US', 396982, 'Google Cloud'],
    ['104.131.20.30', 'US', 14061, 'DigitalOcean'],
    ['2604:a880:800:10::1', 'US', 14061, 'DigitalOcean IPv6'],
    ['88.198.20.30', 'DE', 24940, 'Hetzner'],
    ['65.21.20.30', 'FI', 24940, 'Hetzner Finland'],
    ['2a01:4f8:c0c:1::1', 'DE', 24940, 'Hetzner IPv6'],
    ['20.50.10.1', 'NL', 8075, 'Microsoft Azure'],
    ['45.32.10.10', 'JP', 20473, 'Vultr'],
    ['193.32.249.130', 'NL', 39351, 'Mullvad'],
  ])('%s is flagged is_vpn in %s (AS%s, %s)', (ip, country, asn) => {
    expect(intel.lookup(ip, NO_HEADERS, false)).toEqual({ country_code: country, is_vpn: true, is_proxy: false });
    expect(directory.describe(ip)).toMatchObject({ asn, hosting: true, public: true });
  });
});

describe('home and mobile ISPs', () => {
  it.each([
    ['73.15.20.30', 'US', 7922, 'Comcast'],
    ['98.200.12.34', 'US', 7922, 'Comcast'],
    ['2601:600::1', 'US', 7922, 'Comcast IPv6'],
    ['79.192.20.30', 'DE', 3320, 'Deutsche Telekom'],
    ['2003:e0::1', 'DE', 3320, 'Deutsche Telekom IPv6'],
    ['86.128.20.30', 'GB', 2856, 'BT'],
    ['2a00:23c0::1', 'GB', 5400, 'BT IPv6'],
    ['90.12.34.56', 'FR', 3215, 'Orange'],
    ['2a01:cb00:10::1', 'FR', 5511, 'Orange IPv6'],
  ])('%s is not flagged and is in %s (AS%s, %s)', (ip, country, asn) => {
    expect(intel.lookup(ip, NO_HEADERS, false)).toEqual({ country_code: country, is_vpn: false, is_proxy: false });
    expect(directory.describe(ip)).toMatchObject({ asn, hosting: false });
  });
});

describe('addresses no dataset can place', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.10',
    '100.64.0.1', // CGNAT
    '100.127.255.254',
    '169.254.169.254', // link-local (cloud metadata)
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.15', // documentation
    '198.51.100.7',
    '203.0.113.9',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fd12:3456:789a::1', // unique local
    'ff02::1',
    '2001:db8::1', // documentation
    '::ffff:127.0.0.1', // IPv4-mapped loopback
    '::ffff:10.0.0.1',
    '::FFFF:192.168.0.1',
    '::ffff:7f00:1', // the same, in hex
    '2002:c0a8:0101::1', // 6to4 of 192.168.1.1
  ])('%s answers no country, no VPN', (ip) => {
    expect(intel.lookup(ip, NO_HEADERS, false)).toEqual({ country_code: null, is_vpn: false, is_proxy: false });
    expect(directory.describe(ip).public).toBe(false);
  });

  it.each([
    '',
    ' ',
    'garbage',
    'localhost',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.4:8080',
    '1.2.3.4/24',
    '::1::1',
    '12345::1',
    'g::1',
    '[::1',
    '2001:db8::1'.repeat(20),
    '\u0000',
  ])('malformed %j answers the safe verdict and does not throw', (ip) => {
    expect(intel.lookup(ip, NO_HEADERS, false)).toEqual({ country_code: null, is_vpn: false, is_proxy: false });
    expect(intel.lookup(ip, { 'x-forwarded-for': '1.2.3.4' }, false)).toEqual({ country_code: null, is_vpn: false, is_proxy: true });
  });

  it('survives inputs of the wrong type', () => {
    for (const bad of [undefined, null, 42, {}, []] as unknown[]) {
      expect(intel.lookup(bad as string, NO_HEADERS, false)).toEqual({ country_code: null, is_vpn: false, is_proxy: false });
      expect(intel.lookup('8.8.8.8', bad as Record<string, string>, false).country_code).toBe('US');
    }
  });

  it('private addresses keep the header signal', () => {
    expect(intel.lookup('192.168.1.10', { via: '1.1 proxy' }, false)).toEqual({ country_code: null, is_vpn: false, is_proxy: true });
    expect(intel.lookup('192.168.1.10', { via: '1.1 proxy' }, true)).toEqual({ country_code: null, is_vpn: false, is_proxy: false });
  });
});

describe('address normalisation', () => {
  it('IPv4-mapped IPv6 answers like the IPv4 address', () => {
    expect(intel.lookup('::ffff:88.198.20.30', NO_HEADERS, false)).toEqual(intel.lookup('88.198.20.30', NO_HEADERS, false));
    expect(intel.lookup('::ffff:4fc0:141e', NO_HEADERS, false)).toEqual({ country_code: 'DE', is_vpn: false, is_proxy: false }); // 79.192.20.30
    expect(directory.describe('::ffff:73.15.20.30').address).toBe('73.15.20.30');
  });

  it('6to4 answers like the embedded IPv4 address', () => {
    expect(directory.describe('2002:58c6:141e::1')).toMatchObject({ address: '88.198.20.30', country_code: 'DE', hosting: true });
  });

  it('tolerates brackets, spaces and upper-case hex', () => {
    expect(intel.lookup('[2A01:4F8:C0C:1::1]', NO_HEADERS, false)).toEqual({ country_code: 'DE', is_vpn: true, is_proxy: false });
    expect(intel.lookup(' 73.15.20.30 ', NO_HEADERS, false).country_code).toBe('US');
    expect(intel.lookup('73.15.20.30\n', NO_HEADERS, false).country_code).toBe('US');
  });

  it('parses and classifies addresses', () => {
    expect(parseIp('1.2.3.4')).toEqual({ v: 4, n: 0x01020304 });
    expect(parseIp('::ffff:1.2.3.4')).toEqual({ v: 4, n: 0x01020304 });
    const v6 = parseIp('2001:4860:4860::8888');
    expect(v6?.v).toBe(6);
    expect(v6 && v6.v === 6 ? [...v6.w] : null).toEqual([0x20014860, 0x48600000, 0, 0x8888]);
    expect(isNonPublic(parseIp('100.63.255.255')!)).toBe(false);
    expect(isNonPublic(parseIp('100.128.0.0')!)).toBe(false);
    expect(isNonPublic(parseIp('100.64.0.0')!)).toBe(true);
    expect(isNonPublic(parseIp('4000::1')!)).toBe(true); // outside global unicast 2000::/3
  });
});

describe('proxy signals', () => {
  it.each(['x-forwarded-for', 'forwarded', 'via', 'x-real-ip', 'true-client-ip'])('%s is a proxy signal unless we trust proxies', (header) => {
    const headers = { [header]: '203.0.113.5' };
    expect(hasProxyHeaders(headers, false)).toBe(true);
    expect(hasProxyHeaders(headers, true)).toBe(false);
    expect(intel.lookup('73.15.20.30', headers, false)).toEqual({ country_code: 'US', is_vpn: false, is_proxy: true });
    expect(intel.lookup('73.15.20.30', headers, true)).toEqual({ country_code: 'US', is_vpn: false, is_proxy: false });
  });

  it('ordinary headers are no proxy signal', () => {
    const headers = { 'user-agent': 'Mozilla/5.0', accept: '*/*', 'x-forwarded-proto': undefined };
    expect(hasProxyHeaders(headers, false)).toBe(false);
    expect(intel.lookup('88.198.20.30', headers, false)).toEqual({ country_code: 'DE', is_vpn: true, is_proxy: false });
  });

  it('a supplied proxy list (e.g. Tor exits) marks those addresses, in any spelling', () => {
    const withList = createIpIntel({ proxyAddresses: ['185.220.101.1', '2a0b:f4c2::1', 'not an address'] });
    expect(withList.lookup('185.220.101.1', NO_HEADERS, true).is_proxy).toBe(true);
    expect(withList.lookup('::ffff:185.220.101.1', NO_HEADERS, true).is_proxy).toBe(true);
    expect(withList.lookup('2a0b:f4c2:0::1', NO_HEADERS, true).is_proxy).toBe(true);
    expect(withList.lookup('185.220.101.2', NO_HEADERS, true).is_proxy).toBe(false);
  });
});

describe('options', () => {
  it('data: false loads nothing and places nobody', () => {
    const bare = createIpIntel({ data: false });
    expect(bare.lookup('88.198.20.30', NO_HEADERS, false)).toEqual({ country_code: null, is_vpn: false, is_proxy: false });
    expect(bare.lookup('88.198.20.30', { via: 'x' }, false).is_proxy).toBe(true);
  });

  it('the hosting list and name patterns can be replaced', () => {
    const none = createIpIntel({ hostingAsns: [], hostingOrgPatterns: [] });
    expect(none.lookup('88.198.20.30', NO_HEADERS, false)).toEqual({ country_code: 'DE', is_vpn: false, is_proxy: false });
    const comcast = createIpIntel({ hostingAsns: [7922], hostingOrgPatterns: [] });
    expect(comcast.lookup('73.15.20.30', NO_HEADERS, false).is_vpn).toBe(true);
  });
});

describe('reading other data files', () => {
  it('reads numeric or dotted IPv4, textual or decimal IPv6, quoted names, CRLF and unsorted rows', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ip-data-'));
    try {
      const v6 = (text: string) => {
        const ip = parseIp(text);
        if (!ip || ip.v !== 6) throw new Error(text);
        return ((BigInt(ip.w[0]!) << 96n) | (BigInt(ip.w[1]!) << 64n) | (BigInt(ip.w[2]!) << 32n) | BigInt(ip.w[3]!)).toString();
      };
      const files = ipDataFilesIn(dir);
      writeFileSync(files.countryV4, '134744064,134744319,US\n16777216,16777471,au\n');
      writeFileSync(files.countryV6, '2001:4860::,2001:4860:ffff:ffff:ffff:ffff:ffff:ffff,US\n');
      writeFileSync(files.asnV4, '8.8.8.0,8.8.8.255,15169,"Google, ""LLC"""\r\n1.0.0.0,1.0.0.255,64500,Example Hosting Ltd\r\n');
      writeFileSync(files.asnV6, `${v6('2001:4860::')},${v6('2001:4860:ffff:ffff:ffff:ffff:ffff:ffff')},64501,Example Telecom`);
      const custom = createIpDirectory({ files });
      expect(custom.describe('8.8.8.8')).toMatchObject({ country_code: 'US', asn: 15169, as_org: 'Google, "LLC"', hosting: true });
      expect(custom.describe('1.0.0.1')).toMatchObject({ country_code: 'AU', asn: 64500, as_org: 'Example Hosting Ltd', hosting: true });
      expect(custom.describe('2001:4860::1')).toMatchObject({ country_code: 'US', asn: 64501, as_org: 'Example Telecom', hosting: false });
      expect(custom.describe('9.9.9.9')).toMatchObject({ public: true, country_code: null, asn: null, hosting: false });
      expect(custom.info.rows).toEqual({ countryV4: 2, countryV6: 1, asnV4: 2, asnV6: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the broken line of a malformed file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ip-data-'));
    try {
      const files = ipDataFilesIn(dir);
      writeFileSync(files.countryV4, '16777216,16777471,AU\nnot,a,range\n');
      for (const file of [files.countryV6, files.asnV4, files.asnV6]) writeFileSync(file, '');
      expect(() => createIpDirectory({ files })).toThrow(/dbip-country-ipv4-num\.csv:2: malformed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the hosting list', () => {
  it('names every listed AS as the shipped data does', () => {
    const { asnOrgs } = loadIpData();
    for (const [asn, label] of HOSTING_ASNS) expect(label.startsWith(asnOrgs.get(asn) ?? `AS${asn} missing`), `AS${asn}`).toBe(true);
  });

  it('flags hosting by name but not access ISPs whose name only sounds like it', () => {
    expect(isHostingNetwork(1, 'Example Web Hosting Ltd')).toBe(true);
    expect(isHostingNetwork(1, 'Joe\'s Datacenter, LLC')).toBe(true);
    expect(isHostingNetwork(1, 'Bullet Proof VPN Ltd')).toBe(true);
    expect(isHostingNetwork(1, 'Cloud 9 Wireless LLC')).toBe(false);
    expect(isHostingNetwork(1, 'HOST TELECOM LTD')).toBe(false);
    expect(isHostingNetwork(1, 'Ascenty Data Centers e Telecomunicacoes S/A')).toBe(false);
    expect(isHostingNetwork(7922, 'Comcast Cable Communications, LLC')).toBe(false);
    expect(isHostingNetwork(16509, undefined)).toBe(true);
  });
});

describe('speed', () => {
  it('answers 10,000 lookups well under a second', () => {
    const ips: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      ips.push(i % 4 === 0 ? `2a01:${(i * 7919 % 0xffff).toString(16)}::${i.toString(16)}` : `${(i * 37) % 223 + 1}.${(i * 13) % 256}.${(i * 7) % 256}.${i % 256}`);
    }
    const started = performance.now();
    for (const ip of ips) intel.lookup(ip, NO_HEADERS, false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('loaded the tables once and reports how', () => {
    expect(directory.info.rows.countryV4).toBeGreaterThan(100_000);
    expect(directory.info.rows.countryV6).toBeGreaterThan(100_000);
    expect(directory.info.rows.asnV4).toBeGreaterThan(100_000);
    expect(directory.info.rows.asnV6).toBeGreaterThan(50_000);
    expect(directory.info.hostingAsnCount).toBeGreaterThan(HOSTING_ASNS.size);
    const again = performance.now();
    createIpIntel();
    expect(performance.now() - again).toBeLessThan(500); // the parsed tables are shared
  });
});
