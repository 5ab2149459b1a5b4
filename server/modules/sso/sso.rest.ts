import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { safeRedirectPath } from '../../../shared/safe-redirect.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { ApiSocialSignInSchema, type SocialErrorCode } from '../../../shared/schemas/social.js';
import {
  ApiSsoSignInQuerySchema,
  CreateSsoConnectionInputSchema,
  HostedSsoFinishQuerySchema,
  HostedSsoStartQuerySchema,
  ScimTokenSchema,
  SsoConnectionListSchema,
  SsoConnectionSchema,
  SsoDiscoveryQuerySchema,
  SsoDiscoverySchema,
  UpdateSsoConnectionInputSchema,
} from '../../../shared/schemas/sso.js';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { HOSTED_COOKIES, hostedCookiePath, hostedProjectKeyOf } from '../../plugins/auth-cookies.js';
import { EndUserHeadersSchema } from '../../rest/end-user-headers.js';
import { API_KEY, defineRoute, HOSTED, REDIRECT, TEAM, UnvalidatedParam } from '../../rest/route.js';
import { socialErrorCodeOf } from '../social/social.service.js';
import { completeHostedSsoSignIn, discoverSsoConnection, startApiSsoSignIn, startHostedSsoSignIn } from './sso-sign-in.service.js';
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
      description: 'Each domain whose `_authplatform-verification.<domain>` TXT record holds its `txt_record_value` becomes verified; when one of them is verified for another connection of the project, the answer is 409 naming it (the others are verified all the same).',
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

/**
 * The cookie that ties an enterprise sign-in started on the hosted pages to the browser that started it:
 * a random value whose SHA-256 the waiting sign-in keeps. HttpOnly, SameSite=Lax (the finish is a
 * top-level GET, even after the IdP's cross-site POST to the ACS), scoped to the hosted SSO routes.
 */
export const HOSTED_SSO_STATE_COOKIE = 'sso_state';
const SSO_STATE_MAX_AGE_S = 10 * 60;

function ssoStateCookie(config: Config, request: FastifyRequest) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config.appUrl.startsWith('https://'), path: `${hostedCookiePath(hostedProjectKeyOf(request))}/api/v1/auth/sso` };
}

function presentedSsoState(request: FastifyRequest): string | null {
  const value = request.cookies[HOSTED_SSO_STATE_COOKIE];
  return value && value.length <= 100 ? sha256(value) : null;
}

/** The hosted pages a sign-in lands on: a return_to of these pages as a safe path, the account page, or the sign-in page with the refusal's code. */
function hostedPagesOf(config: Config, request: FastifyRequest) {
  const root = hostedCookiePath(hostedProjectKeyOf(request));
  const signIn = `${root}/sign-in`;
  const returnTo = (target: string | null | undefined) => safeRedirectPath(target, config.appUrl, `${root}/`);
  const withQuery = (path: string, params: Record<string, string | null | undefined>, fragment?: Record<string, string>) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
    const search = query.toString();
    return `${path}${search ? `?${search}` : ''}${fragment ? `#${new URLSearchParams(fragment)}` : ''}`;
  };
  return {
    returnTo,
    signedIn: `${root}/account`,
    failure: (reason: SocialErrorCode, to: string | null) => withQuery(signIn, { social_error: reason, return_to: to }),
    secondFactor: (challenge: { mfa_token: string; methods: string[] }, to: string | null) =>
      withQuery(signIn, { return_to: to }, { mfa_token: challenge.mfa_token, methods: challenge.methods.join(',') }),
  };
}

function redirectAway(reply: FastifyReply, to: string) {
  reply.header('cache-control', 'no-store');
  return reply.redirect(to, 302);
}

/**
 * The hosted sign-in's enterprise SSO: home-realm discovery as the address is typed, and the two
 * navigations of a sign-in through the connection's IdP (to it, and back from its ACS or callback).
 */
