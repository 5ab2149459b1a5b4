import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { hostedCookiePath, hostedProjectKeyOf } from '../../plugins/auth-cookies.js';

/**
 * The hosted flow cookie: a random value the hosted pages give a browser when it asks for a mailed
 * link, so that the link knows whether it is opened in that browser (which holds the app's sign-in,
 * and may then go on without the password) or in another (which proves the address only). HttpOnly,
 * scoped to the project's hosted pages, and a day long, like the longest link it can continue.
 */
export const HOSTED_FLOW_COOKIE = 'hosted_flow';
const FLOW_COOKIE_MAX_AGE_S = 24 * 60 * 60;

/** The browser's binding (SHA-256 of its cookie), given one first when it has none. */
export function flowBindingOf(request: FastifyRequest, reply: FastifyReply, config: Config): string {
  let value = readFlowCookie(request);
  if (!value) {
    value = randomToken();
    reply.setCookie(HOSTED_FLOW_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.appUrl.startsWith('https://'),
      path: hostedCookiePath(hostedProjectKeyOf(request)),
      maxAge: FLOW_COOKIE_MAX_AGE_S,
    });
  }
  return sha256(value);
}

/** The binding of the browser that opened a link, or null when it has no flow cookie. */
export function presentedFlowBinding(request: FastifyRequest): string | null {
  const value = readFlowCookie(request);
  return value ? sha256(value) : null;
}

function readFlowCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[HOSTED_FLOW_COOKIE];
  return value && value.length <= 100 ? value : undefined;
}
