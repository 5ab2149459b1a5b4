import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { requestInfoOf } from '../../plugins/request-info.js';
import { errorPage } from '../oidc/error-page.js';
import { spMetadataOf } from './saml-sp.js';
import { spKeyPairOf } from './saml-sp-keys.js';
import { completeOidcSignIn, completeSamlSignIn, samlConnection, SsoRefusal } from './sso-sign-in.service.js';

type ConnectionParams = { connection_id: string };
const FORM_BODY_LIMIT = 256 * 1024;

/**
 * What an enterprise IdP calls, outside the declared REST routes because the IdP sets their shape:
 * the SP metadata (XML), the SAML ACS (an HTML form POSTed cross-site by the user's browser, so no
 * CSRF guard: the signed response is the proof) and the OpenID Connect callback. Each ends in a 303
 * to where the sign-in goes on, or a plain page when there is nowhere safe to send the browser.
 */
export async function registerSsoEndpoints(app: FastifyInstance, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    const failurePage = (reply: FastifyReply, error: unknown) => {
      if (error instanceof SsoRefusal) {
        deps.logger.warn({ reason: error.message }, 'sso: sign-in refused');
        return reply.code(400).type('text/html; charset=utf-8').send(errorPage('Sign-in failed', 'Your identity provider could not sign you in here. Start again from the app.'));
      }
      if (error instanceof AppError && error.code === 'NOT_FOUND') {
        return reply.code(404).type('text/html; charset=utf-8').send(errorPage('Unknown connection', 'This single sign-on connection does not exist or is turned off.'));
      }
      throw error;
    };

    scope.get('/sso/saml/:connection_id/metadata', async (request, reply) => {
      const connection = await samlConnection(deps, (request.params as ConnectionParams).connection_id);
      return reply.header('cache-control', 'public, max-age=300').type('application/samlmetadata+xml; charset=utf-8').send(spMetadataOf(deps.config, connection, spKeyPairOf(deps, connection)));
    });

    scope.post('/sso/saml/:connection_id/acs', { config: { oauthEndpoint: true } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        const form = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
        const to = await completeSamlSignIn(deps, (request.params as ConnectionParams).connection_id, form, requestInfoOf(request, 'public_api'));
        return reply.redirect(to, 303);
      } catch (error) {
        return failurePage(reply, error);
      }
    });

    scope.get('/sso/oidc/:connection_id/callback', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        const to = await completeOidcSignIn(deps, (request.params as ConnectionParams).connection_id, new URL(request.url, deps.config.appUrl), requestInfoOf(request, 'public_api'));
        return reply.redirect(to, 303);
      } catch (error) {
        return failurePage(reply, error);
      }
    });
  });
}
