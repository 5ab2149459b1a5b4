import { z } from 'zod';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { ApiSocialSignInSchema } from '../../../shared/schemas/social.js';
import { ApiSsoSignInQuerySchema, CreateSsoConnectionInputSchema, ScimTokenSchema, SsoConnectionListSchema, SsoConnectionSchema, UpdateSsoConnectionInputSchema } from '../../../shared/schemas/sso.js';
import { EndUserHeadersSchema } from '../../rest/end-user-headers.js';
import { API_KEY, defineRoute, TEAM, UnvalidatedParam } from '../../rest/route.js';
import { startApiSsoSignIn } from './sso-sign-in.service.js';
import { createScimToken, createSsoConnection, deleteSsoConnection, getSsoConnection, listSsoConnections, revokeScimToken, updateSsoConnection, verifySsoDomains } from './sso-connections.service.js';

const ProjectParams = z.object({ id: UnvalidatedParam });
const ConnectionParams = z.object({ id: UnvalidatedParam, connection_id: UnvalidatedParam });

/** A project's enterprise connections (SAML, OpenID Connect), managed by its team. */
export const ssoConnectionRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/sso-connections',
    procedure: 'list',
    access: TEAM,
    params: ProjectParams,
    response: { 200: SsoConnectionListSchema },
    doc: { operationId: 'listSsoConnections', tag: 'Enterprise SSO', summary: "The project's enterprise connections (client secrets are never shown)" },
    handler: async ({ deps, caller, params }) => listSsoConnections(deps, caller.session.user, params.id),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/sso-connections',
    procedure: 'create',
    access: TEAM,
    params: ProjectParams,
    body: CreateSsoConnectionInputSchema,
    response: { 201: SsoConnectionSchema },
    doc: {
      operationId: 'createSsoConnection',
      tag: 'Enterprise SSO',
      summary: 'Add a SAML or OpenID Connect connection to one of the project\'s organizations',
      description:
        'SAML: `saml.idp_metadata_xml` or `saml.idp_metadata_url` (fetched from this server: public https addresses only unless CONNECTIONS_ALLOW_PRIVATE); the metadata must name the entity id, an HTTP-Redirect SingleSignOnService and a valid signing certificate (422 otherwise). Give the IdP the answer\'s `saml.sp_entity_id`, `saml.acs_url` (or `saml.sp_metadata_url`). OIDC: `oidc.issuer`, `oidc.client_id` and `oidc.client_secret` (sealed, never shown again); register `oidc.callback_url` at the IdP. Each domain routes sign-ins once its DNS TXT record (`domains[].txt_record_name` = `txt_record_value`) is verified through …/verify-domains.',
      errors: [404, 409, 422, 429],
    },
    handler: async ({ deps, caller, params, body }) => createSsoConnection(deps, caller.session.user, params.id, body, caller.info),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/sso-connections/:connection_id',
    procedure: 'get',
    access: TEAM,
    params: ConnectionParams,
    response: { 200: SsoConnectionSchema },
    doc: { operationId: 'getSsoConnection', tag: 'Enterprise SSO', summary: 'One enterprise connection, with the values its IdP needs', errors: [404] },
    handler: async ({ deps, caller, params }) => getSsoConnection(deps, caller.session.user, params.id, params.connection_id),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/api/v1/projects/:id/sso-connections/:connection_id',
    procedure: 'update',
    access: TEAM,
    params: ConnectionParams,
    body: UpdateSsoConnectionInputSchema,
    response: { 200: SsoConnectionSchema },
    doc: {
      operationId: 'updateSsoConnection',
      tag: 'Enterprise SSO',
      summary: 'Change an enterprise connection',
      description: '`domains` replaces the list: a removed domain stops routing at once, a new one waits for its DNS proof. Leave `oidc.client_secret` out to keep the stored one.',
      errors: [404, 409, 422, 429],
    },
    handler: async ({ deps, caller, params, body }) => updateSsoConnection(deps, caller.session.user, params.id, params.connection_id, body, caller.info),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/v1/projects/:id/sso-connections/:connection_id',
    procedure: 'delete',
    access: TEAM,
    params: ConnectionParams,
    response: { 200: MessageSchema },
    doc: { operationId: 'deleteSsoConnection', tag: 'Enterprise SSO', summary: 'Remove an enterprise connection (its members keep their accounts and memberships)', errors: [404, 429] },
    handler: async ({ deps, caller, params }) => deleteSsoConnection(deps, caller.session.user, params.id, params.connection_id, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/sso-connections/:connection_id/verify-domains',
    procedure: 'verifyDomains',
    access: TEAM,
    params: ConnectionParams,
    response: { 200: SsoConnectionSchema },
    doc: {
      operationId: 'verifySsoDomains',
      tag: 'Enterprise SSO',
      summary: "Check the DNS TXT records of the connection's unverified domains",
      description: 'Each domain whose `_authplatform-verification.<domain>` TXT record holds its `txt_record_value` becomes verified; a domain verified for another connection of the project answers 409.',
      errors: [404, 409, 429],
    },
    handler: async ({ deps, caller, params }) => verifySsoDomains(deps, caller.session.user, params.id, params.connection_id, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/sso-connections/:connection_id/scim-token',
    procedure: 'createScimToken',
    access: TEAM,
    params: ConnectionParams,
    response: { 201: ScimTokenSchema },
    doc: {
      operationId: 'createScimToken',
      tag: 'Enterprise SSO',
      summary: "Make (or replace) the connection's SCIM 2.0 bearer token",
      description:
        "Answers the token this once (only its SHA-256 is kept) with the SCIM base URL (`APP_URL/scim/v2/{connection_id}`) to give the IdP (Okta, Microsoft Entra ID). Calling it again replaces the token at once: the old one is refused from the next SCIM call on. The SCIM endpoints themselves (RFC 7644) are not in this document; see the README.",
      errors: [404, 429],
    },
    handler: async ({ deps, caller, params }) => createScimToken(deps, caller.session.user, params.id, params.connection_id, caller.info),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/v1/projects/:id/sso-connections/:connection_id/scim-token',
    procedure: 'revokeScimToken',
    access: TEAM,
    params: ConnectionParams,
    response: { 200: MessageSchema },
    doc: { operationId: 'revokeScimToken', tag: 'Enterprise SSO', summary: "Revoke the connection's SCIM token (SCIM calls are refused; provisioned users stay)", errors: [404, 429] },
    handler: async ({ deps, caller, params }) => revokeScimToken(deps, caller.session.user, params.id, params.connection_id, caller.info),
  }),
];

