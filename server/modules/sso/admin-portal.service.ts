import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  ADMIN_PORTAL_MESSAGES,
  ADMIN_PORTAL_PATH,
  ADMIN_PORTAL_SESSION_TTL_S,
  type ConnectionTestResult,
  type CreateAdminPortalLinkInputSchema,
} from '../../../shared/schemas/admin-portal.js';
import type { Deps } from '../../deps.js';
import type { AdminPortalSessionRow, UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { recordChange, type AuditActor } from '../changes/record-change.js';
import { organizationOf } from '../organizations/organizations.service.js';
import { requireProjectRole } from '../realms/project-access.js';
import * as repo from './admin-portal.repo.js';
import { createConnectionAs, type ConnectionManager } from './sso-connections.service.js';
import { acsUrlOf, oidcCallbackUrlOf, spEntityIdOf, spMetadataUrlOf } from './sso-urls.js';
import type { SsoConnection } from '../../../shared/schemas/sso.js';

/**
 * The self-serve setup portal: a project's team makes a one-time link for one of its organizations;
 * the organization's IT admin opens it once (no account) and gets a portal session that manages that
 * organization's enterprise connections through the same services as the team's routes
 * (sso-connections.service.ts), scoped to it, with the link as the audit log's actor.
 */

type LinkInput = z.output<typeof CreateAdminPortalLinkInputSchema>;

/**
 * The portal session's cookie: HttpOnly, SameSite=Lax (the portal is reached again by a top-level
 * navigation from the IdP after a test), scoped to the portal's path (/portal: its page and its API).
 */
export const PORTAL_SESSION_COOKIE = 'portal_session';

export function portalUrlOf(config: Pick<Deps['config'], 'appUrl'>, token?: string): string {
  return `${config.appUrl}${ADMIN_PORTAL_PATH}${token ? `/${token}` : ''}`;
}

/** The audit log's actor for what a portal session does: the link, never a person. */
export function portalActorOf(linkId: string, info: RequestInfo): AuditActor {
  return { user: { id: null, email: `Setup portal link ${linkId}` }, info };
}

/** A link for the IT admin of one of the project's organizations, shown once (only its SHA-256 is kept). Owners and admins of the project. */
export async function createAdminPortalLink(deps: Deps, owner: UserRow, projectId: string, organizationId: string, input: LinkInput, info: RequestInfo): Promise<{ url: string; expires_at: string }> {
  const project = await requireProjectRole(deps, owner, projectId, 'admin');
  await deps.limiters.connectionChangesPerUser.consume(owner.id);
  const organization = await organizationOf(deps, project.id, organizationId);
  const token = randomToken();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + input.expires_in_hours * 3600_000).toISOString();
  const id = newId();
  await withTransaction(deps, async (tx) => {
    await repo.insertLink(tx.db, { id, project_id: project.id, organization_id: organization.id, token_hash: sha256(token), created_by: owner.id, created_at: now.toISOString(), expires_at: expiresAt, used_at: null });
    await recordChange(tx, { user: owner, info }, {
      projectId: project.id,
      action: 'admin_portal_link.created',
      target: { type: 'organization', id: organization.id, label: organization.name },
      after: { link_id: id, expires_at: expiresAt },
    });
  });
  return { url: portalUrlOf(deps.config, token), expires_at: expiresAt };
}

/**
 * Opens the link, once: answers the portal session's cookie value (only its SHA-256 is kept), which
 * lasts ADMIN_PORTAL_SESSION_TTL_S and never past the link's expiry. A used, expired or unknown link is a 401.
 */
export async function openAdminPortal(deps: Deps, token: string, info: RequestInfo): Promise<{ sessionToken: string; organization: { id: string; name: string }; expires_at: string }> {
  const link = await repo.findLinkByTokenHash(deps.db, sha256(token));
  if (!link) throw new AppError('UNAUTHORIZED', ADMIN_PORTAL_MESSAGES.invalidLink);
  if (link.used_at !== null) throw new AppError('UNAUTHORIZED', ADMIN_PORTAL_MESSAGES.usedLink);
  const now = deps.clock.now();
  if (link.expires_at <= now.toISOString()) throw new AppError('UNAUTHORIZED', ADMIN_PORTAL_MESSAGES.expiredLink);
  const organization = await organizationOf(deps, link.project_id, link.organization_id);
  const sessionToken = randomToken();
  const ttlEnd = new Date(now.getTime() + ADMIN_PORTAL_SESSION_TTL_S * 1000).toISOString();
  const expiresAt = ttlEnd < link.expires_at ? ttlEnd : link.expires_at;
  await withTransaction(deps, async (tx) => {
    // Two browsers opening the link at once: one spends it.
    if (!(await repo.markLinkUsed(tx.db, link.id, now.toISOString()))) throw new AppError('UNAUTHORIZED', ADMIN_PORTAL_MESSAGES.usedLink);
    await repo.insertSession(tx.db, {
      id: newId(),
      link_id: link.id,
      project_id: link.project_id,
      organization_id: link.organization_id,
      token_hash: sha256(sessionToken),
      created_at: now.toISOString(),
      expires_at: expiresAt,
      test_result: null,
      next_connection_id: newId(),
    });
    await recordChange(tx, portalActorOf(link.id, info), { projectId: link.project_id, action: 'admin_portal.opened', target: { type: 'organization', id: organization.id, label: organization.name } });
  });
  return { sessionToken, organization: { id: organization.id, name: organization.name }, expires_at: expiresAt };
}

