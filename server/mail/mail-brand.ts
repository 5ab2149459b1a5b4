import type { MailBrand } from './branding.js';
import { inLocale, recipientLocale } from './locale.js';
import type { HeaderBag } from '../modules/ip-intel/ip-intel.js';

/**
 * A realm's mail brand in its recipient's language: the one they saved, else the language of the
 * request that sends the mail (mail/locale.ts). `brand`: the realm's (realm.policy.mail), or a project's.
 */
export function brandFor(
  projectId: string | null,
  brand: MailBrand,
  recipient: { locale?: string | null } | null | undefined,
  request?: { headers: HeaderBag } | null,
): MailBrand {
  return inLocale(brand, recipientLocale(projectId, recipient, request));
}