export const hostedSsoRoutes = [
  defineRoute({
    method: 'GET',
    url: '/hosted/:project_key/api/v1/auth/sso/discover',
    access: HOSTED,
    query: SsoDiscoveryQuerySchema,
    response: { 200: SsoDiscoverySchema },
    doc: {
      operationId: 'hostedDiscoverSso',
      tag: 'Hosted pages',
      summary: "Whether an address signs in through its organization's identity provider (home-realm discovery)",
      description:
        "`sso` is true when the address's domain is verified for one of the project's enabled connections (named by `connection_id` and `name`); `enforced` when that connection refuses passwords. The answer depends on the domain only, never on whether an account exists.",
      errors: [422, 429],
    },
    handler: async ({ deps, caller, query }) => discoverSsoConnection(deps, { ...caller.realm, projectId: caller.project.id }, query.email, caller.info),
  }),
  defineRoute({
    method: 'GET',
    url: '/hosted/:project_key/api/v1/auth/sso/start',
    access: HOSTED,
    query: HostedSsoStartQuerySchema,
    response: { 302: REDIRECT },
    doc: {
      operationId: 'hostedStartSsoSignIn',
      tag: 'Hosted pages',
      summary: "Sign in with the organization's identity provider (a browser navigation): redirects to the IdP",
      description:
        "By `email` (its verified domain) or `connection_id`. Sends the browser to the IdP (a SAML AuthnRequest, or an OpenID Connect authorization with PKCE), with a state cookie so the sign-in ends only in this browser; it comes back through …/auth/sso/finish to `return_to` (a hosted page, such as the OpenID Connect provider's authorize continuation) or the account page. Refusals redirect to the sign-in page with `social_error`.",
    },
    handler: async ({ deps, caller, query, request, reply }) => {
      const pages = hostedPagesOf(deps.config, request);
      const returnTo = pages.returnTo(query.return_to);
      try {
        const state = randomToken();
        const by = { ...(query.email && { email: query.email }), ...(query.connection_id && { connection_id: query.connection_id }) };
        const url = await startHostedSsoSignIn(deps, caller, by, { returnTo, binding: sha256(state), deviceFingerprint: query.device_fingerprint ?? null }, caller.info);
        reply.setCookie(HOSTED_SSO_STATE_COOKIE, state, { ...ssoStateCookie(deps.config, request), maxAge: SSO_STATE_MAX_AGE_S });
        return redirectAway(reply, url);
      } catch (error) {
        if (error instanceof AppError) return redirectAway(reply, pages.failure(error.code === 'NOT_FOUND' || error.code === 'UNPROCESSABLE_CONTENT' ? 'unavailable' : socialErrorCodeOf(error), returnTo));
        throw error;
      }
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/hosted/:project_key/api/v1/auth/sso/finish',
    access: HOSTED,
    query: HostedSsoFinishQuerySchema,
    response: { 302: REDIRECT },
    doc: {
      operationId: 'hostedFinishSsoSignIn',
      tag: 'Hosted pages',
      summary: 'Where the ACS or OpenID Connect callback sends a hosted sign-in back (a browser navigation)',
      description:
        'Spends the one-time `code` in the browser that started the sign-in (its state cookie): sets the hosted session cookies and redirects to the `return_to` of the start (or the account page); the second factor first when the account has two and the IdP asserted none (the sign-in page with `#mfa_token=…`). Refusals redirect to the sign-in page with `social_error` (`state_mismatch` in another browser, `expired` for a used or late code).',
    },
    handler: async ({ deps, caller, query, request, reply }) => {
      const pages = hostedPagesOf(deps.config, request);
      const binding = presentedSsoState(request);
      reply.clearCookie(HOSTED_SSO_STATE_COOKIE, ssoStateCookie(deps.config, request));
      const outcome = await completeHostedSsoSignIn(deps, caller, query, binding, caller.info);
      // Checked again on the way out, as social sign-in does.
      const returnTo = pages.returnTo(outcome.returnTo);
      switch (outcome.kind) {
        case 'signed_in':
          HOSTED_COOKIES.set(reply, request, deps.config, outcome.result, caller.realm.policy);
          return redirectAway(reply, returnTo ?? pages.signedIn);
        case 'mfa':
          return redirectAway(reply, pages.secondFactor(outcome.challenge, returnTo));
        case 'failed':
          return redirectAway(reply, pages.failure(outcome.reason, returnTo));
      }
    },
  }),
];
