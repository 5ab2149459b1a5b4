import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  ADMIN_PORTAL_PATH,
  AdminPortalLinkSchema,
  AdminPortalOverviewSchema,
  AdminPortalSessionSchema,
  ConnectionTestAnswerSchema,
  ConnectionTestStartSchema,
  CreateAdminPortalLinkInputSchema,
  CreatePortalConnectionInputSchema,
  OpenAdminPortalInputSchema,
} from '../../../shared/schemas/admin-portal.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { ScimTokenSchema, SsoConnectionSchema, UpdateSsoConnectionInputSchema } from '../../../shared/schemas/sso.js';
import type { Config } from '../../config.js';
import { ANYONE, defineRoute, PORTAL, TEAM, UnvalidatedParam } from '../../rest/route.js';
import { closePortalSession, createAdminPortalLink, createPortalConnection, nextConnectionValues, lastTestResult, openAdminPortal, PORTAL_SESSION_COOKIE, portalOrganization } from './admin-portal.service.js';
import {
  createScimTokenAs,
  deleteConnectionAs,
  getConnectionAs,
  listConnectionsAs,
  updateConnectionAs,
  verifyDomainsAs,
} from './sso-connections.service.js';
import { startConnectionTest } from './sso-sign-in.service.js';


function portalCookie(config: Config) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config.appUrl.startsWith('https://'), path: ADMIN_PORTAL_PATH };
}


const PORTAL_AUTH = 'Authorized by the portal session cookie that opening a setup link sets (401 without a live one); scoped to the link\'s organization.';
const portalDoc = (operationId: string, summary: string, more: { description?: string; errors?: (400 | 401 | 404 | 409 | 422 | 429)[] } = {}) => ({
  operationId,
  tag: 'Setup portal' as const,
  summary,
  description: `${more.description ? `${more.description} ` : ''}${PORTAL_AUTH}`,
  errors: more.errors ?? [401],
});

const OrgParams = z.object({ id: UnvalidatedParam, organization_id: UnvalidatedParam });
const ConnectionParams = z.object({ connection_id: UnvalidatedParam });

/** The project's team makes a setup link for one of its organizations. */
export const adminPortalLinkRoutes = [
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/organizations/:organization_id/admin-portal-links',
    procedure: 'createAdminPortalLink',
    access: TEAM,
    params: OrgParams,
    body: CreateAdminPortalLinkInputSchema,
    response: { 201: AdminPortalLinkSchema },
    doc: {
      operationId: 'createAdminPortalLink',
      tag: 'Enterprise SSO',
      summary: "A one-time link to the setup portal of the organization's enterprise SSO, for its IT admin",
      description:
        "Answers the link's `url` this once (only its SHA-256 is kept), valid `expires_in_hours` (1 to 168, default 24). Whoever opens it (once: a second opening is refused) sets up this organization's SAML or OpenID Connect connections, verifies its domains, tests a sign-in and makes the SCIM token, without an account and without seeing anything else of the project. Owners and admins of the project; audited.",
      bodyOptional: true,
      errors: [404, 429],
    },
    handler: async ({ deps, caller, params, body }) => createAdminPortalLink(deps, caller.session.user, params.id, params.organization_id, body, caller.info),
  }),
];

function setSession(reply: FastifyReply, config: Config, token: string, expiresAt: string) {
  reply.setCookie(PORTAL_SESSION_COOKIE, token, { ...portalCookie(config), expires: new Date(expiresAt) });
}

