import type { z } from 'zod';
import type { UpdateProfileInputSchema } from '../../../shared/schemas/auth.js';
import type { User } from '../../../shared/schemas/user.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { toUser } from '../users/user.mapper.js';
import { updateUser } from '../users/users.repo.js';
import { MESSAGES } from '../../../shared/messages.js';
import { deleteProjectCascade } from '../projects/projects.repo.js';

/** Names only: the e-mail is the account's identity and cannot be changed here. */
export async function updateProfile(deps: Deps, user: UserRow, input: z.output<typeof UpdateProfileInputSchema>): Promise<User> {
  const updated = await updateUser(deps.db, user.id, {
    ...(input.first_name !== undefined && { first_name: input.first_name }),
    ...(input.last_name !== undefined && { last_name: input.last_name }),
    ...(input.login_notifications !== undefined && { login_notifications: input.login_notifications ? 1 : 0 }),
    updated_at: isoNow(deps.clock),
  });
  if (!updated) throw new AppError('NOT_FOUND', 'User not found');
  return toUser(updated);
}

/**
 * Deletes the signed-in account for good: its projects with their end users, keys and analytics,
 * its sessions, devices and tokens (foreign keys), and its login history.
 */
export async function deleteAccount(deps: Deps, user: UserRow): Promise<{ message: string }> {
  const projects = await deps.db.selectFrom('projects').select('id').where('owner_id', '=', user.id).execute();
  for (const project of projects) await deleteProjectCascade(deps.db, project.id);
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('login_attempts').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
  });
  return { message: MESSAGES.accountDeleted };
}
