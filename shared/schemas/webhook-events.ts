import { z } from 'zod';
import { OrganizationSchema } from './organizations.js';
import { EndUserProfileSchema } from './user.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks.js';

/**
 * The event catalogue: for each type a project's webhooks can subscribe to (WEBHOOK_EVENT_TYPES), when it
 * is sent, the schema of its `data` and a sample. The server's emitWebhookEvent takes `data` of this
 * schema's type, and the dashboard lists the catalogue, so the two cannot drift apart unnoticed.
 */

const Account = z.strictObject({ id: z.string(), email: z.string() });
const ApiKey = z.strictObject({ api_key: z.strictObject({ id: z.string(), name: z.string(), prefix: z.string() }) });
const OrganizationRef = z.strictObject({ id: z.string(), slug: z.string() });
/** An organization as the API shows it, without its private metadata (never sent). */
const EventOrganization = OrganizationSchema.omit({ private_metadata: true }).strict();
const NewUser = z.strictObject({ user: z.strictObject({ id: z.string(), email: z.string(), is_verified: z.boolean() }) });

export const WEBHOOK_EVENT_DATA = {
  'user.created': NewUser,
  'user.verified': NewUser,
  'user.updated': z.strictObject({ user: EndUserProfileSchema, changed: z.array(z.string()) }),
  'user.deleted': z.strictObject({ user: Account, by: z.enum(['user', 'developer']) }),
  'session.created': z.strictObject({ session_id: z.string(), user: Account, auth_methods: z.array(z.string()), ip_address: z.string(), device_id: z.string().nullable() }),
  'session.revoked': z.strictObject({
    session_id: z.string(),
    user: Account,
    reason: z.enum(['logout', 'revoked_by_user', 'revoked_by_admin', 'refresh_token_reuse', 'oauth_revoked', 'authorization_code_reuse']),
  }),
  'login.failed': z.strictObject({
    email: z.string(),
    user_id: z.string().nullable(),
    reason: z.string(),
    method: z.string(),
    ip_address: z.string(),
    country_code: z.string().nullable(),
  }),
  'mfa.enabled': z.strictObject({ user: Account, method: z.literal('totp') }),
  'mfa.disabled': z.strictObject({ user: Account, by: z.enum(['user', 'reset']) }),
  'device.blocked': z.strictObject({ device: z.strictObject({ id: z.string(), user_id: z.string(), user_email: z.string() }) }),
  'api_key.created': ApiKey,
  'api_key.revoked': ApiKey,
  'organization.created': z.strictObject({ organization: EventOrganization }),
  'organization.updated': z.strictObject({ organization: EventOrganization, changed: z.array(z.string()) }),
  'organization.deleted': z.strictObject({ organization: z.strictObject({ id: z.string(), slug: z.string(), name: z.string() }) }),
  'organization_membership.created': z.strictObject({ organization: OrganizationRef, user_id: z.string(), role: z.string() }),
  'organization_membership.updated': z.strictObject({ organization: OrganizationRef, user_id: z.string(), role: z.string(), previous_role: z.string() }),
  'organization_membership.deleted': z.strictObject({ organization: OrganizationRef, user_id: z.string(), role: z.string() }),
  'organization_invitation.created': z.strictObject({
    invitation: z.strictObject({ id: z.string(), email: z.string(), role: z.string(), expires_at: z.string(), inviter_user_id: z.string().nullable() }),
    organization: OrganizationRef,
  }),
  'organization_invitation.accepted': z.strictObject({
    invitation: z.strictObject({ id: z.string(), email: z.string(), role: z.string() }),
    organization: OrganizationRef,
    user_id: z.string(),
  }),
  'webhook.test': z.strictObject({ message: z.string(), webhook_id: z.string() }),
} satisfies Record<WebhookEventType, z.ZodType>;

export type WebhookEventData<T extends WebhookEventType> = z.input<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** The body of every request: `{type, timestamp, data}`, `data` of the type's schema. */
export function webhookEventBodySchema<T extends WebhookEventType>(type: T) {
  return z.strictObject({ type: z.literal(type), timestamp: z.string(), data: WEBHOOK_EVENT_DATA[type] });
}

const SAMPLE_TIME = '2026-01-15T09:30:00.000Z';
const sampleAccount = { id: 'b7e1c1a2-5f0e-4c39-9a51-1f0f7a2d9c10', email: 'ada@example.com' };
const sampleOrganizationRef = { id: '3f9a2c64-0d8e-4b6a-a0d5-7c2e41b8e915', slug: 'acme' };
const sampleOrganization = {
  ...sampleOrganizationRef,
  name: 'Acme',
  logo_url: null,
  public_metadata: { plan: 'team' },
  members_count: 3,
  created_at: SAMPLE_TIME,
  updated_at: SAMPLE_TIME,
};
const sampleApiKey = { api_key: { id: 'd2b4e8f0-6a1c-4e3b-9f7d-5c8a0b1e2d34', name: 'backend', prefix: 'ak_7Hq2' } };

interface CatalogueEntry<T extends WebhookEventType> {
  /** When it is sent. */
  description: string;
  sample: WebhookEventData<T>;
}

