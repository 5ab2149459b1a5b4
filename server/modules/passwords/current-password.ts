import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import type { AppError } from '../../errors.js';
import { fitsBcrypt } from '../../lib/passwords.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { realmKey } from '../realms/realm.js';
import { verifyAccountPassword } from './password-check.js';

/**
 * Checks a signed-in account's current password (change of password, account deletion). bcrypt is the
 * expensive part, so it is limited like sign-in: per client network, and 5 wrong answers per account
 * charged before hashing (a parallel burst counts in full), refunded when the password is right.
 */
export async function checkCurrentPassword(deps: Deps, user: UserRow, password: string, request: RequestInfo, whenWrong: AppError): Promise<void> {
  const realm = { projectId: user.project_id };
  await deps.limiters.passwordCheckPerIp.consume(realmKey(realm, request.network));
  const account = realmKey(realm, user.id);
  await deps.limiters.wrongCurrentPasswordPerAccount.consume(account);
  const right = fitsBcrypt(password) && (await verifyAccountPassword(deps, user, password));
  if (!right) throw whenWrong;
  await deps.limiters.wrongCurrentPasswordPerAccount.refund(account);
}
