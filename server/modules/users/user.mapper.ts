import type { MonitoredUser } from '../../../shared/schemas/admin.js';
import type { EndUserProfile, User } from '../../../shared/schemas/user.js';
import type { UserRow } from '../../db/schema.js';
import { parseMetadata } from '../../lib/metadata.js';

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    company_name: row.company_name,
    website_url: row.website_url,
    role: row.role,
    is_active: row.is_active === 1,
    is_verified: row.is_verified === 1,
    login_notifications: row.login_notifications === 1,
    email_notifications: row.email_notifications === 1,
    notify_security_alerts: row.notify_security_alerts === 1,
    notify_product_updates: row.notify_product_updates === 1,
    notify_marketing: row.notify_marketing === 1,
    mfa_enabled: row.totp_enabled_at !== null,
    session_idle_timeout_minutes: row.session_idle_timeout_minutes,
    locale: row.locale ?? null,
    created_at: row.created_at,
    last_login: row.last_login,
  };
}

/** A project's end user as they see themselves: with their public and unsafe metadata. */
export function toEndUserProfile(row: UserRow): EndUserProfile {
  return { ...toUser(row), public_metadata: parseMetadata(row.public_metadata), unsafe_metadata: parseMetadata(row.unsafe_metadata) };
}

/** The account as monitoring shows it: with its mail bounce. */
export function toMonitoredUser(row: UserRow): MonitoredUser {
  return { ...toUser(row), mail_bounced_at: row.mail_bounced_at };
}
