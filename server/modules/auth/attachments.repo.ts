import type { Db } from '../../db/connect.js';
import type { SocialProvider } from '../../../shared/schemas/social.js';
import { inTransaction } from '../../db/transaction.js';
import { deletePasskeysOf } from '../passkeys/passkeys.repo.js';
import { removeSecondFactors } from '../mfa/mfa.repo.js';
import { expireOneTimeTokens } from './one-time-tokens.repo.js';

/**
 * What is attached to an account besides its password: the ways in and locks someone could have added
 * (passkeys, an authenticator app with its recovery codes, providers' identities) and a change of
 * address waiting for its link. A proof of the address that did not come from whoever set them up
 * (the owner's own sign-up link, a reset link, a mailed provider link) removes them.
 */
export interface Attachments {
  passkeys: string[];
  /** An authenticator app on, or one being set up. */
  secondFactor: boolean;
  identities: SocialProvider[];
  pendingAddressChanges: number;
}

export async function listAttachments(db: Db, userId: string, now: string): Promise<Attachments> {
  const passkeys = await db.selectFrom('passkeys').select('name').where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  const user = await db.selectFrom('users').select(['totp_secret', 'totp_pending_secret']).where('id', '=', userId).executeTakeFirst();
  const identities = await db.selectFrom('user_identities').select('provider').where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  const changes = await db
    .selectFrom('one_time_tokens')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('purpose', '=', 'change_email')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return {
    passkeys: passkeys.map((row) => row.name),
    secondFactor: user !== undefined && (user.totp_secret !== null || user.totp_pending_secret !== null),
    identities: identities.map((row) => row.provider),
    pendingAddressChanges: Number(changes.count),
  };
}

/** Passkeys (and their ceremonies in flight) and providers' identities: what a password reset ends unless the owner keeps them. */
export async function removePasskeysAndIdentities(db: Db, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await deletePasskeysOf(trx, userId);
    await trx.deleteFrom('webauthn_challenges').where('user_id', '=', userId).execute();
    await trx.deleteFrom('user_identities').where('user_id', '=', userId).execute();
  });
}

/** Everything attached: passkeys, identities, the authenticator app with its recovery codes and waiting sign-ins, pending changes of address. */
export async function removeAllAttachments(db: Db, userId: string, now: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await removePasskeysAndIdentities(trx, userId);
    await removeSecondFactors(trx, userId, now);
    await expireOneTimeTokens(trx, userId, 'change_email', now);
  });
}
