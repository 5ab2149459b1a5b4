import type { FastifyRequest } from 'fastify';
import { exchangeMagicLinkCode } from '../passwordless/magic-link.service.js';
import { z } from 'zod';
import { safeRedirectPath } from '../../../shared/safe-redirect.js';
import { LogInAnswerSchema } from '../../../shared/schemas/auth.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import {
  ApiSocialSignInQuerySchema,
  ApiSocialSignInSchema,
  ConfirmIdentityLinkInputSchema,
  IdentityLinkedSchema,
  ConnectionSchema,
  ConnectionsSchema,
  IdentitiesSchema,
  SaveConnectionInputSchema,
  SignInProvidersSchema,
  SocialCallbackQuerySchema,
  SocialExchangeInputSchema,
  SocialProviderSchema,
  StartSocialSignInQuerySchema,
  type SocialErrorCode,
} from '../../../shared/schemas/social.js';
import type { Config } from '../../config.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { EndUserHeadersSchema } from '../../rest/end-user-headers.js';
import { hostedCookiePath } from '../../plugins/auth-cookies.js';
import { authenticateIfSignedIn } from '../sessions/request-auth.js';
import { defineRoute, REDIRECT, UnvalidatedParam, type AnyRoute, type Anonymous, API_KEY, TEAM } from '../../rest/route.js';
import { requireCaptcha } from '../auth/captcha-check.js';
import { accountMountOf, type AccountMount } from '../../rest/account-mount.js';
import {
  completeSocialCallback,
  confirmIdentityLink,
  exchangeSocialSignInCode,
  listIdentities,
  listProjectConnections,
  listSignInProviders,
  removeIdentity,
  removeProjectConnection,
  saveProjectConnection,
  socialErrorCodeOf,
  startApiSocialSignIn,
  startSocialSignIn,
  type SocialTarget,
} from './social.service.js';
import { requireNewWayInAllowed } from '../sessions/step-up.js';

const ProviderParams = z.object({ provider: SocialProviderSchema });
const IdentityParams = z.object({ id: UnvalidatedParam });

/** The cookie that ties a sign-in sent to a provider to the browser that sent it (its value is the state). */
export const SOCIAL_STATE_COOKIE = 'oauth_state';

function stateCookie(config: Config, mount: AccountMount, request: FastifyRequest) {
  const base = mount.realm === 'hosted' ? hostedCookiePath((request.params as { project_key: string }).project_key) : '';
  return { httpOnly: true, sameSite: 'lax' as const, secure: config.appUrl.startsWith('https://'), path: `${base}/api/v1/auth/oauth` };
}

/** The browser realm's pages: where a sign-in lands, and where it starts again when it failed. */
function pagesOf(config: Config, mount: AccountMount, request: FastifyRequest) {
  const root = mount.realm === 'hosted' ? hostedCookiePath((request.params as { project_key: string }).project_key) : '';
  const signIn = mount.realm === 'hosted' ? `${root}/sign-in` : '/login';
  const security = mount.realm === 'hosted' ? `${root}/account` : '/settings';
  return {
    signIn,
    signedIn: mount.realm === 'hosted' ? `${root}/account` : '/dashboard',
    security,
    /** A return_to of the realm's own pages on APP_URL's origin, as a safe path; null for anything else. */
    returnTo: (target: string | null | undefined) => safeRedirectPath(target, config.appUrl, `${root}/`),
    /** Where a refusal lands: connecting goes back to the page that asked, a sign-in to the sign-in page (which keeps return_to). */
    failure(intent: string | null, reason: SocialErrorCode, returnTo: string | null): string {
      if (intent === 'link') return withParams(returnTo ?? security, { social_error: reason });
      return withParams(signIn, { social_error: reason, return_to: returnTo ?? undefined });
    },
  };
}

function withParams(path: string, params: Record<string, string | undefined>, fragment?: Record<string, string>): string {
  const url = new URL(path, 'http://pages.invalid');
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  const hash = fragment ? `#${new URLSearchParams(fragment).toString()}` : '';
  return `${url.pathname}${url.search}${hash}`;
}

function targetOf(deps: Deps, mount: AccountMount, caller: Anonymous & { project?: SocialTarget['project'] }): SocialTarget {
  return mount.realm === 'platform' ? { realm: deps.platform, project: null } : { realm: caller.realm, project: caller.project ?? null };
}