export const WEBHOOK_EVENT_CATALOGUE: { [T in WebhookEventType]: CatalogueEntry<T> } = {
  'user.created': { description: 'An end user signs up (with a password or a provider), or the project’s developer creates one.', sample: { user: { ...sampleAccount, is_verified: false } } },
  'user.verified': { description: 'An end user proves their e-mail address.', sample: { user: { ...sampleAccount, is_verified: true } } },
  'user.updated': {
    description: 'An end user changes their names, preferences or e-mail address (once confirmed), or the project’s owner deactivates or reactivates them. `changed` names the fields.',
    sample: {
      user: {
        ...sampleAccount,
        first_name: 'Ada',
        last_name: 'Lovelace',
        company_name: null,
        website_url: null,
        role: 'user',
        is_active: true,
        is_verified: true,
        login_notifications: true,
        email_notifications: true,
        notify_security_alerts: true,
        notify_product_updates: false,
        notify_marketing: false,
        mfa_enabled: false,
        session_idle_timeout_minutes: null,
        locale: null,
        created_at: SAMPLE_TIME,
        last_login: SAMPLE_TIME,
        public_metadata: {},
        unsafe_metadata: {},
      },
      changed: ['first_name', 'last_name'],
    },
  },
  'user.deleted': { description: 'An end user deletes their account (`by: user`), or the project’s owner deletes them (`by: developer`).', sample: { user: sampleAccount, by: 'user' } },
  'session.created': {
    description: 'An end user signs in. `auth_methods` are OpenID Connect `amr` values.',
    sample: { session_id: '9c0d7e52-1b3a-4f68-8e2d-6a4b5c3d2e1f', user: sampleAccount, auth_methods: ['pwd'], ip_address: '203.0.113.7', device_id: 'laptop-1' },
  },
  'session.revoked': {
    description:
      'A session ended on purpose: `logout`, `revoked_by_user`, `revoked_by_admin`, `oauth_revoked`, `refresh_token_reuse` or `authorization_code_reuse`. Sessions ended by another change (password, e-mail, deactivation, device block, deletion) or the idle timeout send none.',
    sample: { session_id: '9c0d7e52-1b3a-4f68-8e2d-6a4b5c3d2e1f', user: sampleAccount, reason: 'logout' },
  },
  'login.failed': {
    description: 'A sign-in is refused. `user_id` is null when no account has the address.',
    sample: { email: 'ada@example.com', user_id: sampleAccount.id, reason: 'invalid_credentials', method: 'password', ip_address: '203.0.113.7', country_code: 'GB' },
  },
  'mfa.enabled': { description: 'An end user confirms an authenticator app.', sample: { user: sampleAccount, method: 'totp' } },
  'mfa.disabled': { description: 'An end user turns two factors off (`by: user`), or the project’s owner resets them (`by: reset`).', sample: { user: sampleAccount, by: 'user' } },
  'device.blocked': { description: 'The project’s owner blocks a device; its sessions end.', sample: { device: { id: 'laptop-1', user_id: sampleAccount.id, user_email: sampleAccount.email } } },
  'api_key.created': { description: 'An API key of the project is created.', sample: sampleApiKey },
  'api_key.revoked': { description: 'An API key of the project is revoked.', sample: sampleApiKey },
  'organization.created': { description: 'An organization is created. Its private metadata is never sent.', sample: { organization: sampleOrganization } },
  'organization.updated': { description: 'An organization’s name, slug, logo or public metadata changes. `changed` names the fields.', sample: { organization: sampleOrganization, changed: ['name'] } },
  'organization.deleted': { description: 'An organization is deleted.', sample: { organization: { ...sampleOrganizationRef, name: 'Acme' } } },
  'organization_membership.created': { description: 'A user joins an organization.', sample: { organization: sampleOrganizationRef, user_id: sampleAccount.id, role: 'org:member' } },
  'organization_membership.updated': {
    description: 'A member’s role in an organization changes.',
    sample: { organization: sampleOrganizationRef, user_id: sampleAccount.id, role: 'org:admin', previous_role: 'org:member' },
  },
  'organization_membership.deleted': { description: 'A member leaves or is removed from an organization.', sample: { organization: sampleOrganizationRef, user_id: sampleAccount.id, role: 'org:member' } },
  'organization_invitation.created': {
    description: 'Someone is invited to an organization by e-mail.',
    sample: {
      invitation: { id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d', email: 'grace@example.com', role: 'org:member', expires_at: '2026-01-22T09:30:00.000Z', inviter_user_id: sampleAccount.id },
      organization: sampleOrganizationRef,
    },
  },
  'organization_invitation.accepted': {
    description: 'An invitation to an organization is accepted.',
    sample: { invitation: { id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d', email: 'grace@example.com', role: 'org:member' }, organization: sampleOrganizationRef, user_id: sampleAccount.id },
  },
  'webhook.test': { description: 'Sent on request (Send test event), to one endpoint, whatever it subscribes to.', sample: { message: 'A test event from AuthPlatform', webhook_id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b' } },
};

/** A sample request body of the type, as a receiver gets it. */
export function sampleWebhookEventBody(type: WebhookEventType): { type: WebhookEventType; timestamp: string; data: unknown } {
  return { type, timestamp: SAMPLE_TIME, data: WEBHOOK_EVENT_CATALOGUE[type].sample };
}

/** The catalogue in the order of WEBHOOK_EVENT_TYPES (the order the subscription form lists them). */
export const WEBHOOK_EVENT_CATALOGUE_ENTRIES = WEBHOOK_EVENT_TYPES.map((type) => ({ type, ...WEBHOOK_EVENT_CATALOGUE[type] }));
