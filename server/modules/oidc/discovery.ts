import type { Config } from '../../config.js';
import { hostedPagesUrlOf, issuerOf } from '../projects/project-urls.js';
import { SUPPORTED_PROMPTS, SUPPORTED_SCOPES } from './authorization-request.js';
import { SUPPORTED_LOCALES } from '../../../shared/i18n/locales.js';

/** OpenID Connect Discovery 1.0 for one project: served at {issuer}/.well-known/openid-configuration. */
export function discoveryDocument(config: Pick<Config, 'appUrl'>, projectKey: string) {
  const issuer = issuerOf(config, projectKey);
  const hosted = hostedPagesUrlOf(config, projectKey);
  const clientAuth = ['client_secret_basic', 'client_secret_post', 'none'];
  return {
    issuer,
    authorization_endpoint: `${hosted}/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${config.appUrl}/public/api/v1/projects/${projectKey}/jwks.json`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    end_session_endpoint: `${hosted}/logout`,
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: clientAuth,
    revocation_endpoint_auth_methods_supported: clientAuth,
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    prompt_values_supported: [...SUPPORTED_PROMPTS],
    ui_locales_supported: [...SUPPORTED_LOCALES],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'amr', 'sid', 'email', 'email_verified', 'given_name', 'family_name', 'name', 'updated_at'],
    authorization_response_iss_parameter_supported: true,
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}
