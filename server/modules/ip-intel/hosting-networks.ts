/**
 * Which networks count as "hosting / datacenter / VPN" for the is_vpn flag.
 *
 * How this list was made (November 2026): we started from the providers people usually rent servers or
 * VPN exits from — the big clouds, the VPS and dedicated-server hosts that VPN companies are known to
 * rent from, and the AS numbers that VPN companies announce themselves — and looked each one up by
 * organisation name in the AS table we ship (@ip-location-db/asn 2.3.2026061719). Every number
 * below is one that table names as that organisation; the comment after it is the name it gives.
 * We left out networks whose addresses are mostly people at home, at work or on a phone, even when the
 * same company also sells hosting (e.g. Orange, Deutsche Telekom, 1&1 Versatel, NordNet, Google Fiber),
 * and corporate or CDN networks that end users do not browse from (e.g. Akamai's CDN ASNs, Equinix
 * interconnection ASNs, Oracle's corporate ASNs).
 *
 * Privacy relays are on the list on purpose: Cloudflare WARP and iCloud Private Relay exits sit in
 * Cloudflare (13335), Akamai (36183) and Fastly (54113) address space; a login through them hides where
 * the user is, which is what is_vpn reports. Whether that blocks anybody is the login policy's choice.
 *
 * Networks not listed are still flagged when their organisation name says hosting (see
 * HOSTING_ORG_PATTERNS). To add a provider: find its AS numbers by name in the shipped data
 * (`grep -i NAME node_modules/@ip-location-db/asn/asn-ipv4.csv`) and add them with the name as comment.
 */
export const HOSTING_ASNS: ReadonlyMap<number, string> = new Map<number, string>([
  // Amazon Web Services
  [7224, 'Amazon.com, Inc.'],
  [8987, 'Amazon Data Services Ireland Ltd'],
  [9059, 'Amazon Data Services Ireland Ltd'],
  [14618, 'Amazon.com, Inc.'],
  [16509, 'Amazon.com, Inc.'],
  [38895, 'Amazon.com Tech Telecom'],
  [62785, 'Amazon.com Services, LLC'],
  [214101, 'Amazon Data Services European Sovereign Cloud GmbH'],
  // Google Cloud (15169 announces Google Cloud ranges too; people do not browse from it)
  [15169, 'Google LLC'],
  [19527, 'Google LLC'],
  [139070, 'Google Asia Pacific Pte. Ltd.'],
  [139190, 'Google Asia Pacific Pte. Ltd.'],
  [214609, 'Google Cloud EMEA Ltd'],
  [214611, 'Google Cloud EMEA Ltd'],
  [396982, 'Google LLC (Google Cloud)'],
  // Microsoft Azure
  [8068, 'Microsoft Corporation'],
  [8069, 'Microsoft Corporation'],
  [8075, 'Microsoft Corporation'],
  [12076, 'Microsoft Corporation'],
  [200517, 'Microsoft Deutschland MCIO GmbH'],
  // Oracle Cloud
  [31898, 'Oracle Corporation (Oracle Cloud Infrastructure)'],
  // IBM Cloud (SoftLayer)
  [36351, 'IBM Cloud'],
  // Alibaba Cloud
  [37963, 'Hangzhou Alibaba Advertising Co.,Ltd.'],
  [45102, 'Alibaba (US) Technology Co., Ltd.'],
  [134963, 'Alibaba Cloud (Singapore) Private Limited'],
  // Tencent Cloud
  [132203, 'Shenzhen Tencent Computer Systems Company Limited'],
  [133478, 'Tencent Cloud Computing (Beijing) Co., Ltd'],
  // Huawei Cloud
  [55990, 'Huawei Cloud Service data center'],
  // DigitalOcean
  [14061, 'DigitalOcean, LLC'],
  [46652, 'DigitalOcean, LLC'],
  [393406, 'DigitalOcean, LLC'],
  // OVHcloud
  [16276, 'OVH SAS'],
  // Hetzner
  [24940, 'Hetzner Online GmbH'],
  [212317, 'Hetzner Online GmbH'],
  [213230, 'Hetzner Online GmbH'],
  [215859, 'Hetzner Online GmbH'],
  // Linode / Akamai Connected Cloud
  [48337, 'Linode, LLC'],
  [63949, 'Akamai Technologies, Inc. (Linode)'],
  // Vultr / Choopa / The Constant Company
  [20473, 'The Constant Company, LLC'],
  [46407, 'The Constant Company, LLC'],
  [54094, 'The Constant Company, LLC'],
  // M247 (rents to most commercial VPNs)
  [9009, 'M247 Europe SRL'],
  [16247, 'M247 UK Ltd'],
  [33970, 'M247 Ltd'],
  [42973, 'M247 UK Ltd'],
  [51332, 'M247 Europe SRL'],
  // Datacamp / CDN77
  [60068, 'Datacamp Limited'],
  [211612, 'Datacamp Limited'],
  [212238, 'Datacamp Limited'],
  // Leaseweb
  [7203, 'Leaseweb USA, Inc.'],
  [16265, 'LeaseWeb Network B.V.'],
  [19148, 'Leaseweb USA, Inc.'],
  [27411, 'Leaseweb USA, Inc.'],
  [28753, 'Leaseweb Deutschland GmbH'],
  [30633, 'Leaseweb USA, Inc.'],
  [32613, 'Leaseweb Canada Inc.'],
  [38930, 'LeaseWeb Network B.V.'],
  [59253, 'LEASEWEB SINGAPORE PTE. LTD.'],
  [60626, 'LeaseWeb LeaseWeb Network B.V.'],
  [60781, 'LeaseWeb Netherlands B.V.'],
  [133752, 'LEASEWEB HONG KONG LIMITED'],
  [134351, 'Leaseweb Japan K.K.'],
  [136988, 'LEASEWEB AUSTRALIA PTY LIMITED'],
  [205544, 'LEASEWEB UK LIMITED'],
  [393886, 'Leaseweb USA, Inc.'],
  [394380, 'Leaseweb USA, Inc.'],
  [395954, 'Leaseweb USA, Inc.'],
  [396190, 'Leaseweb USA, Inc.'],
  [396362, 'Leaseweb USA, Inc.'],
  // Contabo
  [40021, 'Contabo Inc.'],
  [51167, 'Contabo GmbH'],
  [141995, 'Contabo Asia Private Limited'],
  // Scaleway
  [12876, 'Scaleway SAS'],
  [29447, 'SCALEWAY S.A.S.'],
  [54265, 'SCALEWAY US CORPORATION'],
  [202023, 'SCALEWAY S.A.S.'],
  // Other VPS, dedicated-server and colocation hosts common among VPN exits and bots
  [3214, 'xTom GmbH'],
  [7979, 'Servers.com, Inc.'],
  [8100, 'QuadraNet Enterprises LLC'],
  [8315, 'WorldStream B.V.'],
  [8560, 'IONOS SE'],
  [9123, 'JSC "TIMEWEB"'],
  [12200, 'Rackspace Hosting'],
  [19994, 'Rackspace Hosting'],
  [27357, 'Rackspace Hosting'],
  [33070, 'Rackspace Hosting'],
  [21859, 'Zenlayer Inc'],
  [22612, 'Namecheap, Inc.'],
  [25697, 'UpCloud USA Inc'],
  [202053, 'UpCloud Ltd'],
  [26496, 'GoDaddy.com, LLC'],
  [32244, 'Liquid Web, L.L.C'],
  [35913, 'DediPath'],
  [36007, 'Kamatera, Inc.'],
  [40676, 'Psychz Networks'],
  [43350, 'NForce Entertainment B.V.'],
  [46562, 'Performive LLC'],
  [47583, 'Hostinger International Limited'],
  [49505, 'JSC Selectel'],
  [50673, 'Serverius Holding B.V.'],
  [53667, 'FranTech Solutions (BuyVM)'],
  [57043, 'HOSTKEY B.V.'],
  [59245, 'G-Core Labs S.A'],
  [199524, 'G-Core Labs S.A.'],
  [62240, 'Clouvider Limited'],
  [63023, 'GTHost'],
  [197540, 'netcup GmbH'],
  [202425, 'IP Volume inc'],
  [210644, 'AEZA INTERNATIONAL LTD'],
  [40509, 'Fly.io, Inc.'],
  [397273, 'Render'],
  // VPN providers' own networks
  [39351, '31173 Services AB (Mullvad)'],
  [49399, '31173 Services AB (Mullvad)'],
  [214813, '31173 Services AB (Mullvad)'],
  [216025, 'Mullvad VPN AB'],
  [62371, 'Proton AG'],
  [199218, 'Proton AG'],
  [208172, 'Proton AG'],
  [209103, 'Proton AG'],
  [136787, 'PacketHub S.A. (NordVPN)'],
  [141039, 'PacketHub S.A. (NordVPN)'],
  [147049, 'PacketHub S.A. (NordVPN)'],
  [207137, 'PacketHub S.A. (NordVPN)'],
  [272096, 'PACKETHUB S.A. (NordVPN)'],
  [203619, 'IVPN Limited'],
  [397540, 'Windscribe'],
  [199156, 'StackPath LLC (IPVanish)'],
  // Privacy relays (Cloudflare WARP, iCloud Private Relay)
  [13335, 'Cloudflare, Inc.'],
  [36183, 'Akamai Technologies, Inc. (iCloud Private Relay)'],
  [54113, 'Fastly, Inc.'],
]);

