import type { Device, LoginAttempt } from '../../../shared/schemas/admin.js';
import type { Session } from '../../../shared/schemas/admin.js';
import type { DeviceRow, LoginAttemptRow } from '../../db/schema.js';
import { deviceLabel } from '../../lib/user-agent.js';
import { sessionClientLabel } from '../sessions/session-client.js';

export function toLoginAttempt(row: LoginAttemptRow): LoginAttempt {
  return {
    id: row.id,
    email: row.email,
    user_id: row.user_id,
    ip_address: row.ip_address,
    is_vpn: row.is_vpn === 1,
    is_proxy: row.is_proxy === 1,
    success: row.success === 1,
    failure_reason: row.failure_reason,
    country_code: row.country_code,
    device_fingerprint: row.device_fingerprint,
    user_agent: row.user_agent,
    created_at: row.created_at,
    method: row.method,
  };
}

export function toDevice(row: DeviceRow & { user_email: string }): Device {
  return {
    id: row.id,
    device_id: row.fingerprint,
    user_id: row.user_id,
    user_email: row.user_email,
    user_agent: row.user_agent,
    device_label: deviceLabel(row.user_agent),
    last_ip: row.last_ip,
    is_trusted: row.is_trusted === 1,
    is_blocked: row.is_blocked === 1,
    first_seen: row.first_seen,
    last_seen: row.last_seen,
  };
}

type SessionRowOf = Omit<Session, 'device_label' | 'client_label'> & { client_name: string | null };

/** A live session with its labels for people ('Chrome on Linux', 'Hosted pages'). */
export function toSession({ client_name, ...row }: SessionRowOf): Session {
  return { ...row, device_label: deviceLabel(row.user_agent), client_label: sessionClientLabel(row.client, client_name) };
}
