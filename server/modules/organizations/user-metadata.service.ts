import type { z } from 'zod';
import { ORGANIZATION_MESSAGES, type EndUser, type UpdateUserMetadataInputSchema } from '../../../shared/schemas/organizations.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { parseMetadata } from '../../lib/metadata.js';
import { changedFields, recordChange, type AuditActor } from '../changes/record-change.js';
import { toEndUserProfile } from '../users/user.mapper.js';
import { findUserById } from '../users/users.repo.js';
import { changeUser } from '../users/users.service.js';
import { userUpdatedEvent } from '../webhooks/account-events.js';

/** An end user of the project as its backend reads them, private metadata included; 404 for anyone else's. */
export function toEndUser(row: UserRow): EndUser {
  return { ...toEndUserProfile(row), private_metadata: parseMetadata(row.private_metadata) };
}

/** One of the project's end users; 404 for anyone else (another project's, or the platform's). */
export async function requireEndUser(deps: Pick<Deps, 'db'>, projectId: string, userId: string): Promise<UserRow> {
  const user = await findUserById(deps.db, userId);
  if (!user || user.project_id !== projectId) throw new AppError('NOT_FOUND', ORGANIZATION_MESSAGES.userNotFound);
  return user;
}

export async function getEndUser(deps: Deps, projectId: string, userId: string): Promise<EndUser> {
  return toEndUser(await requireEndUser(deps, projectId, userId));
}

/** Replaces each metadata object given; public metadata reaches the user's tokens at their next refresh. */
export async function updateUserMetadata(deps: Deps, projectId: string, actor: AuditActor, userId: string, input: z.output<typeof UpdateUserMetadataInputSchema>): Promise<EndUser> {
  return withTransaction(deps, async (tx) => {
    const before = await requireEndUser(tx, projectId, userId);
    const after = await changeUser(tx, userId, {
      ...(input.public_metadata !== undefined && { public_metadata: JSON.stringify(input.public_metadata) }),
      ...(input.private_metadata !== undefined && { private_metadata: JSON.stringify(input.private_metadata) }),
      ...(input.unsafe_metadata !== undefined && { unsafe_metadata: JSON.stringify(input.unsafe_metadata) }),
    });
    const metadataOf = (row: UserRow) => ({ public_metadata: parseMetadata(row.public_metadata), private_metadata: parseMetadata(row.private_metadata), unsafe_metadata: parseMetadata(row.unsafe_metadata) });
    const diff = changedFields(metadataOf(before), metadataOf(after));
    if (Object.keys(diff.after).length > 0) {
      await recordChange(tx, actor, { projectId, action: 'user.metadata_updated', target: { type: 'user', id: userId, label: after.email }, ...diff, event: userUpdatedEvent(before, after) });
    }
    return toEndUser(after);
  });
}