/**
 * Organisation names that say "we rent out servers". Matched against the AS organisation name
 * when the AS number is not in HOSTING_ASNS. Kept narrow on purpose: a bare "cloud", "host" or
 * "colo" also names many small access ISPs ("Cloud 9 Wireless", "Host Telecom"), so those only count
 * together with a word that means hosting.
 */
export const HOSTING_ORG_PATTERNS: readonly RegExp[] = [
  /\b(web ?)?hosting\b/i,
  /\bhoster\b/i,
  /\bdata ?-?cent(er|re)s?\b/i,
  /\bdedicated servers?\b/i,
  /\b(vps|vds)\b/i,
  /\bvpn\b/i,
  /\bcolocation\b/i,
  /\bserver ?farm\b/i,
  /\bbulletproof\b/i,
  /\bprox(y|ies)\b/i,
  /\bcloud (computing|services?|infrastructure|hosting|servers?|platform)\b/i,
];

/**
 * Names that say "we connect homes, offices or phones": a network whose name matches one of these is
 * not flagged by a pattern alone (it still is when its number is listed above), because a telecom that
 * also runs a data centre mostly carries end users.
 */
export const ACCESS_ISP_PATTERNS: readonly RegExp[] = [
  /\b(tele(com|kom|communications?|comunica\w*)\w*|broadband|cable|wireless|mobile|fib(er|re)|communications?|isp|provedor|internet exchange)\b/i,
];

/** The hosting verdict for one AS, given its number and organisation name. */
export function isHostingNetwork(
  asn: number,
  org: string | undefined,
  asns: ReadonlySet<number> | ReadonlyMap<number, unknown> = HOSTING_ASNS,
  patterns: readonly RegExp[] = HOSTING_ORG_PATTERNS,
): boolean {
  if (asns.has(asn)) return true;
  if (!org || patterns.length === 0) return false;
  if (!patterns.some((re) => re.test(org))) return false;
  return !ACCESS_ISP_PATTERNS.some((re) => re.test(org));
}
