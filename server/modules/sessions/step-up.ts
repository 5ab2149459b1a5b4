import { MESSAGES } from '../../../shared/messages.js';
import type { StepUpMethod, StepUpStatus } from '../../../shared/schemas/step-up.js';
import type { UserRow } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { countPasskeys } from '../users/users.repo.js';
import { findSessionProof, recordSessionProof } from './sessions.repo.js';
import type { Authenticated } from './sessions.service.js';

/**
 * Step-up: a session alone (a stolen cookie, a token lifted from a backend's log) must not be enough to
 * add a way into the account or to move it to another address. Those changes need a proof of who the
 * user is within STEP_UP_WINDOW_S: the sign-in that opened the session, or a step-up since
 * (POST /auth/step-up: the password, a second-factor code, one of the account's passkeys, or for an
 * account with none of those a code mailed to it). A refresh is not a proof.
 */

/**
 * The proofs the account can give, for the refusal to list. An account with none of its own (it signs
 * in with a provider only) gets a code mailed to its address once that address is verified; an
 * unverified one has none: only signing in again proves it.
 */
export async function stepUpMethodsOf(deps: Pick<Deps, 'db'>, user: UserRow): Promise<StepUpMethod[]> {
  const methods: StepUpMethod[] = [];
  if (user.password_set === 1) methods.push('password');
  if (user.totp_enabled_at !== null) methods.push('totp');
  if ((await countPasskeys(deps.db, user.id)) > 0) methods.push('passkey');
  if (methods.length === 0 && user.is_verified === 1) methods.push('email');
  return methods;
}

/** Until when the session's last proof (its sign-in, or a step-up since) lets it make those changes; null when it no longer does. */
export async function recentProofUntil(deps: Deps, auth: Authenticated): Promise<string | null> {
  const proof = await findSessionProof(deps.db, auth.sessionId);
  if (!proof) return null;
  const signedIn = proof.authenticated_at ?? proof.created_at;
  const last = proof.reauthenticated_at !== null && proof.reauthenticated_at > signedIn ? proof.reauthenticated_at : signedIn;
  const until = Date.parse(last) + deps.config.stepUpWindowS * 1000;
  return deps.clock.now().getTime() <= until ? new Date(until).toISOString() : null;
}

/** 401 `{detail, step_up_required: true, step_up_methods}` unless the session's user proved who they are within the window. */
export async function requireRecentProof(deps: Deps, auth: Authenticated): Promise<void> {
  if ((await recentProofUntil(deps, auth)) !== null) return;
  throw new AppError('UNAUTHORIZED', MESSAGES.stepUpRequired, { stepUpMethods: await stepUpMethodsOf(deps, auth.user) });
}

/** Whether the session must step up before such a change (a browser asks before it navigates to connect a provider). */
export async function stepUpStatus(deps: Deps, auth: Authenticated): Promise<StepUpStatus> {
  const until = await recentProofUntil(deps, auth);
  return { step_up_required: until === null, step_up_methods: await stepUpMethodsOf(deps, auth.user), expires_at: until };
}

/** Records a proof the caller has just checked; answers until when it lets the session make those changes. */
export async function recordProof(deps: Deps, auth: Authenticated): Promise<string> {
  const now = isoNow(deps.clock);
  await recordSessionProof(deps.db, auth.sessionId, now);
  return new Date(Date.parse(now) + deps.config.stepUpWindowS * 1000).toISOString();
}

/**
 * A new way in (a passkey, a provider, two factors) needs a proven address first, or someone who
 * registered the address before its owner could keep one past the owner's verification; then a recent proof.
 */
export async function requireNewWayInAllowed(deps: Deps, auth: Authenticated): Promise<void> {
  if (auth.user.is_verified !== 1) throw new AppError('FORBIDDEN', MESSAGES.verifyEmailFirst);
  await requireRecentProof(deps, auth);
}
