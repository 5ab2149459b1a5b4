import { z } from 'zod';
import { DeviceFingerprintSchema, EmailSchema } from './common.js';
import { RoleKeySchema } from './organizations.js';

/** Enterprise single sign-on: a project's SAML 2.0 or OpenID Connect connections, one organization each. */
export const SSO_CONNECTION_TYPES = ['saml', 'oidc'] as const;
export const SsoConnectionTypeSchema = z.enum(SSO_CONNECTION_TYPES, { error: 'type must be saml or oidc' });

export const MAX_SSO_DOMAINS = 20;
export const IDP_METADATA_MAX_BYTES = 256 * 1024;
/** The DNS name and value a domain's owner publishes to claim it. */
export const SSO_DOMAIN_TXT_PREFIX = '_authplatform-verification';
export const SSO_DOMAIN_TXT_VALUE_PREFIX = 'authplatform-domain-verification=';

export const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, { error: 'Each domain must be a domain name like acme.com' });

const httpsOrHttpUrl = z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL' }).max(2000);

export const AttributeMappingSchema = z
  .object({
    /** The SAML attribute (or OIDC claim) with the e-mail; default: the NameID (SAML) or `email`. */
    email: z.string().min(1).max(200).optional(),
    first_name: z.string().min(1).max(200).optional(),
    last_name: z.string().min(1).max(200).optional(),
    /** The attribute listing the user's IdP groups. */
    groups: z.string().min(1).max(200).optional(),
    /** IdP group → organization role; the first group found wins, else the connection's default role. */
    group_roles: z.record(z.string().min(1).max(200), RoleKeySchema).optional(),
  })
  .strict();
export type AttributeMapping = z.infer<typeof AttributeMappingSchema>;

/** A SAML connection's options, each off unless set; a PATCH may send them without new metadata. */
const samlOptions = {
  /** Sign AuthnRequests with the connection's key (its sp_certificate): for IdPs that require it. */
  sign_authn_requests: z.boolean({ error: 'saml.sign_authn_requests must be a boolean' }).optional(),
  /** Refuse a response whose assertion is not encrypted to the connection's sp_certificate. */
  require_encrypted_assertions: z.boolean({ error: 'saml.require_encrypted_assertions must be a boolean' }).optional(),
};

export const SamlSettingsInputSchema = z.union([
  z.object({ idp_metadata_xml: z.string().min(1).max(IDP_METADATA_MAX_BYTES, { error: 'idp_metadata_xml is too large' }), ...samlOptions }).strict(),
  z.object({ idp_metadata_url: httpsOrHttpUrl, ...samlOptions }).strict(),
  z.object(samlOptions).strict(),
], { error: 'saml needs idp_metadata_xml or idp_metadata_url (and, optionally, sign_authn_requests and require_encrypted_assertions)' });

export const OidcSettingsInputSchema = z
  .object({
    issuer: httpsOrHttpUrl,
    client_id: z.string().min(1).max(500),
    client_secret: z.string().min(1).max(2000).optional(),
  })
  .strict();

/** What a connection's owner may change after creating it (its organization and type are fixed). */
const connectionSettings = {
  name: z.string().trim().min(1).max(100),
  saml: SamlSettingsInputSchema.optional(),
  oidc: OidcSettingsInputSchema.optional(),
  default_role: RoleKeySchema.optional(),
  attribute_mapping: AttributeMappingSchema.optional(),
  allow_idp_initiated: z.boolean().optional(),
  enforce: z.boolean().optional(),
  enabled: z.boolean().optional(),
};

export const CreateSsoConnectionInputSchema = z
  .object({
    organization_id: z.string().min(1).max(100),
    type: SsoConnectionTypeSchema,
    ...connectionSettings,
    domains: z.array(DomainSchema).max(MAX_SSO_DOMAINS).default([]),
  })
  .strict();

export const UpdateSsoConnectionInputSchema = z
  .object({
    ...connectionSettings,
    name: connectionSettings.name.optional(),
    domains: z.array(DomainSchema).max(MAX_SSO_DOMAINS).optional(),
  })
  .strict();