/**
 * Sign-in with GitHub, Google, Microsoft or any OpenID Connect provider, declared once per account
 * mount: the providers offered, the caller's connected providers, the mailed link's confirmation; for
 * the browser realms (platform, hosted pages) the two navigations (to the provider and back); for
 * the public API, the start that hands the backend the provider's URL and the exchange of the code.
 */
export function socialRoutes(mount: AccountMount) {
  const m = accountMountOf(mount);
  const routes = [
    defineRoute({
      method: 'GET',
      url: `${m.prefix}/auth/oauth/providers`,
      procedure: m.procedure('providers'),
      access: m.anonymous,
      response: { 200: SignInProvidersSchema },
      doc: m.doc(
        { operationId: 'listSignInProviders', tag: 'Auth', summary: 'Sign-in providers configured for developer accounts (GitHub, Google, Microsoft, OpenID Connect)' },
        { operationId: 'publicListSignInProviders', summary: "The project's sign-in providers (its connections)" },
      ),
      handler: async ({ deps, caller }) => ({ providers: await listSignInProviders(deps, targetOf(deps, mount, caller)) }),
    }),
    defineRoute({
      method: 'GET',
      url: `${m.prefix}/auth/identities`,
      procedure: m.procedure('identities'),
      access: m.signedIn,
      response: { 200: IdentitiesSchema },
      doc: m.doc(
        { operationId: 'listIdentities', tag: 'Auth', summary: 'The signed-in account\'s ways of signing in: connected providers, password, passkeys' },
        { operationId: 'publicListIdentities', summary: "The end user's ways of signing in: connected providers, password, passkeys" },
      ),
      handler: async ({ deps, caller }) => listIdentities(deps, targetOf(deps, mount, caller), caller.session.user),
    }),
    defineRoute({
      method: 'DELETE',
      url: `${m.prefix}/auth/identities/:id`,
      procedure: m.procedure('removeIdentity'),
      access: m.signedIn,
      params: IdentityParams,
      response: { 200: MessageSchema },
      doc: m.doc(
        { operationId: 'removeIdentity', tag: 'Auth', summary: 'Disconnect a sign-in provider (409 when it is the last way to sign in)', errors: [404, 409] },
        { operationId: 'publicRemoveIdentity', summary: "Disconnect one of the end user's sign-in providers (409 when it is the last way to sign in)", errors: [404, 409] },
      ),
      handler: async ({ deps, caller, params }) => removeIdentity(deps, caller.session.user, params.id),
    }),
    defineRoute({
      method: 'POST',
      url: `${m.prefix}/auth/oauth/link`,
      procedure: m.procedure('confirmLink'),
      access: m.anonymous,
      body: ConfirmIdentityLinkInputSchema,
      response: { 200: IdentityLinkedSchema },
      doc: m.doc(
        { operationId: 'confirmIdentityLink', tag: 'Auth', summary: 'Connect a provider to an existing account with the link mailed to its address', errors: [400, 409, 429] },
        { operationId: 'publicConfirmIdentityLink', summary: "Connect a provider to an end user's existing account with the link mailed to its address", errors: [400, 409, 429] },
      ),
      handler: async ({ deps, caller, body }) => confirmIdentityLink(deps, targetOf(deps, mount, caller).realm, body.token, caller.info),
    }),
  ];
  return mount.realm === 'project' ? [...routes, ...publicApiRoutes()] : [...routes, ...browserRoutes(mount)];
}

