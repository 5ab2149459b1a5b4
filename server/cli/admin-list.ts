import type { User } from '../../shared/schemas/user.js';

/** What `npm run admin -- list` prints: each admin, marked when the role is inert until verification. */
export function formatAdminList(admins: readonly User[], listedInConfig: readonly string[]): string {
  const lines = admins.length
    ? admins.map((admin) => (admin.is_verified ? admin.email : `${admin.email} (inactive until the e-mail address is verified)`))
    : ['No admins yet.'];
  const notSignedUp = listedInConfig.filter((email) => !admins.some((admin) => admin.email === email));
  if (notSignedUp.length) lines.push(`Listed in ADMIN_EMAILS, not signed up yet: ${notSignedUp.join(', ')}`);
  return lines.join('\n');
}
