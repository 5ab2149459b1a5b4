import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/transaction.js';
import { emitWebhookEvent, type EventWriter } from '../changes/webhook-outbox.js';
import { findSessionOwners } from './sessions.repo.js';

/**
 * session.revoked for a project's webhooks, written in the unit of work of the revocation. It is sent
 * for the sessions ended on purpose: the end user signing out (`logout`: the public API, the hosted
 * pages, the OpenID Connect logout) or revoking their own sessions (`revoked_by_user`), the project's
 * owner revoking one from monitoring (`revoked_by_admin`), the app revoking a token at the OpenID
 * Connect revocation endpoint (`oauth_revoked`), and reuse detection of a refresh token
 * (`refresh_token_reuse`) or of an authorization code (`authorization_code_reuse`).
 * Sessions that end as a consequence of another change (password change or reset, e-mail change or
 * verification, deactivation, device block, account deletion) or of the idle timeout send none: that
 * change has an event of its own (user.updated, device.blocked, user.deleted) or is the user's own.
 */

export type RevokedReason = 'logout' | 'revoked_by_user' | 'revoked_by_admin' | 'refresh_token_reuse' | 'oauth_revoked' | 'authorization_code_reuse';

const eventOf = (sessionId: string, user: { id: string; email: string }, reason: RevokedReason) => ({ session_id: sessionId, user: { id: user.id, email: user.email }, reason });

/** One event per session revoked; nothing for the platform's accounts (`projectId` null). */
export async function emitSessionsRevoked(tx: Tx<Pick<Deps, 'db' | 'clock'>>, projectId: string | null, sessionIds: string[], reason: RevokedReason): Promise<void> {
  if (projectId === null || sessionIds.length === 0) return;
  for (const owner of await findSessionOwners(tx.db, sessionIds)) {
    await emitSessionRevoked(tx, projectId, owner.session_id, { id: owner.user_id, email: owner.email }, reason);
  }
}

/** The event of one session whose owner the caller holds (the refresh's prepared transaction does). */
export async function emitSessionRevoked(tx: EventWriter, projectId: string | null, sessionId: string, user: { id: string; email: string }, reason: RevokedReason): Promise<void> {
  if (projectId !== null) await emitWebhookEvent(tx, projectId, 'session.revoked', eventOf(sessionId, user, reason));
}