/** The two navigations of a browser realm: to the provider (a redirect), and back (a redirect to our pages). */
function browserRoutes(mount: AccountMount): AnyRoute[] {
  const m = accountMountOf(mount);
  const platform = mount.realm === 'platform';
  return [
    defineRoute({
      method: 'GET',
      url: `${m.prefix}/auth/oauth/:provider/authorize`,
      access: m.optionalSession,
      params: ProviderParams,
      query: StartSocialSignInQuerySchema,
      response: { 302: REDIRECT },
      doc: {
        operationId: platform ? 'startSocialSignIn' : 'hostedStartSocialSignIn',
        tag: platform ? 'Auth' : 'Hosted pages',
        summary: 'Sign in with a provider (a browser navigation): redirects to the provider',
        description:
          'Sends the browser to the provider with PKCE, state (also kept in an HttpOnly cookie, so the sign-in must come back to this browser) and, for OpenID Connect, a nonce. With a captcha configured, `captcha_token` is required. `intent=link` connects the provider to the signed-in account instead. Refusals come back as a redirect to the sign-in page with `social_error`.',
      },
      handler: async ({ deps, caller, query, params, request, reply }) => {
        const pages = pagesOf(deps.config, mount, request);
        const target = targetOf(deps, mount, caller);
        const returnTo = pages.returnTo(query.return_to);
        const fail = (reason: SocialErrorCode) => reply.redirect(pages.failure(query.intent, reason, returnTo), 302);
        try {
          let userId: string | null = null;
          if (query.intent === 'link') {
            const session = await authenticateIfSignedIn(deps, target.realm, m.accessTokenOf(request));
            if (!session) return fail('link_not_signed_in');
            // A provider is a new way in: a verified address and a recent proof (else verify_email_first, step_up_required).
            await requireNewWayInAllowed(deps, session);
            userId = session.user.id;
          } else {
            await requireCaptcha(deps, target.realm, query.captcha_token, caller.info);
          }
          const { url, state } = await startSocialSignIn(
            deps,
            target,
            params.provider,
            { intent: query.intent, returnTo, userId, deviceFingerprint: query.device_fingerprint },
            caller.info,
          );
          reply.setCookie(SOCIAL_STATE_COOKIE, state, { ...stateCookie(deps.config, mount, request), maxAge: 10 * 60 });
          reply.header('cache-control', 'no-store');
          return reply.redirect(url, 302);
        } catch (error) {
          if (error instanceof AppError) return fail(socialErrorCodeOf(error));
          throw error;
        }
      },
    }),
    defineRoute({
      method: 'GET',
      url: `${m.prefix}/auth/oauth/:provider/callback`,
      access: m.optionalSession,
      params: ProviderParams,
      query: SocialCallbackQuerySchema,
      response: { 302: REDIRECT },
      doc: {
        operationId: platform ? 'socialSignInCallback' : 'hostedSocialSignInCallback',
        tag: platform ? 'Auth' : 'Hosted pages',
        summary: 'Where the provider sends the browser back (register this URL at the provider)',
        description: platform
          ? 'Signs in (session cookies, then the `return_to` page or the dashboard), asks for the second factor (the sign-in page with `#mfa_token=…`), or connects the provider to the signed-in account. Refusals redirect to the sign-in page with `social_error`.'
          : "The project's one callback for every sign-in with this provider: its hosted pages' (hosted session cookies) and the public API's (a redirect to the developer's redirect URI with `code` and `state`, or `error`).",
      },
      handler: async ({ deps, caller, params, request, reply }) => {
        const pages = pagesOf(deps.config, mount, request);
        const target = targetOf(deps, mount, caller);
        const binding = request.cookies[SOCIAL_STATE_COOKIE];
        reply.clearCookie(SOCIAL_STATE_COOKIE, stateCookie(deps.config, mount, request));
        reply.header('cache-control', 'no-store');
        const session = await authenticateIfSignedIn(deps, target.realm, m.accessTokenOf(request));
        const callbackUrl = new URL(request.url, deps.config.appUrl);
        const outcome = await completeSocialCallback(deps, target, params.provider, callbackUrl, { binding, signedInUserId: session?.user.id ?? null }, caller.info);
        // Checked again on the way out: a sign-in stored before the rule tightened may still be waiting.
        const returnTo = outcome.kind === 'api' ? null : pages.returnTo(outcome.returnTo);
        switch (outcome.kind) {
          case 'signed_in':
            m.cookies!.set(reply, request, deps.config, outcome.result, target.realm.policy);
            return reply.redirect(returnTo ?? pages.signedIn, 302);
          case 'mfa':
            return reply.redirect(
              withParams(pages.signIn, { return_to: returnTo ?? undefined }, { mfa_token: outcome.challenge.mfa_token, methods: outcome.challenge.methods.join(',') }),
              302,
            );
          case 'linked':
            return reply.redirect(withParams(returnTo ?? pages.security, { social_linked: outcome.provider }), 302);
          case 'api':
            return reply.redirect(outcome.redirectTo, 302);
          case 'failed':
            return reply.redirect(pages.failure(outcome.intent, outcome.reason, returnTo), 302);
        }
      },
    }),
  ];
}

