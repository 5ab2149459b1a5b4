import type { Role, User } from '../../../shared/schemas/user.js';
import type { Deps } from '../../deps.js';
import type { UserRow, UserUpdate } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { normalizeEmail } from '../../lib/email.js';
import { toUser } from './user.mapper.js';
import { deleteUserAndHistory, findUserById, listPlatformAdmins, setPlatformRoleByEmail, updateUser } from './users.repo.js';

/** Accounts as the other areas (profile, monitoring, the CLI) see them; the account core (auth) uses the repo itself. */

export const USER_NOT_FOUND = 'User not found';

export async function findUser(deps: Pick<Deps, 'db'>, id: string): Promise<UserRow | undefined> {
  return findUserById(deps.db, id);
}

/** Applies `changes` (updated_at is set here) and answers the account as it now is. */
export async function changeUser(deps: Pick<Deps, 'db' | 'clock'>, id: string, changes: Omit<UserUpdate, 'updated_at'>): Promise<UserRow> {
  const updated = await updateUser(deps.db, id, { ...changes, updated_at: isoNow(deps.clock) });
  if (!updated) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  return updated;
}

export async function deleteUser(deps: Pick<Deps, 'db'>, id: string): Promise<void> {
  await deleteUserAndHistory(deps.db, id);
}

/** For the `npm run admin` CLI. */
export async function setRoleByEmail(deps: Pick<Deps, 'db' | 'clock'>, email: string, role: Role): Promise<User> {
  const user = await setPlatformRoleByEmail(deps.db, email, role, isoNow(deps.clock));
  if (!user) throw new AppError('NOT_FOUND', `No account with the e-mail ${normalizeEmail(email)}`);
  return toUser(user);
}

export async function listAdmins(deps: Pick<Deps, 'db'>): Promise<User[]> {
  return (await listPlatformAdmins(deps.db)).map(toUser);
}
