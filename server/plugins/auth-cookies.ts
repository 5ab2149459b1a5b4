import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_COOKIE, REFRESH_TOKEN_COOKIE } from '../../shared/constants.js';
import type { Config } from '../config.js';
import type { RealmPolicy } from '../modules/realms/realm.js';
import type { IssuedTokens } from '../modules/sessions/sessions.service.js';

function baseCookie(config: Config, path = '/') {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config.appUrl.startsWith('https://'), path };
}

/** The browser's only copy of its tokens: HttpOnly, SameSite, with the spec's lifetimes. */
export function setAuthCookies(reply: FastifyReply, config: Config, tokens: IssuedTokens): void {
  reply.setCookie(ACCESS_TOKEN_COOKIE, tokens.access_token, { ...baseCookie(config), maxAge: config.accessTokenTtlS });
  reply.setCookie(REFRESH_TOKEN_COOKIE, tokens.refresh_token, { ...baseCookie(config), maxAge: config.refreshTokenTtlS });
  reply.header('cache-control', 'no-store');
}

export function clearAuthCookies(reply: FastifyReply, config: Config): void {
  reply.clearCookie(ACCESS_TOKEN_COOKIE, baseCookie(config));
  reply.clearCookie(REFRESH_TOKEN_COOKIE, baseCookie(config));
}

export function readRefreshCookie(request: FastifyRequest): string | undefined {
  return request.cookies[REFRESH_TOKEN_COOKIE];
}

/**
 * A project's hosted pages keep their end user's tokens in cookies of their own, scoped to the
 * project's path (/hosted/{project_key}), so they never mix with a developer's platform cookies or
 * with another project's hosted session.
 */
export const HOSTED_ACCESS_TOKEN_COOKIE = 'hosted_access_token';
export const HOSTED_REFRESH_TOKEN_COOKIE = 'hosted_refresh_token';

export function hostedCookiePath(projectKey: string): string {
  return `/hosted/${projectKey}`;
}

/** The transport of a browser realm's tokens: the platform's cookies, or a project's hosted pages' own. */
export type TokenLifetimes = Pick<RealmPolicy, 'accessTokenTtlS' | 'refreshTokenTtlS'>;

export interface TokenCookies {
  /** The cookies live as long as the realm's tokens (its policy's lifetimes). */
  set(reply: FastifyReply, request: FastifyRequest, config: Config, tokens: IssuedTokens, policy: TokenLifetimes): void;
  clear(reply: FastifyReply, request: FastifyRequest, config: Config): void;
  readAccess(request: FastifyRequest): string | undefined;
  readRefresh(request: FastifyRequest): string | undefined;
}

export const PLATFORM_COOKIES: TokenCookies = {
  set: (reply, _request, config, tokens) => setAuthCookies(reply, config, tokens),
  clear: (reply, _request, config) => clearAuthCookies(reply, config),
  readAccess: (request) => request.cookies[ACCESS_TOKEN_COOKIE],
  readRefresh: readRefreshCookie,
};

/** The project key of a hosted route (`/hosted/:project_key/…`), as routed. */
export function hostedProjectKeyOf(request: FastifyRequest): string {
  return (request.params as { project_key?: string }).project_key ?? '';
}

export const HOSTED_COOKIES: TokenCookies = {
  set(reply, request, config, tokens, policy) {
    const cookie = baseCookie(config, hostedCookiePath(hostedProjectKeyOf(request)));
    reply.setCookie(HOSTED_ACCESS_TOKEN_COOKIE, tokens.access_token, { ...cookie, maxAge: policy.accessTokenTtlS });
    reply.setCookie(HOSTED_REFRESH_TOKEN_COOKIE, tokens.refresh_token, { ...cookie, maxAge: policy.refreshTokenTtlS });
    reply.header('cache-control', 'no-store');
  },
  clear(reply, request, config) {
    const cookie = baseCookie(config, hostedCookiePath(hostedProjectKeyOf(request)));
    reply.clearCookie(HOSTED_ACCESS_TOKEN_COOKIE, cookie);
    reply.clearCookie(HOSTED_REFRESH_TOKEN_COOKIE, cookie);
  },
  readAccess: (request) => request.cookies[HOSTED_ACCESS_TOKEN_COOKIE],
  readRefresh: (request) => request.cookies[HOSTED_REFRESH_TOKEN_COOKIE],
};
