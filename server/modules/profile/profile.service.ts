import type { z } from 'zod';
import type { DeleteAccountInputSchema, UpdateEndUserProfileInputSchema } from '../../../shared/schemas/auth.js';
import { MESSAGES } from '../../../shared/messages.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { recordChange } from '../changes/record-change.js';
import { checkCurrentPassword } from '../passwords/current-password.js';
import { leaveAllProjects } from '../projects/projects.service.js';
import { endIdleSessions, type Authenticated } from '../sessions/sessions.service.js';
import { requireRecentProof } from '../sessions/step-up.js';
import { changeUser, deleteUser } from '../users/users.service.js';
import { emitUserUpdated, userDeletedEvent } from '../webhooks/account-events.js';

const flag = (value: boolean) => (value ? 1 : 0);

/** Names and preferences only: the e-mail address changes through a link mailed to the new one (auth). */
export async function updateProfile(deps: Deps, user: UserRow, input: z.output<typeof UpdateEndUserProfileInputSchema>): Promise<UserRow> {
  const timeout = input.session_idle_timeout_minutes;
  if (timeout !== undefined && timeout !== user.session_idle_timeout_minutes) await endIdleSessions(deps, user);
  const updated = await withTransaction(deps, async (tx) => {
    const after = await changeUser(tx, user.id, {
      ...(input.first_name !== undefined && { first_name: input.first_name }),
      ...(input.last_name !== undefined && { last_name: input.last_name }),
      ...(input.login_notifications !== undefined && { login_notifications: input.login_notifications ? 1 : 0 }),
      ...(timeout !== undefined && { session_idle_timeout_minutes: timeout }),
      ...(input.email_notifications !== undefined && { email_notifications: flag(input.email_notifications) }),
      ...(input.notify_security_alerts !== undefined && { notify_security_alerts: flag(input.notify_security_alerts) }),
      ...(input.notify_product_updates !== undefined && { notify_product_updates: flag(input.notify_product_updates) }),
      ...(input.notify_marketing !== undefined && { notify_marketing: flag(input.notify_marketing) }),
      ...(input.locale !== undefined && { locale: input.locale }),
      ...(input.unsafe_metadata !== undefined && { unsafe_metadata: JSON.stringify(input.unsafe_metadata) }),
    });
    await emitUserUpdated(tx, user, after);
    return after;
  });
  return updated;
}

/**
 * Deletes the signed-in account for good, once its current password is given or, without one, after a
 * recent step-up (a session alone is not enough), in one transaction: the projects it is the only owner of, with their end users, keys and
 * analytics (shared projects pass to another owner), its sessions, devices and tokens (foreign keys),
 * and its login history. A project's end user deleting theirs sends user.deleted to the project's
 * webhooks in the same transaction; the audit log records it with the account as the actor.
 */
export async function deleteAccount(
  deps: Deps,
  auth: Authenticated,
  input: z.output<typeof DeleteAccountInputSchema>,
  request: RequestInfo,
): Promise<{ message: string }> {
  const { user } = auth;
  if (input.password === undefined) await requireRecentProof(deps, auth);
  else await checkCurrentPassword(deps, user, input.password, request, new AppError('UNAUTHORIZED', 'Incorrect password'));
  await withTransaction(deps, async (tx) => {
    if (user.project_id === null) await leaveAllProjects(tx, user.id);
    await deleteUser(tx, user.id);
    await recordChange(tx, { user, info: request }, { projectId: user.project_id, action: 'user.deleted', target: { type: 'user', id: user.id, label: user.email }, event: userDeletedEvent(user, 'user') });
  });
  return { message: MESSAGES.accountDeleted };
}
