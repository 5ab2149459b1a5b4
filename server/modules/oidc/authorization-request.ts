import type { Config } from '../../config.js';
import type { ProjectRow } from '../../db/schema.js';
import { testSignInRedirectOf } from '../projects/project-urls.js';
import { isRegisteredRedirect } from '../projects/redirect-uris.js';
import { AuthorizationPageError, OAuthError } from './oauth-error.js';
import { SUPPORTED_LOCALES } from '../../../shared/i18n/locales.js';
import { matchLocale } from '../../../shared/i18n/resolve-locale.js';

export const SUPPORTED_SCOPES = ['openid', 'email', 'profile', 'offline_access', 'organizations'] as const;
export const SUPPORTED_PROMPTS = ['none', 'login', 'create', 'consent'] as const;
type Prompt = (typeof SUPPORTED_PROMPTS)[number];

/** A validated authorization request: what the code it ends in is bound to. */
export interface AuthorizationRequest {
  redirectUri: string;
  /** The granted scopes: the supported ones asked for, `openid` always among them. */
  scope: string;
  state: string | null;
  nonce: string | null;
  codeChallenge: string;
  prompt: Prompt[];
  /** Seconds; a sign-in older than this must be made again. */
  maxAge: number | null;
  loginHint: string | null;
  /** OpenID Connect's ui_locales: the supported languages asked for, most wanted first, space-separated; null for none. */
  uiLocales?: string | null;
  /** The organization the session is to start in (the `organization` parameter: an id or a slug); null for none. */
  organization?: string | null;
}

/** One value per parameter (RFC 6749 §3.1: parameters must not repeat); empty counts as absent. */
export type Params = Record<string, string | string[] | undefined>;

export function singleParam(params: Params, name: string): string | undefined {
  const value = params[name];
  if (Array.isArray(value)) throw new OAuthError('invalid_request', `${name} must not be repeated`);
  return value === '' ? undefined : value;
}

const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * Checks who is asking first: an unknown client or an unregistered redirect URI is an error page
 * (AuthorizationPageError), since redirecting would hand the answer to whoever wrote the link. Every
 * later problem is an OAuthError the caller sends back to the (registered) redirect URI. Registered
 * means exactly, or by a development project's loopback pattern (redirect-uris.ts); the dashboard's
 * own test page (testSignInRedirectOf) is accepted for every project.
 */
export function checkClientAndRedirect(config: Pick<Config, 'appUrl'>, project: ProjectRow, params: Params): string {
  let clientId: string | undefined;
  let redirectUri: string | undefined;
  try {
    clientId = singleParam(params, 'client_id');
    redirectUri = singleParam(params, 'redirect_uri');
  } catch {
    throw new AuthorizationPageError('Invalid sign-in request', 'client_id and redirect_uri must each appear once.');
  }
  if (clientId !== project.project_key) throw new AuthorizationPageError('Unknown application', 'The client_id of this sign-in request is not this project.');
  if (!redirectUri) throw new AuthorizationPageError('Invalid sign-in request', 'The sign-in request has no redirect_uri.');
  if (redirectUri !== testSignInRedirectOf(config) && !isRegisteredRedirect(project, project.redirect_uris, redirectUri)) {
    throw new AuthorizationPageError(
      'Redirect URI not registered',
      `${project.name} has not registered ${redirectUri} as a redirect URI. Its developer can add it in the project's settings.`,
    );
  }
  return redirectUri;
}

/** The rest of the request, once its redirect URI is trusted (OAuthError otherwise, to redirect with). */
export function parseAuthorizationRequest(params: Params, redirectUri: string): AuthorizationRequest {
  if (singleParam(params, 'request') !== undefined) throw new OAuthError('request_not_supported', 'Request objects are not supported');
  if (singleParam(params, 'request_uri') !== undefined) throw new OAuthError('request_uri_not_supported', 'request_uri is not supported');
  const responseType = singleParam(params, 'response_type');
  if (responseType !== 'code') throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported');
  const responseMode = singleParam(params, 'response_mode');
  if (responseMode !== undefined && responseMode !== 'query') throw new OAuthError('invalid_request', 'Only response_mode=query is supported');

  const asked = (singleParam(params, 'scope') ?? '').split(' ').filter(Boolean);
  if (!asked.includes('openid')) throw new OAuthError('invalid_scope', 'scope must include openid');
  const scope = SUPPORTED_SCOPES.filter((name) => asked.includes(name)).join(' ');

  const codeChallenge = singleParam(params, 'code_challenge');
  const method = singleParam(params, 'code_challenge_method');
  if (!codeChallenge) throw new OAuthError('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (method !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
  if (!PKCE_VALUE.test(codeChallenge)) throw new OAuthError('invalid_request', 'code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, -._~');

  const prompt = (singleParam(params, 'prompt') ?? '').split(' ').filter(Boolean);
  const unknownPrompt = prompt.find((value) => !(SUPPORTED_PROMPTS as readonly string[]).includes(value));
  if (unknownPrompt) throw new OAuthError('invalid_request', `prompt=${unknownPrompt} is not supported`);
  if (prompt.includes('none') && prompt.length > 1) throw new OAuthError('invalid_request', 'prompt=none cannot be combined with other values');

  const maxAgeParam = singleParam(params, 'max_age');
  if (maxAgeParam !== undefined && !/^\d{1,9}$/.test(maxAgeParam)) throw new OAuthError('invalid_request', 'max_age must be a number of seconds');

  const state = singleParam(params, 'state') ?? null;
  const nonce = singleParam(params, 'nonce') ?? null;
  if (state && state.length > 2000) throw new OAuthError('invalid_request', 'state must be at most 2000 characters');
  if (nonce && nonce.length > 500) throw new OAuthError('invalid_request', 'nonce must be at most 500 characters');
  const loginHint = singleParam(params, 'login_hint') ?? null;
  const organization = singleParam(params, 'organization') ?? null;
  if (organization !== null && organization.length > 100) throw new OAuthError('invalid_request', 'organization must be at most 100 characters');
  // Languages nobody offers are dropped, not refused (OpenID Connect Core §3.1.2.1: ui_locales is a preference).
  const uiLocales = [...new Set((singleParam(params, 'ui_locales') ?? '').slice(0, 200).split(' ').map((tag) => matchLocale(tag, SUPPORTED_LOCALES)))].filter(Boolean);

  return {
    redirectUri,
    scope,
    state,
    nonce,
    codeChallenge,
    prompt: prompt as Prompt[],
    maxAge: maxAgeParam === undefined ? null : Number(maxAgeParam),
    loginHint: loginHint && loginHint.length <= 254 ? loginHint : null,
    uiLocales: uiLocales.length > 0 ? uiLocales.join(' ') : null,
    organization,
  };
}

/** Where the authorization endpoint sends its answer: the registered redirect URI with `params` (and the issuer, RFC 9207). */
export function redirectWith(redirectUri: string, issuer: string, state: string | null, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (state !== null) url.searchParams.set('state', state);
  url.searchParams.set('iss', issuer);
  return url.toString();
}