/** The setup portal's browser API (/portal/api/v1), for the IT admin who opened a setup link. */
export const adminPortalRoutes = [
  defineRoute({
    method: 'POST',
    url: '/portal/api/v1/session',
    access: ANYONE,
    body: OpenAdminPortalInputSchema,
    response: { 201: AdminPortalSessionSchema },
    doc: {
      operationId: 'openAdminPortal',
      tag: 'Setup portal',
      summary: 'Open a setup link: spends its one-time token for a portal session (an HttpOnly cookie scoped to /portal)',
      description:
        "`token` is the last segment of the link's URL. The session lasts an hour, never past the link's expiry. A link opens once: a second opening, an expired or an unknown link is a 401 with `detail` to show.",
      errors: [401],
    },
    handler: async ({ deps, caller, body, reply }) => {
      const opened = await openAdminPortal(deps, body.token, caller.info);
      setSession(reply, deps.config, opened.sessionToken, opened.expires_at);
      reply.header('cache-control', 'no-store');
      return { organization: opened.organization, expires_at: opened.expires_at };
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: '/portal/api/v1/session',
    access: PORTAL,
    response: { 200: MessageSchema },
    doc: portalDoc('closeAdminPortal', 'Leave the setup portal (the session ends; the link stays spent)'),
    handler: async ({ deps, caller, reply }) => {
      reply.clearCookie(PORTAL_SESSION_COOKIE, portalCookie(deps.config));
      return closePortalSession(deps, caller.portal);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/portal/api/v1/organization',
    access: PORTAL,
    response: { 200: AdminPortalOverviewSchema },
    doc: portalDoc('getAdminPortalOrganization', "The portal's organization and its enterprise connections, with the values each IdP needs"),
    handler: async ({ deps, caller: { portal } }) => ({ ...(await portalOrganization(deps, portal)), ...(await listConnectionsAs(deps, portal.manager)), next_connection: nextConnectionValues(deps, portal) }),
  }),
  defineRoute({
    method: 'POST',
    url: '/portal/api/v1/connections',
    access: PORTAL,
    body: CreatePortalConnectionInputSchema,
    response: { 201: SsoConnectionSchema },
    doc: portalDoc('createAdminPortalConnection', "Add a SAML or OpenID Connect connection to the portal's organization", {
      description: 'The same input and checks as the team\'s createSsoConnection, without `organization_id` (always the portal\'s). The connection gets the id whose values `next_connection` showed.',
      errors: [401, 409, 422, 429],
    }),
    handler: async ({ deps, caller: { portal }, body }) => createPortalConnection(deps, portal, { ...body, organization_id: portal.manager.organizationId }),
  }),
  defineRoute({
    method: 'GET',
    url: '/portal/api/v1/connections/:connection_id',
    access: PORTAL,
    params: ConnectionParams,
    response: { 200: SsoConnectionSchema },
    doc: portalDoc('getAdminPortalConnection', "One of the organization's connections", { errors: [401, 404] }),
    handler: async ({ deps, caller, params }) => getConnectionAs(deps, caller.portal.manager, params.connection_id),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/portal/api/v1/connections/:connection_id',
    access: PORTAL,
    params: ConnectionParams,
    body: UpdateSsoConnectionInputSchema,
    response: { 200: SsoConnectionSchema },
    doc: portalDoc('updateAdminPortalConnection', "Change one of the organization's connections", { errors: [401, 404, 409, 422, 429] }),
    handler: async ({ deps, caller, params, body }) => updateConnectionAs(deps, caller.portal.manager, params.connection_id, body),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/portal/api/v1/connections/:connection_id',
    access: PORTAL,
    params: ConnectionParams,
    response: { 200: MessageSchema },
    doc: portalDoc('deleteAdminPortalConnection', "Remove one of the organization's connections", { errors: [401, 404, 429] }),
    handler: async ({ deps, caller, params }) => deleteConnectionAs(deps, caller.portal.manager, params.connection_id),
  }),
  defineRoute({
    method: 'POST',
    url: '/portal/api/v1/connections/:connection_id/verify-domains',
    access: PORTAL,
    params: ConnectionParams,
    response: { 200: SsoConnectionSchema },
    doc: portalDoc('verifyAdminPortalDomains', "Check the DNS TXT records of the connection's unverified domains", { errors: [401, 404, 409, 429] }),
    handler: async ({ deps, caller, params }) => verifyDomainsAs(deps, caller.portal.manager, params.connection_id),
  }),
  defineRoute({
    method: 'POST',
    url: '/portal/api/v1/connections/:connection_id/scim-token',
    access: PORTAL,
    params: ConnectionParams,
    response: { 201: ScimTokenSchema },
    doc: portalDoc('createAdminPortalScimToken', "Make (or replace) the connection's SCIM bearer token, answered this once", { errors: [401, 404, 429] }),
    handler: async ({ deps, caller, params }) => createScimTokenAs(deps, caller.portal.manager, params.connection_id),
  }),
  defineRoute({
    method: 'POST',
    url: '/portal/api/v1/connections/:connection_id/test',
    access: PORTAL,
    params: ConnectionParams,
    response: { 200: ConnectionTestStartSchema },
    doc: portalDoc('startAdminPortalConnectionTest', 'Test the connection: a sign-in at the IdP that comes back to the portal with what the IdP sent', {
      description:
        'Send the browser to `authorization_url`; the IdP comes back (ACS or callback) to /portal?test=ok|failed, and …/test-result then answers the e-mail, names and groups received. No account, membership or session is made.',
      errors: [401, 404, 422, 429],
    }),
    handler: async ({ deps, caller, params }) => startConnectionTest(deps, caller.portal.manager, params.connection_id, caller.portal.row.id, caller.info),
  }),
  defineRoute({
    method: 'GET',
    url: '/portal/api/v1/test-result',
    access: PORTAL,
    response: { 200: ConnectionTestAnswerSchema },
    doc: portalDoc('getAdminPortalTestResult', "What this session's last connection test received from the IdP (null before any)"),
    handler: async ({ caller }) => lastTestResult(caller.portal),
  }),
];
