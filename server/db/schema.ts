import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { SessionClient } from '../../shared/schemas/sessions.js';
import type { SocialProvider } from '../../shared/schemas/social.js';

/**
 * Column conventions that hold on both SQLite and PostgreSQL:
 * ids are text generated in the app, timestamps are ISO-8601 UTC text (they sort as text),
 * booleans are integers 0/1 (better-sqlite3 cannot bind JS booleans).
 */
export type Flag = 0 | 1;

export interface UsersTable {
  id: string;
  /** null for platform accounts; the project's id for its end users. */
  project_id: string | null;
  email: string;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  website_url: string | null;
  role: 'user' | 'admin';
  is_active: Flag;
  is_verified: Flag;
  login_notifications: Flag;
  /** The language of the hosted pages and mails the user chose or signed up in (shared/i18n); null: the request's. */
  locale: Generated<string | null>;
  /** The master switch of optional mail (server/mail/preferences.ts decides what is optional). */
  email_notifications: Generated<Flag>;
  notify_security_alerts: Generated<Flag>;
  notify_product_updates: Generated<Flag>;
  notify_marketing: Generated<Flag>;
  created_at: string;
  updated_at: string;
  last_login: string | null;
  /** The confirmed TOTP secret, sealed with the master key; null without two factors. */
  totp_secret: string | null;
  /** A TOTP secret set up but not yet confirmed with a code (sealed). */
  totp_pending_secret: string | null;
  /** When two factors were turned on; null when they are off. */
  totp_enabled_at: string | null;
  /** The last accepted TOTP time step: a code is accepted once. */
  totp_last_step: number | null;
  /** A session unused for longer than this many minutes is refused; null for no idle timeout. */
  session_idle_timeout_minutes: number | null;
  /** 0 for an account made by a social sign-in until a password is set ("forgot password"). */
  password_set: Generated<Flag>;
  /** When the SMTP server last refused the address for good (a 5xx); null once a mail reached it. */
  mail_bounced_at: Generated<string | null>;
  /** JSON objects (shared/schemas/organizations.ts): public goes into tokens and userinfo, private only to the API key, unsafe is the user's own. */
  public_metadata: Generated<string>;
  private_metadata: Generated<string>;
  unsafe_metadata: Generated<string>;
  /** The user's id in the developer's own system (an import's `external_id`), unique in the project. */
  external_id: Generated<string | null>;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  /** `k1:` + the keyed digest of the normalized code (recovery-code-digest.ts); a plain SHA-256 (hex) from earlier versions until rewritten. */
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** A sign-in whose password was right, waiting for its second factor (the mfa_token, hashed). */
export interface MfaChallengesTable {
  id: string;
  token_hash: string;
  user_id: string;
  device_fingerprint: string | null;
  failed_attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The provider of a social sign-in waiting for its second factor; null after a password. */
  first_factor: string | null;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  /** The authenticator's signature counter (uint32: bigint on PostgreSQL). */
  counter: number;
  transports: string | null;
  device_type: string;
  backed_up: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export type WebAuthnPurpose = 'register' | 'login' | 'mfa' | 'step_up';

export interface WebAuthnChallengesTable {
  id: string;
  challenge: string;
  purpose: WebAuthnPurpose;
  user_id: string | null;
  project_id: string | null;
  mfa_challenge_id: string | null;
  /** A sign-in's ceremony: the network of the request that started it (counted against its caps). */
  client_network: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** step_up: a code mailed to an account without a password, for the session that asked (flow_binding). */
export type TokenPurpose = 'verify_email' | 'reset_password' | 'change_email' | 'step_up';

export interface OneTimeTokensTable {
  id: string;
  user_id: string;
  purpose: TokenPurpose;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
  /** verify_email only: the password of the sign-up attempt that sent the link, set when the link is used. */
  password_hash: string | null;
  /** change_email only: the address the account moves to. */
  new_email: string | null;
  /** The app's sign-in (oauth_interactions) a hosted page's link continues, if any. */
  interaction_id: string | null;
  /** Or the hosted page it continues to (a checked path). */
  return_to: string | null;
  /** SHA-256 of the hosted flow cookie of the browser that asked for the link; for step_up, of the session's id. */
  flow_binding: string | null;
}

export interface DevicesTable {
  id: string;
  user_id: string;
  fingerprint: string;
  user_agent: string | null;
  last_ip: string | null;
  is_trusted: Flag;
  is_blocked: Flag;
  first_seen: string;
  last_seen: string;
}

/** One row per sign-in; the row is the refresh-token rotation family. */
export interface SessionsTable {
  id: string;
  user_id: string;
  device_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  /** How the sign-in was proven, as space-separated OIDC `amr` values (pwd, otp, hwk); null before they were recorded. */
  auth_methods: string | null;
  /** When the user proved it; null means created_at (a session handed to an app keeps the hosted sign-in's time). */
  authenticated_at: string | null;
  /** The scopes granted to an app through the OpenID Connect provider; null for every other session. */
  oauth_scope: string | null;
  /** When the user last proved who they are again in this session (step-up); null until then. */
  reauthenticated_at: string | null;
  /** The organization the session's access tokens carry (org_id, org_role…); null for none. */
  active_organization_id: Generated<string | null>;
  /** The door the sign-in came through (SessionClient); null for a session started before it was recorded. */
  client: SessionClient | null;
  /** The OpenID Connect client's name for a session handed to an app; null otherwise. */
  client_name: string | null;
}

/** Every refresh token a session has issued; a used one presented again is a reuse. */
export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: string;
  used_at: string | null;
  /** The client that spent it (address and User-Agent), to tell a retry from a thief. */
  used_ip: string | null;
  used_user_agent: string | null;
}

export interface LoginAttemptsTable {
  id: string;
  project_id: string | null;
  email: string;
  user_id: string | null;
  ip_address: string | null;
  is_vpn: Flag;
  is_proxy: Flag;
  success: Flag;
  failure_reason: string | null;
  country_code: string | null;
  device_fingerprint: string | null;
  user_agent: string | null;
  created_at: string;
  /** null: a password or passkey; else the provider signed in with. */
  method: string | null;
}

export type Environment = 'development' | 'staging' | 'production';

export interface ProjectsTable {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  website_url: string | null;
  environment: Environment;
  project_key: string;
  is_active: Flag;
  /** The project's ES256 private key, sealed with the server's master key. */
  signing_key: string;
  /** OpenID Connect client settings: JSON arrays of exact redirect URLs, post-logout URLs and CORS origins. */
  redirect_uris: string;
  post_logout_redirect_uris: string;
  allowed_origins: string;
  /** The hosted pages' branding. */
  logo_url: string | null;
  accent_color: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  project_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface ProjectDailyStatsTable {
  project_id: string;
  day: string;
  signups: number;
  logins: number;
  failed_logins: number;
  refreshes: number;
  api_requests: number;
}

export interface ApiKeyDailyUsageTable {
  api_key_id: string;
  day: string;
  requests: number;
}

export interface ProjectActiveUsersTable {
  project_id: string;
  day: string;
  user_id: string;
}

/** An authorization request of the OpenID Connect provider waiting for the hosted sign-in. */
export interface OAuthInteractionsTable {
  id: string;
  project_id: string;
  /** The validated request (AuthorizationRequest) as JSON. */
  params: string;
  /** The network of the request that left it waiting (counted against its caps). */
  client_network: string | null;
  created_at: string;
  expires_at: string;
}

/** An authorization code: stored hashed, used once within 60 seconds. */
export interface OAuthCodesTable {
  code_hash: string;
  project_id: string;
  user_id: string;
  /** The hosted pages' session the user signed in with. */
  hosted_session_id: string;
  redirect_uri: string;
  /** PKCE S256 challenge. */
  code_challenge: string;
  scope: string;
  nonce: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The session its first use made; revoked when the code is presented again. */
  issued_session_id: string | null;
  /** The organization the authorization request asked the session to start in; null for none. */
  organization_id: Generated<string | null>;
}

/** A project's client of the client-credentials grant: the secret kept as its SHA-256 only. */
export interface MachineClientsTable {
  id: string;
  project_id: string;
  name: string;
  /** Public: mc_… */
  client_id: string;
  /** SHA-256 (hex) of the secret, shown once. */
  secret_hash: string;
  /** The secret's last four characters, to tell secrets apart. */
  secret_hint: string;
  /** JSON array of the scopes a token may carry. */
  scopes: string;
  created_at: string;
  updated_at: string;
  secret_rotated_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** An RFC 8628 device authorization: codes stored hashed. */
export interface DeviceAuthorizationsTable {
  id: string;
  project_id: string;
  device_code_hash: string;
  user_code_hash: string;
  scope: string;
  client_network: string | null;
  status: Generated<'pending' | 'approved' | 'denied'>;
  /** Seconds the device must wait between polls; 5 more at each slow_down. */
  interval_s: number;
  last_polled_at: string | null;
  /** Who approved or denied, from which hosted session. */
  user_id: string | null;
  hosted_session_id: string | null;
  decided_at: string | null;
  /** When the device took its tokens (once). */
  used_at: string | null;
  created_at: string;
  expires_at: string;
}

/** An account's sign-in at a provider: found by provider + subject, unique per realm. */
export interface UserIdentitiesTable {
  id: string;
  user_id: string;
  project_id: string | null;
  provider: SocialProvider;
  subject: string;
  /** The provider's e-mail at the last sign-in, and whether the provider said it was verified. */
  email: string | null;
  email_verified: Flag;
  created_at: string;
  last_used_at: string | null;
}

/** A project's own provider for its end users; the client secret sealed with the master key. */
export interface ProjectConnectionsTable {
  id: string;
  project_id: string;
  provider: SocialProvider;
  /** The button's name for a generic OpenID Connect provider ("Okta", "Acme SSO"). */
  display_name: string | null;
  client_id: string;
  client_secret: string;
  /** OpenID Connect providers: the issuer (discovery); null for the provider's default. */
  issuer: string | null;
  /** GitHub: the endpoints (GitHub Enterprise, tests); null for github.com's. */
  authorize_url: string | null;
  token_url: string | null;
  api_url: string | null;
  enabled: Flag;
  created_at: string;
  updated_at: string;
}

/** `test`: the setup portal's test of an enterprise connection (nothing is provisioned). */
export type SocialIntent = 'sign_in' | 'link' | 'api' | 'test';

/** A sign-in sent to a provider, waiting for its callback; on the public API, then for the exchange. */
export interface SocialSignInsTable {
  id: string;
  state_hash: string;
  project_id: string | null;
  /** 'sso': an enterprise connection's (sso_connection_id); the state is a SAML request's ID or the OIDC state. */
  provider: SocialProvider | 'sso';
  intent: SocialIntent;
  /** `link`: the signed-in account that asked. */
  user_id: string | null;
  /** Where to go after the callback: a path of our pages, or (`api`) the developer's redirect URI. */
  return_to: string | null;
  /** `api`: the developer's state, handed back with the code. */
  client_state: string | null;
  code_verifier: string;
  nonce: string | null;
  device_fingerprint: string | null;
  /** The network of the request that started it (counted against its caps). */
  client_network: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  result_code_hash: string | null;
  /** The provider's profile (ProviderProfile as JSON), waiting for the exchange. */
  result: string | null;
  result_expires_at: string | null;
  exchanged_at: string | null;
  sso_connection_id: string | null;
}

export type SsoConnectionType = 'saml' | 'oidc';

/** A project's enterprise connection (SAML or OpenID Connect) for one of its organizations. */
export interface SsoConnectionsTable {
  id: string;
  project_id: string;
  organization_id: string;
  type: SsoConnectionType;
  name: string;
  enabled: Flag;
  saml_idp_entity_id: string | null;
  saml_idp_sso_url: string | null;
  /** JSON list of the IdP's signing certificates (base64 DER). */
  saml_idp_certificates: string | null;
  saml_idp_metadata_url: string | null;
  oidc_issuer: string | null;
  oidc_client_id: string | null;
  /** Sealed with the master key. */
  oidc_client_secret: string | null;
  default_role: string;
  /** JSON: AttributeMapping. */
  attribute_mapping: string;
  allow_idp_initiated: Flag;
  enforce: Flag;
  created_at: string;
  updated_at: string;
  /** SHA-256 of the connection's SCIM bearer token; null: SCIM is off for it. */
  scim_token_hash: Generated<string | null>;
  scim_token_created_at: Generated<string | null>;
  /** The connection's own RSA private key (PKCS#8 PEM), sealed with the master key; null until first needed. */
  saml_sp_private_key: Generated<string | null>;
  /** Its self-signed certificate (PEM), in the SP metadata for signing and encryption. */
  saml_sp_certificate: Generated<string | null>;
  saml_sign_authn_requests: Generated<Flag>;
  saml_require_encrypted_assertions: Generated<Flag>;
}

/** An account's sign-ins through an enterprise connection: the first and the latest. */
export interface SsoIdentitiesTable {
  connection_id: string;
  user_id: string;
  created_at: string;
  last_sign_in_at: string;
}

/** A one-time link to the setup portal of one organization's enterprise SSO (token SHA-256 hashed). */
export interface AdminPortalLinksTable {
  id: string;
  project_id: string;
  organization_id: string;
  token_hash: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** The portal session a link's one exchange opens (cookie SHA-256 hashed), scoped to the link's organization. */
export interface AdminPortalSessionsTable {
  id: string;
  link_id: string;
  project_id: string;
  organization_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  /** JSON: what the last test of a connection received from the IdP. */
  test_result: string | null;
  /** The id of the next connection made in this session: the guides show its SP values before it exists. */
  next_connection_id: string;
}

/** An end user a connection's IdP provisions through SCIM (the SCIM id is the user's id). */
export interface ScimUsersTable {
  user_id: string;
  connection_id: string;
  /** Lowercased: unique within the connection without case. */
  user_name: string;
  external_id: string | null;
  active: Flag;
  created_at: string;
  updated_at: string;
}

/** A group the connection's IdP pushed; its organization role is the connection's group_roles[display_name]. */
export interface ScimGroupsTable {
  id: string;
  connection_id: string;
  display_name: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ScimGroupMembersTable {
  group_id: string;
  user_id: string;
}

export interface SsoDomainsTable {
  id: string;
  connection_id: string;
  project_id: string;
  domain: string;
  verification_token: string;
  verified_at: string | null;
  created_at: string;
}

export interface SsoAssertionsTable {
  connection_id: string;
  assertion_id: string;
  expires_at: string;
}

/** A provider identity whose verified e-mail belongs to an existing account, waiting for the mailed proof. */
export interface IdentityLinkRequestsTable {
  id: string;
  token_hash: string;
  user_id: string;
  provider: SocialProvider;
  subject: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Our page the sign-in that sent the link was going to (an app's waiting sign-in on the hosted pages), if any. */
  return_to: string | null;
}

/** A change made by an admin or a developer: append-only (the database refuses updates and deletes). */
/**
 * The revocation feed: a project's end-user session that ended before its time, or a machine client revoked or
 * deleted, written by triggers (migrations/2026_11_27_0500_add_session_revocations.ts, 2026_11_28_0900). Read in
 * (txid, id) order.
 */
export interface SessionRevocationsTable {
  id: Generated<number>;
  /** The writing transaction (xid8, a string) on PostgreSQL; 0 on SQLite, whose ids follow commit order. */
  txid: Generated<string | number>;
  project_id: string;
  /** The session's id; a machine client's client_id when subject_type is 'machine_client'. */
  session_id: string;
  /** 'session' or 'machine_client' (migrations/2026_11_28_0900_feed_machine_client_revocations.ts). */
  subject_type: Generated<RevocationSubjectType>;
  revoked_at: string;
}

export type RevocationSubjectType = 'session' | 'machine_client';

export interface AuditLogTable {
  id: string;
  /** The project the change belongs to; null outside any project (the admin area over developer accounts). */
  project_id: string | null;
  actor_id: string | null;
  /** The actor's address when they acted. */
  actor_email: string | null;
  /** `user.deactivated`, `device.blocked`, `project.updated`, `api_key.created`… */
  action: string;
  target_type: string;
  target_id: string | null;
  /** How the target read when it changed (an e-mail, a project or key name). */
  target_label: string | null;
  /** JSON of what changed, before and after; null where it does not apply. */
  before: string | null;
  after: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
}

/** A project's webhook receiver; the signing secret (whsec_…) sealed with the master key. */
export interface WebhookEndpointsTable {
  id: string;
  project_id: string;
  url: string;
  description: string | null;
  /** JSON array of event types. */
  event_types: string;
  secret: string;
  enabled: Flag;
  created_at: string;
  updated_at: string;
}

/** The outbox: an event, written with the change that caused it. */
export interface WebhookEventsTable {
  id: string;
  project_id: string;
  type: string;
  /** The JSON body sent ({type, timestamp, data}). */
  payload: string;
  created_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  /** When the next attempt is due (null once succeeded or failed). */
  next_attempt_at: string | null;
  /** The sending instance's lease. */
  claimed_until: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  /** The last attempt's request headers, JSON [{name, value}]; null when nothing was sent (or before 2026_11_26_0810). */
  request_headers: string | null;
  /** The last answer's headers (the same shape, capped) and its body's first 4 KB; null without an answer. */
  response_headers: string | null;
  response_body: string | null;
  response_body_truncated: number | null;
  created_at: string;
}

export type MailStatus = 'pending' | 'sent' | 'failed';

/** One mail, queued in the transaction of the change that caused it (migration 2026_11_26_0400). */
export interface MailOutboxTable {
  id: string;
  /** The realm of the recipient: null for the platform's own mail, the project for its end users'. */
  project_id: string | null;
  user_id: string | null;
  recipient: string;
  /** What the mail is (verification, password_reset, newSignInMail…). */
  kind: string;
  subject: string;
  /** The message sealed with the master key (links carry tokens); null once retention dropped it. */
  body: string | null;
  status: MailStatus;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  /** The sending instance's lease. */
  claimed_until: string | null;
  last_attempt_at: string | null;
  last_error_category: string | null;
  sent_at: string | null;
  created_at: string;
}

export type ProjectRole = 'owner' | 'admin' | 'viewer';

/** A developer's place on a project's team. */
export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role: ProjectRole;
  created_at: string;
}

/** An invitation by e-mail to a project's team; the token kept as its SHA-256 hash. */
export interface ProjectInvitationsTable {
  id: string;
  project_id: string;
  /** Lower-cased. */
  email: string;
  role: ProjectRole;
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

/** A project's rules for its end users; null (or no row) is the platform's rule (migration 2026_11_24_0600). */
export interface ProjectSettingsTable {
  project_id: string;
  password_min_length: number | null;
  password_check_breached: Flag | null;
  access_token_ttl_s: number | null;
  refresh_token_ttl_s: number | null;
  /** null: the platform's captcha on the hosted pages; 'none': the project chose none at all. */
  captcha_provider: 'none' | 'turnstile' | 'hcaptcha' | 'recaptcha' | null;
  captcha_site_key: string | null;
  /** Sealed with the master key (secretBox). */
  captcha_secret: string | null;
  vpn_policy: 'block' | 'allow' | null;
  allow_unverified_sign_in: Flag | null;
  mail_sender_name: string | null;
  mail_product_name: string | null;
  mail_accent_color: string | null;
  /** The small "Secured by" line at the foot of its mails; null: on. */
  mail_secured_by: Flag | null;
  /** JSON: { [kind]: { subject, text } }. */
  mail_templates: Generated<string>;
  /** JSON: { [locale]: { "hosted:key" | "mail:key": text } } (shared/i18n/overrides.ts). */
  string_overrides: Generated<string>;
  /** End users may create organizations themselves; null: no. */
  organizations_self_service: Generated<Flag | null>;
  /** How many organizations one end user may belong to; null: DEFAULT_MAX_ORGANIZATIONS_PER_USER. */
  max_organizations_per_user: Generated<number | null>;
  /** The custom-claims template, JSON text; null for none. */
  custom_claims: Generated<string | null>;
  /** JSON of the first factors chosen (shared/schemas/project-settings.ts SignInMethods, partial); null: the defaults. */
  sign_in_methods: Generated<string | null>;
  updated_at: string;
}

/** A mailed sign-in code or magic link (migration 2026_11_27_0100). */
export interface EmailSignInsTable {
  id: string;
  /** Null: a developer's sign-in code (the platform's accounts). */
  project_id: string | null;
  /** Lower-cased; the address may have no account yet. */
  email: string;
  kind: 'code' | 'link';
  /** The code's or the link token's keyed digest (modules/passwordless/secret-digest.ts). */
  secret_digest: string;
  attempts: Generated<number>;
  /** SHA-256 of the asking browser's hosted flow cookie; null when a developer's backend asked. */
  flow_binding: string | null;
  /** Public API links: the developer's registered redirect URI and state. */
  redirect_uri: string | null;
  client_state: string | null;
  /** Hosted pages links: the app sign-in they continue. */
  interaction_id: string | null;
  return_to: string | null;
  device_fingerprint: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  result_code_hash: string | null;
  result_expires_at: string | null;
  exchanged_at: string | null;
}

export interface OrganizationsTable {
  id: string;
  project_id: string;
  name: string;
  /** Unique in the project. */
  slug: string;
  logo_url: string | null;
  /** JSON objects. */
  public_metadata: string;
  private_metadata: string;
  created_at: string;
  updated_at: string;
}

/** A project's own organization role; the built-in org:admin and org:member are not stored. */
export interface OrganizationRolesTable {
  id: string;
  project_id: string;
  key: string;
  name: string;
  description: string | null;
  /** JSON list of permission keys. */
  permissions: string;
  created_at: string;
  updated_at: string;
}

export interface OrganizationMembersTable {
  organization_id: string;
  user_id: string;
  /** A role key of the project (built-in or its own). */
  role: string;
  joined_at: string;
  updated_at: string;
}

export interface OrganizationInvitationsTable {
  id: string;
  organization_id: string;
  email: string;
  role: string;
  /** SHA-256 of the token in the mailed link. */
  token_hash: string;
  /** The end user who invited; null when the project's backend did. */
  inviter_user_id: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
}

/** One import of end users (server/modules/user-transfer): progress, state and who started it. */
export interface UserImportJobsTable {
  id: string;
  project_id: string;
  created_by: string | null;
  /** 'api' or 'cli'. */
  source: string;
  format: string;
  dry_run: Flag;
  state: 'running' | 'done' | 'failed';
  lines_read: number;
  created: number;
  failed: number;
  failure: string | null;
  created_at: string;
  /** A running job's instance touches it every few seconds; a stale one was interrupted. */
  heartbeat_at: string;
  finished_at: string | null;
}

export interface UserImportErrorsTable {
  job_id: string;
  line: number;
  reason: string;
}

/** Firebase's hash parameters of one import, sealed (the signer key is a secret of the old project). */
export interface UserImportHashParamsTable {
  id: string;
  project_id: string;
  algorithm: string;
  sealed_params: string;
  created_at: string;
}

export interface Database {
  user_import_jobs: UserImportJobsTable;
  user_import_errors: UserImportErrorsTable;
  user_import_hash_params: UserImportHashParamsTable;
  users: UsersTable;
  one_time_tokens: OneTimeTokensTable;
  devices: DevicesTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  login_attempts: LoginAttemptsTable;
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  project_daily_stats: ProjectDailyStatsTable;
  api_key_daily_usage: ApiKeyDailyUsageTable;
  project_active_users: ProjectActiveUsersTable;
  recovery_codes: RecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  passkeys: PasskeysTable;
  organizations: OrganizationsTable;
  organization_roles: OrganizationRolesTable;
  organization_members: OrganizationMembersTable;
  organization_invitations: OrganizationInvitationsTable;
  webauthn_challenges: WebAuthnChallengesTable;
  oauth_interactions: OAuthInteractionsTable;
  oauth_codes: OAuthCodesTable;
  machine_clients: MachineClientsTable;
  device_authorizations: DeviceAuthorizationsTable;
  user_identities: UserIdentitiesTable;
  project_connections: ProjectConnectionsTable;
  social_sign_ins: SocialSignInsTable;
  sso_connections: SsoConnectionsTable;
  sso_domains: SsoDomainsTable;
  sso_assertions: SsoAssertionsTable;
  sso_identities: SsoIdentitiesTable;
  admin_portal_links: AdminPortalLinksTable;
  admin_portal_sessions: AdminPortalSessionsTable;
  scim_users: ScimUsersTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
  identity_link_requests: IdentityLinkRequestsTable;
  audit_log: AuditLogTable;
  session_revocations: SessionRevocationsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  project_members: ProjectMembersTable;
  project_invitations: ProjectInvitationsTable;
  project_settings: ProjectSettingsTable;
  email_sign_ins: EmailSignInsTable;
  mail_outbox: MailOutboxTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type MfaChallengeRow = Selectable<MfaChallengesTable>;
export type PasskeyRow = Selectable<PasskeysTable>;
export type DeviceRow = Selectable<DevicesTable>;
export type LoginAttemptRow = Selectable<LoginAttemptsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type UserIdentityRow = Selectable<UserIdentitiesTable>;
export type ProjectConnectionRow = Selectable<ProjectConnectionsTable>;
export type SocialSignInRow = Selectable<SocialSignInsTable>;
export type SsoConnectionRow = Selectable<SsoConnectionsTable>;
export type SsoDomainRow = Selectable<SsoDomainsTable>;
export type AdminPortalLinkRow = Selectable<AdminPortalLinksTable>;
export type AdminPortalSessionRow = Selectable<AdminPortalSessionsTable>;
export type ScimUserRow = Selectable<ScimUsersTable>;
export type ScimGroupRow = Selectable<ScimGroupsTable>;
export type ProjectSettingsRow = Selectable<ProjectSettingsTable>;
export type EmailSignInRow = Selectable<EmailSignInsTable>;
export type { Generated };
export type OrganizationRow = Selectable<OrganizationsTable>;
export type OrganizationRoleRow = Selectable<OrganizationRolesTable>;
export type OrganizationMemberRow = Selectable<OrganizationMembersTable>;
export type OrganizationInvitationRow = Selectable<OrganizationInvitationsTable>;
