import type { Config } from '../../config.js';

/** What an IdP is told of us, per connection: one SAML service provider and one OIDC client each. */
export function spEntityIdOf(config: Pick<Config, 'appUrl'>, connectionId: string): string {
  return `${config.appUrl}/sso/saml/${connectionId}`;
}

export function acsUrlOf(config: Pick<Config, 'appUrl'>, connectionId: string): string {
  return `${config.appUrl}/sso/saml/${connectionId}/acs`;
}

export function spMetadataUrlOf(config: Pick<Config, 'appUrl'>, connectionId: string): string {
  return `${config.appUrl}/sso/saml/${connectionId}/metadata`;
}

export function oidcCallbackUrlOf(config: Pick<Config, 'appUrl'>, connectionId: string): string {
  return `${config.appUrl}/sso/oidc/${connectionId}/callback`;
}

/** The SCIM 2.0 base URL the IdP provisions users and groups at. */
export function scimBaseUrlOf(config: Pick<Config, 'appUrl'>, connectionId: string): string {
  return `${config.appUrl}/scim/v2/${connectionId}`;
}