export const SsoDomainSchema = z.object({
  domain: z.string(),
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  /** Publish this TXT record to prove the domain is yours. */
  txt_record_name: z.string(),
  txt_record_value: z.string(),
});

export const SsoConnectionSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  type: SsoConnectionTypeSchema,
  name: z.string(),
  enabled: z.boolean(),
  domains: z.array(SsoDomainSchema),
  default_role: z.string(),
  attribute_mapping: AttributeMappingSchema,
  allow_idp_initiated: z.boolean(),
  enforce: z.boolean(),
  saml: z
    .object({
      idp_entity_id: z.string(),
      idp_sso_url: z.string(),
      idp_metadata_url: z.string().nullable(),
      /** When each of the IdP's signing certificates stops being valid. */
      idp_certificates: z.array(z.object({ not_after: z.string(), subject: z.string() })),
      /** What the IdP needs: */
      sp_entity_id: z.string(),
      acs_url: z.string(),
      sp_metadata_url: z.string(),
      /** The connection's own certificate (PEM): the IdP checks signed AuthnRequests with it and may encrypt assertions to it. */
      sp_certificate: z.string(),
      sign_authn_requests: z.boolean(),
      require_encrypted_assertions: z.boolean(),
    })
    .nullable(),
  oidc: z.object({ issuer: z.string(), client_id: z.string(), callback_url: z.string() }).nullable(),
  /** SCIM 2.0 provisioning: on while the connection has a token (created through …/scim-token). */
  scim: z.object({ enabled: z.boolean(), base_url: z.string(), token_created_at: z.string().nullable() }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SsoConnection = z.infer<typeof SsoConnectionSchema>;
export const SsoConnectionListSchema = z.object({ connections: z.array(SsoConnectionSchema) });

export const ApiSsoSignInQuerySchema = z.object({
  email: EmailSchema.optional(),
  connection_id: z.string().min(1).max(100).optional(),
  redirect_uri: z.string({ error: 'redirect_uri is required' }).min(1, { error: 'redirect_uri is required' }).max(2000),
  state: z
    .string({ error: 'state is required' })
    .min(8, { error: 'state must be at least 8 characters (a random value your backend checks when the browser comes back)' })
    .max(500, { error: 'state must be at most 500 characters' }),
});

/** Home-realm discovery on the hosted pages: the answer depends on the address's domain only, never on an account. */
export const SsoDiscoveryQuerySchema = z.object({ email: EmailSchema });
export const SsoDiscoverySchema = z.object({ sso: z.boolean(), connection_id: z.string().nullable(), name: z.string().nullable(), enforced: z.boolean() });
export type SsoDiscovery = z.infer<typeof SsoDiscoverySchema>;

/** The hosted pages send the browser to the IdP: by address (its verified domain) or by connection. */
export const HostedSsoStartQuerySchema = z.object({
  email: EmailSchema.optional(),
  connection_id: z.string().min(1).max(100).optional(),
  return_to: z.string({ error: 'return_to must be a path' }).max(2000, { error: 'return_to must be at most 2000 characters' }).optional(),
  device_fingerprint: DeviceFingerprintSchema,
});

/** Where an enterprise sign-in started on the hosted pages comes back: a one-time `code`, or `error`. */
export const HostedSsoFinishQuerySchema = z.object({
  code: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

/** A connection's SCIM bearer token, answered once when it is made (or replaced). */
export const ScimTokenSchema = z.object({ token: z.string(), base_url: z.string(), created_at: z.string() });

export const SSO_MESSAGES = {
  connectionNotFound: 'SSO connection not found',
  noConnectionForDomain: 'No single sign-on connection for this e-mail domain',
  enforced: 'Your organization requires single sign-on (SSO): sign in with your identity provider instead of a password',
  domainTaken: 'This domain is already verified for another SSO connection of this project',
  domainNotVerified: 'The DNS TXT record was not found',
} as const;