export interface PortalSession {
  row: AdminPortalSessionRow;
  manager: ConnectionManager & { organizationId: string };
}

/** How the routes of the portal realm find their caller's session (Deps.portalSessionCheck; checked in rest/callers.ts). */
export type PortalSessionCheck = (request: FastifyRequest, info: RequestInfo) => Promise<PortalSession>;

/** The live portal session a cookie names; 401 for none, an unknown or an ended one. */
export async function portalSessionOf(deps: Deps, cookie: string | undefined, info: RequestInfo): Promise<PortalSession> {
  const row = cookie && cookie.length <= 200 ? await repo.findSessionByTokenHash(deps.db, sha256(cookie)) : undefined;
  if (!row || row.expires_at <= isoNow(deps.clock)) throw new AppError('UNAUTHORIZED', ADMIN_PORTAL_MESSAGES.noSession);
  return {
    row,
    manager: { projectId: row.project_id, organizationId: row.organization_id, actor: portalActorOf(row.link_id, info), limitKey: `portal:${row.link_id}` },
  };
}

export async function portalOrganization(deps: Deps, session: PortalSession): Promise<{ organization: { id: string; name: string }; expires_at: string }> {
  const organization = await organizationOf(deps, session.row.project_id, session.row.organization_id);
  return { organization: { id: organization.id, name: organization.name }, expires_at: session.row.expires_at };
}

/** What the IdP needs for the session's next connection (its id is reserved), shown by the guides before the connection exists. */
export function nextConnectionValues(deps: Pick<Deps, 'config'>, session: PortalSession) {
  const id = session.row.next_connection_id;
  return { sp_entity_id: spEntityIdOf(deps.config, id), acs_url: acsUrlOf(deps.config, id), sp_metadata_url: spMetadataUrlOf(deps.config, id), oidc_callback_url: oidcCallbackUrlOf(deps.config, id) };
}

/** A connection made in the portal gets the id its guide showed; the session then reserves another. */
export async function createPortalConnection(deps: Deps, session: PortalSession, input: Parameters<typeof createConnectionAs>[2]): Promise<SsoConnection> {
  const created = await createConnectionAs(deps, session.manager, input, session.row.next_connection_id);
  await repo.renewNextConnectionId(deps.db, session.row.id, newId());
  return created;
}

export async function closePortalSession(deps: Deps, session: PortalSession): Promise<{ message: string }> {
  await repo.deleteSession(deps.db, session.row.id);
  return { message: 'Signed out of the setup portal' };
}

/** What the last test of a connection in this session received (null before any). */
export function lastTestResult(session: PortalSession): { result: ConnectionTestResult | null } {
  return { result: session.row.test_result ? (JSON.parse(session.row.test_result) as ConnectionTestResult) : null };
}

/** Keeps a test's outcome on the portal session that started it; answers where the browser goes back to. */
export async function recordConnectionTest(deps: Deps, sessionId: string, result: ConnectionTestResult, info: RequestInfo): Promise<string> {
  const session = await repo.findSession(deps.db, sessionId);
  if (session) {
    await withTransaction(deps, async (tx) => {
      await repo.setTestResult(tx.db, session.id, JSON.stringify(result));
      await recordChange(tx, portalActorOf(session.link_id, info), {
        projectId: session.project_id,
        action: 'sso_connection.tested',
        target: { type: 'sso_connection', id: result.connection_id },
        after: { ok: result.ok, email: result.email, error: result.error },
      });
    });
  }
  return `${portalUrlOf(deps.config)}?test=${result.ok ? 'ok' : 'failed'}`;
}

/** The sweep: links past their expiry, with their sessions. */
export function sweepExpiredPortalLinks(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  return repo.deleteExpiredLinks(deps.db, isoNow(deps.clock));
}
