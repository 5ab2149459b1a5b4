import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { isoNow } from '../../lib/clock.js';
import { randomToken } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { queueAccountMail } from '../../mail/account-mail.js';
import { brandFor } from '../../mail/mail-brand.js';
import { mailTranslator } from '../../mail/mail-i18n.js';
import { accountSecuredMail } from '../../mail/templates.js';
import { handOverToProvenOwner, signUpWithProvider } from '../auth/auth.service.js';
import type { Realm } from '../realms/realm.js';
import { findUserByEmail, findUserById, updateUser } from '../users/users.repo.js';
import { emitWebhookEvent } from '../changes/webhook-outbox.js';

/**
 * The account of an address whose mailbox a code or magic link just proved. An address without one
 * gets a verified account with no password (the sign-up limits and user.created apply, as for a
 * provider's first sign-in). An unverified account was set up by whoever typed the address, not by its
 * owner: its password and every way in attached go, its sessions end, it becomes verified
 * (user.verified), and the owner is told what was removed.
 */
export async function accountOfProvenAddress(deps: Deps, realm: Realm, email: string, request: RequestInfo): Promise<UserRow> {
  const known = await findUserByEmail(deps.db, realm.projectId, email);
  if (!known) {
    const account = { email, emailVerified: true, firstName: null, lastName: null };
    const created = await signUpWithProvider(deps, realm, account, request, async () => {});
    if (created) return created;
    return (await findUserByEmail(deps.db, realm.projectId, email))!;
  }
  if (known.is_verified === 1) return known;
  const unknownPassword = await deps.passwords.hash(randomToken());
  return withTransaction(deps, async (tx) => {
    const account = (await findUserById(tx.db, known.id))!;
    if (account.is_verified === 1) return account;
    const now = isoNow(deps.clock);
    const brand = brandFor(realm.projectId, realm.policy.mail, account, request);
    const removed = await handOverToProvenOwner(tx, account, unknownPassword, now, mailTranslator(brand));
    const verified = (await updateUser(tx.db, account.id, { is_verified: 1, updated_at: now }))!;
    if (realm.projectId) await emitWebhookEvent(tx, realm.projectId, 'user.verified', { user: { id: account.id, email: account.email, is_verified: true } });
    if (removed.length > 0) await queueAccountMail(tx, verified, 'accountSecuredMail', accountSecuredMail(account.email, removed, brand));
    return verified;
  });
}
