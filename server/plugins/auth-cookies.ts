import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_COOKIE, REFRESH_TOKEN_COOKIE } from '../../shared/constants.js';
import type { Config } from '../config.js';
import type { IssuedTokens } from '../modules/sessions/sessions.service.js';

function baseCookie(config: Config) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config.appUrl.startsWith('https://'), path: '/' };
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
