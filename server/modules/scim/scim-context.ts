import type { Deps } from '../../deps.js';
import type { SsoConnectionRow, UserRow } from '../../db/schema.js';
import type { Tx } from '../../db/transaction.js';
import { isoNow } from '../../lib/clock.js';
import { constantTimeEqual, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { recordChange, type AuditActor, type Change } from '../changes/record-change.js';
import { provisionMembership } from '../organizations/organizations.service.js';
import { projectRealmById } from '../projects/project-realm.service.js';
import type { Realm } from '../realms/realm.js';
import { revokeEverySessionOf } from '../sessions/sessions.service.js';
import { attributeMappingOf } from '../sso/sso-connections.service.js';
import { findConnectionById } from '../sso/sso.repo.js';
import { changeUser } from '../users/users.service.js';
import { userUpdatedEvent } from '../webhooks/account-events.js';
import { ScimError } from './scim-errors.js';
import * as repo from './scim.repo.js';

/** Who a SCIM call acts for: the connection its token belongs to, in its project's realm. */
export interface ScimContext {
  connection: SsoConnectionRow;
  realm: Realm & { projectId: string };
  info: RequestInfo;
  /** Audit entries name no person: the IdP acts through the connection's token (the entry's target says which). */
  actor: AuditActor;
}

const WRONG_TOKEN = 'The bearer token is not valid for this SCIM endpoint';

/**
 * The connection a SCIM call names, if its bearer token is the connection's: the token's SHA-256 is
 * compared in constant time. Wrong tokens are counted per client network and connection (spent before
 * the check, refunded when right); an unknown connection, one without a token and a wrong token are the
 * same 401, so nothing tells which connections exist.
 */
export async function authenticateScim(deps: Deps, connectionId: string, token: string | undefined, info: RequestInfo): Promise<ScimContext> {
  const limitKey = `${connectionId.slice(0, 100)}:${info.network}`;
  await deps.limiters.wrongScimTokensPerIp.consume(limitKey);
  const connection = token ? await findConnectionById(deps.db, connectionId) : undefined;
  const hash = connection?.scim_token_hash ?? null;
  if (!connection || hash === null || !token || !constantTimeEqual(sha256(token), hash)) throw new ScimError(401, WRONG_TOKEN);
  await deps.limiters.wrongScimTokensPerIp.refund(limitKey);
  const { realm } = await projectRealmById(deps, connection.project_id);
  return { connection, realm, info, actor: { user: { id: null, email: null }, info } };
}

export function auditScim(tx: Tx<Deps>, ctx: ScimContext, action: Change['action'], user: Pick<UserRow, 'id' | 'email'>, detail?: Pick<Change, 'before' | 'after' | 'event'>) {
  return recordChange(tx, ctx.actor, {
    projectId: ctx.realm.projectId,
    action,
    target: { type: 'user', id: user.id, label: user.email },
    before: detail?.before,
    after: { ...detail?.after, sso_connection_id: ctx.connection.id },
    event: detail?.event,
  });
}

/**
 * Turns the account on or off for sign-in, in the unit of work of `tx`: off ends every live session of
 * it at once (session.revoked to webhooks, the revocation feed sees them) and password, SSO and refresh
 * sign-ins are refused while it stays off (users.is_active, as when the developer deactivates it).
 */
export async function setAccountActive(tx: Tx<Deps>, ctx: ScimContext, user: UserRow, active: boolean): Promise<UserRow> {
  await repo.updateScimUser(tx.db, user.id, { active: active ? 1 : 0, updated_at: isoNow(tx.clock) });
  if ((user.is_active === 1) === active) return user;
  const changed = await changeUser(tx, user.id, { is_active: active ? 1 : 0 });
  const event = userUpdatedEvent(user, changed);
  await auditScim(tx, ctx, active ? 'scim_user.reactivated' : 'scim_user.deactivated', user, { before: { is_active: !active }, after: { is_active: active }, event });
  if (!active) await revokeEverySessionOf(tx, user, 'revoked_by_admin');
  return changed;
}

/**
 * The account's role in the connection's organization from its SCIM groups: the first of its groups
 * (oldest first) that the connection's attribute_mapping.group_roles names, else the connection's
 * default role. Without group_roles, groups change no role (a role given by hand stays).
 */
export async function syncRoleOf(tx: Tx<Deps>, ctx: ScimContext, userId: string): Promise<void> {
  const byGroup = attributeMappingOf(ctx.connection).group_roles ?? {};
  if (Object.keys(byGroup).length === 0) return;
  const groups = await repo.groupsOfUser(tx.db, ctx.connection.id, userId);
  const role = groups.map((group) => byGroup[group.display_name]).find((mapped): mapped is string => Boolean(mapped)) ?? ctx.connection.default_role;
  await provisionMembership(tx, ctx.realm, ctx.actor, ctx.connection.organization_id, userId, role, true);
}
