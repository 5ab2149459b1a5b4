import dns from 'node:dns';
import { SSO_DOMAIN_TXT_PREFIX, SSO_DOMAIN_TXT_VALUE_PREFIX } from '../../../shared/schemas/sso.js';

export function txtRecordNameOf(domain: string): string {
  return `${SSO_DOMAIN_TXT_PREFIX}.${domain}`;
}

export function txtRecordValueOf(token: string): string {
  return `${SSO_DOMAIN_TXT_VALUE_PREFIX}${token}`;
}

/** Whether the domain publishes our TXT record with this token (a record's strings joined, as DNS splits long ones). */
export async function hasVerificationRecord(domain: string, token: string, resolve: (name: string) => Promise<string[][]> = (name) => dns.promises.resolveTxt(name)): Promise<boolean> {
  try {
    const records = await resolve(txtRecordNameOf(domain));
    return records.some((parts) => parts.join('') === txtRecordValueOf(token));
  } catch {
    // NXDOMAIN, no TXT, a DNS server away: not proven (yet).
    return false;
  }
}