/** The public API: the backend starts an end user's enterprise sign-in; it ends in social sign-in's one-time code. */
export const ssoSignInRoutes = [
  defineRoute({
    method: 'GET',
    url: '/public/api/v1/auth/sso/authorize',
    access: API_KEY,
    query: ApiSsoSignInQuerySchema,
    response: { 200: ApiSocialSignInSchema },
    doc: {
      tag: 'Public API',
      headers: EndUserHeadersSchema,
      operationId: 'publicStartSsoSignIn',
      summary: "Start an end user's sign-in with their organization's identity provider (SAML or OpenID Connect)",
      description:
        "By `email` (its domain must be verified for one of the project's connections: home-realm discovery) or `connection_id`. Answers the IdP's `authorization_url` (a SAML AuthnRequest, or an OpenID Connect authorization with PKCE): send the end user's browser there. The IdP comes back to the connection's ACS or callback, which redirects to `redirect_uri` (one of the project's registered redirect URIs) with `code` and your `state`, or with `error` (`access_denied`, `server_error`). Check `state`, then exchange the code (valid 60 s, once) at /public/api/v1/auth/oauth/exchange: the tokens carry the connection's organization as the active one (`org_id`).",
      errors: [400, 404, 422, 429],
    },
    handler: async ({ deps, caller, query }) => startApiSsoSignIn(deps, { realm: caller.realm, project: caller.project }, query, caller.info),
  }),
];
