import type { EndUserProfile } from '../../../shared/schemas/user.js';
import type { UserRow } from '../../db/schema.js';
import { toEndUserProfile } from '../users/user.mapper.js';
import { emitWebhookEvent, type EventWriter, type WebhookEvent } from '../changes/webhook-outbox.js';

/**
 * The events of a project's end user's account (user.updated, user.deleted, mfa.enabled, mfa.disabled),
 * written in the unit of work of the change (pass `tx`), or given to recordChange as the event of an
 * audited change. The platform's own accounts (developers and admins) have no project and send nothing.
 */

type Account = Pick<UserRow, 'id' | 'email' | 'project_id'>;

/** The account's fields a change can show in user.updated's `changed`, in the User's own names. */
const UPDATABLE: (keyof EndUserProfile)[] = [
  'email',
  'first_name',
  'last_name',
  'is_active',
  'is_verified',
  'login_notifications',
  'email_notifications',
  'notify_security_alerts',
  'notify_product_updates',
  'notify_marketing',
  'session_idle_timeout_minutes',
  'public_metadata',
  'unsafe_metadata',
];

/** user.updated: the account as it now is (as the public API shows it) and the names of the fields that changed; none when none did. */
export function userUpdatedEvent(before: UserRow, after: UserRow): WebhookEvent | null {
  if (after.project_id === null) return null;
  const was = toEndUserProfile(before);
  const now = toEndUserProfile(after);
  const changed = UPDATABLE.filter((field) => JSON.stringify(was[field]) !== JSON.stringify(now[field]));
  return changed.length > 0 ? { type: 'user.updated', data: { user: now, changed } } : null;
}

export async function emitUserUpdated(tx: EventWriter, before: UserRow, after: UserRow): Promise<void> {
  const event = userUpdatedEvent(before, after);
  if (event && after.project_id) await emitWebhookEvent(tx, after.project_id, event.type, event.data);
}

/** user.deleted: who the account was. `by` is `user` (they deleted it) or `developer` (the project's owner did). */
export function userDeletedEvent(user: Account, by: 'user' | 'developer'): WebhookEvent | null {
  return user.project_id === null ? null : { type: 'user.deleted', data: { user: { id: user.id, email: user.email }, by } };
}

/** mfa.enabled (an authenticator app confirmed) and mfa.disabled (`by` the user, or a `reset` by the project's owner). */
export async function emitMfaChanged(tx: EventWriter, user: Account, change: { enabled: true } | { enabled: false; by: 'user' | 'reset' }): Promise<void> {
  if (user.project_id === null) return;
  const account = { id: user.id, email: user.email };
  if (change.enabled) await emitWebhookEvent(tx, user.project_id, 'mfa.enabled', { user: account, method: 'totp' });
  else await emitWebhookEvent(tx, user.project_id, 'mfa.disabled', { user: account, by: change.by });
}