/** The public API: the backend starts the sign-in and sends its user's browser on; the code comes back to its redirect URI. */
function publicApiRoutes(): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/public/api/v1/auth/oauth/:provider/authorize',
      access: API_KEY,
      params: ProviderParams,
      query: ApiSocialSignInQuerySchema,
      response: { 200: ApiSocialSignInSchema },
      doc: {
        tag: 'Public API',
        headers: EndUserHeadersSchema,
        operationId: 'publicStartSocialSignIn',
        summary: "Start an end user's sign-in with one of the project's providers",
        description:
          "Answers the provider's `authorization_url`: send the end user's browser there. The provider comes back to the project's callback, which redirects to `redirect_uri` (one of the project's registered redirect URIs) with `code` and your `state`, or with `error` (`access_denied`, `server_error`) and `error_description`. Check `state`, then exchange the code (valid 60 s, once) at /public/api/v1/auth/oauth/exchange.",
        errors: [400, 404, 429],
      },
      handler: async ({ deps, caller, params, query }) => startApiSocialSignIn(deps, { realm: caller.realm, project: caller.project }, params.provider, query, caller.info),
    }),
    defineRoute({
      method: 'POST',
      url: '/public/api/v1/auth/oauth/exchange',
      access: API_KEY,
      body: SocialExchangeInputSchema,
      response: { 200: LogInAnswerSchema },
      doc: {
        tag: 'Public API',
        headers: EndUserHeadersSchema,
        operationId: 'publicExchangeSocialSignIn',
        summary: 'Exchange the one-time code of a sign-in with a provider or a magic link for the sign-in answer',
        description:
          'The same answer as /public/api/v1/auth/login: tokens, or (two factors on and not asserted by the provider) the challenge for /public/api/v1/auth/mfa/verify. A first sign-in makes the account; an address that already has an account answers 409 until its owner connects the provider.',
        errors: [400, 403, 409, 422, 429],
      },
      // A magic link's code (modules/passwordless) or a provider's.
      handler: async ({ deps, caller, body }) =>
        (await exchangeMagicLinkCode(deps, caller, body, caller.info)) ?? exchangeSocialSignInCode(deps, { realm: caller.realm, project: caller.project }, body, caller.info),
    }),
  ];
}

/** A project's connections, managed by its owner. */
export const connectionRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/connections',
    procedure: 'connections',
    access: TEAM,
    params: z.object({ id: UnvalidatedParam }),
    response: { 200: ConnectionsSchema },
    doc: { operationId: 'listProjectConnections', tag: 'Projects', summary: "The project's sign-in providers for its end users (secrets are never shown)" },
    handler: async ({ deps, caller, params }) => listProjectConnections(deps, caller.session.user, params.id),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/v1/projects/:id/connections/:provider',
    procedure: 'saveConnection',
    access: TEAM,
    params: z.object({ id: UnvalidatedParam, provider: SocialProviderSchema }),
    body: SaveConnectionInputSchema,
    response: { 200: ConnectionSchema },
    doc: {
      operationId: 'saveProjectConnection',
      tag: 'Projects',
      summary: 'Add or change one of the project\'s sign-in providers',
      description:
        'The client secret is sealed at rest and never shown again; leave it out to keep the stored one. `issuer` is required for `oidc` (and overrides Google\'s or Microsoft\'s); `authorize_url`, `token_url` and `api_url` point GitHub at GitHub Enterprise. Register the answer\'s `callback_url` at the provider. At most 30 saves and removals a minute per developer (429).',
      errors: [429],
    },
    handler: async ({ deps, caller, params, body }) => saveProjectConnection(deps, caller.session.user, params.id, params.provider, body, caller.info),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/v1/projects/:id/connections/:provider',
    procedure: 'removeConnection',
    access: TEAM,
    params: z.object({ id: UnvalidatedParam, provider: SocialProviderSchema }),
    response: { 200: MessageSchema },
    doc: { operationId: 'removeProjectConnection', tag: 'Projects', summary: 'Remove one of the project\'s sign-in providers', errors: [429] },
    handler: async ({ deps, caller, params }) => removeProjectConnection(deps, caller.session.user, params.id, params.provider, caller.info),
  }),
];
