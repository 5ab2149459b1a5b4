import type { AdminStats, CreateUserInput, Device, DeviceListQuery, LoginAttemptListQuery, PageQuery, SessionListQuery, UserListQuery } from '../../../shared/schemas/admin.js';
import type { UserDetail } from '../../../shared/schemas/user-detail.js';
import type { User } from '../../../shared/schemas/user.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { withTransaction } from '../../db/transaction.js';
import { isoNow } from '../../lib/clock.js';
import { streamCsvExport, type CsvExport } from '../../lib/csv-export.js';
import { recordChange, type AuditActor } from '../changes/record-change.js';
import { getAuditEntriesAbout } from '../audit/audit.service.js';
import { userDeletedEvent, userUpdatedEvent } from '../webhooks/account-events.js';
import { clearSignInFailures, createManagedAccount, mailPasswordResetTo, mailVerificationLinkTo, signInMethodsOf } from '../auth/auth.service.js';
import { resetMfa } from '../mfa/mfa.service.js';
import type { MonitorScope } from '../realms/realm.js';
import { sessionClientLabel } from '../sessions/session-client.js';
import { revokeAllSessionsOfDevice, revokeAllSessionsOfUser, revokeEverySessionOf, revokeOneSession } from '../sessions/sessions.service.js';
import { toMonitoredUser, toUser } from '../users/user.mapper.js';
import { changeUser, deleteUser, findUser, USER_NOT_FOUND } from '../users/users.service.js';
import { leaveAllProjects } from '../projects/projects.service.js';
import { realmOfScope } from '../projects/project-realm.service.js';
import { listEnterpriseIdentitiesOf } from '../sso/sso.repo.js';
import {
  countLoginAttempts,
  countUniqueDevices,
  countUsers,
  findDeviceById,
  findSessionById,
  idleCutoffsOf,
  listDevices,
  listLiveSessions,
  listLoginAttempts,
  listUsers,
  readDevicesForExport,
  readLiveSessionsForExport,
  readLoginAttemptsForExport,
  readUsersForExport,
  setDeviceFlags,
} from './monitoring.repo.js';
import { toDevice, toLoginAttempt, toSession } from './monitoring.mappers.js';

/**
 * The same monitoring serves the platform's admins (scope: the platform's accounts) and each
 * developer over one project's end users. Every lookup is confined to the scope, so an id from
 * another realm is simply not found.
 */

const RECENT_ATTEMPTS = 20;
const RECENT_AUDIT_ENTRIES = 20;
const DETAIL_LIST = { page: 1, per_page: 100 };

export async function getStats(deps: Deps, scope: MonitorScope): Promise<AdminStats> {
  const [users, attempts, uniqueDevices] = await Promise.all([
    countUsers(deps.db, scope.projectId),
    countLoginAttempts(deps.db, scope.projectId),
    countUniqueDevices(deps.db, scope.projectId),
  ]);
  return {
    total_users: Number(users.total_users),
    active_users: Number(users.active_users ?? 0),
    verified_users: Number(users.verified_users ?? 0),
    failed_logins: Number(attempts.failed_logins ?? 0),
    successful_logins: Number(attempts.successful_logins ?? 0),
    total_login_attempts: Number(attempts.total_login_attempts),
    blocked_vpn_attempts: Number(attempts.blocked_vpn_attempts ?? 0),
    unique_devices: uniqueDevices,
  };
}

const pageOf = <K extends string, T>(key: K, items: T[], total: number, q: PageQuery) =>
  ({ [key]: items, total, page: q.page, per_page: q.per_page }) as { [P in K]: T[] } & { total: number; page: number; per_page: number };

export async function getUsers(deps: Deps, scope: MonitorScope, q: UserListQuery) {
  const { rows, total } = await listUsers(deps.db, scope.projectId, q);
  return pageOf('users', rows.map(toMonitoredUser), total, q);
}

async function requireUser(deps: Deps, scope: MonitorScope, id: string): Promise<UserRow> {
  const user = await findUser(deps, id);
  if (!user || user.project_id !== scope.projectId) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  return user;
}

export async function getUserDetail(deps: Deps, scope: MonitorScope, id: string): Promise<UserDetail> {
  const user = await requireUser(deps, scope, id);
  const now = isoNow(deps.clock);
  const [devices, sessions, attempts, methods, enterprise, audit] = await Promise.all([
    listDevices(deps.db, scope.projectId, DETAIL_LIST, { userId: id }),
    listLiveSessions(deps.db, scope.projectId, DETAIL_LIST, now, { userId: id }),
    listLoginAttempts(deps.db, scope.projectId, { page: 1, per_page: RECENT_ATTEMPTS }, { userId: id }),
    signInMethodsOf(deps, id),
    listEnterpriseIdentitiesOf(deps.db, id),
    // The admin area sees every entry about a developer account; a project's team only its project's.
    getAuditEntriesAbout(deps, scope.projectId ?? undefined, { userId: id, email: user.email }, RECENT_AUDIT_ENTRIES),
  ]);
  return {
    ...toMonitoredUser(user),
    has_password: user.password_set === 1,
    passkeys: methods.passkeys,
    identities: methods.identities,
    enterprise_identities: enterprise,
    devices: devices.rows.map(toDevice),
    sessions: sessions.rows.map(toSession),
    login_attempts: attempts.rows.map(toLoginAttempt),
    audit,
  };
}

const userTarget = (user: UserRow) => ({ type: 'user', id: user.id, label: user.email });

/** Deactivating signs the account out everywhere at once; nobody can lock themself out. An end user's change sends user.updated. */
export async function toggleUserActive(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<User> {
  const user = await requireUser(deps, scope, id);
  if (user.id === actor.user.id && user.is_active === 1) throw new AppError('FORBIDDEN', 'You cannot deactivate your own account');
  const is_active = user.is_active === 1 ? 0 : 1;
  const updated = await withTransaction(deps, async (tx) => {
    const changed = await changeUser(tx, id, { is_active });
    const action = is_active === 1 ? 'user.activated' : 'user.deactivated';
    await recordChange(tx, actor, { projectId: scope.projectId, action, target: userTarget(user), before: { is_active: user.is_active === 1 }, after: { is_active: is_active === 1 }, event: userUpdatedEvent(user, changed) });
    return changed;
  });
  if (is_active === 0) await revokeAllSessionsOfUser(deps, id, 'account_deactivated');
  return toUser(updated);
}

/**
 * Deletes an account for good, in one transaction with its audit entry: a developer's with their
 * projects (as when they delete it themself), an end user's with user.deleted to the project's
 * webhooks. Nobody deletes their own account here.
 */
export async function deleteUserById(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<{ message: string }> {
  const user = await requireUser(deps, scope, id);
  if (user.id === actor.user.id) throw new AppError('FORBIDDEN', 'You cannot delete your own account here');
  await withTransaction(deps, async (tx) => {
    if (user.project_id === null) await leaveAllProjects(tx, user.id);
    await deleteUser(tx, user.id);
    const before = { email: user.email, is_active: user.is_active === 1 };
    await recordChange(tx, actor, { projectId: scope.projectId, action: 'user.deleted', target: userTarget(user), before, event: userDeletedEvent(user, 'developer') });
  });
  return { message: 'User deleted' };
}

/** Lifts the failed-login throttle of an account. */
export async function unlockUser(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<User> {
  const user = await requireUser(deps, scope, id);
  await clearSignInFailures(deps, scope, user.email);
  // The throttle lives in the limiters' store (memory or Redis), not the database: its entry follows in a transaction of its own.
  await withTransaction(deps, (tx) => recordChange(tx, actor, { projectId: scope.projectId, action: 'user.unlocked', target: userTarget(user) }));
  return toUser(user);
}

/** Turns off the second factors of someone who lost them; they are mailed. */
export async function resetUserMfa(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<User> {
  const user = await requireUser(deps, scope, id);
  // The audit entry commits with the reset, or neither does.
  await resetMfa(deps, user, (tx) => recordChange(tx, actor, { projectId: scope.projectId, action: 'user.mfa_reset', target: userTarget(user), before: { two_factor: user.totp_enabled_at !== null } }));
  return toUser((await findUser(deps, id))!);
}

/** Mails the account a fresh verification link (409 when verified or deactivated; 429 past the recipient's mail cap). */
export async function resendUserVerification(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<{ message: string }> {
  const user = await requireUser(deps, scope, id);
  const realm = await realmOfScope(deps, scope);
  await mailVerificationLinkTo(deps, realm, user, (tx) => recordChange(tx, actor, { projectId: scope.projectId, action: 'user.verification_sent', target: userTarget(user) }));
  return { message: 'Verification email sent' };
}

/** Mails the account a password reset link, as "forgot password" would (409 when deactivated; 429 past the recipient's mail cap). */
export async function sendUserPasswordReset(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<{ message: string }> {
  const user = await requireUser(deps, scope, id);
  const realm = await realmOfScope(deps, scope);
  await mailPasswordResetTo(deps, realm, user, (tx) => recordChange(tx, actor, { projectId: scope.projectId, action: 'user.password_reset_sent', target: userTarget(user) }));
  return { message: 'Password reset email sent' };
}

/** Ends every live session of the account at once (an end user's send session.revoked); the caller's own account refuses (403). */
export async function signOutUserEverywhere(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<{ message: string; revoked: number }> {
  const user = await requireUser(deps, scope, id);
  if (user.id === actor.user.id) throw new AppError('FORBIDDEN', 'You cannot sign yourself out everywhere here; use your own Sessions settings');
  const revoked = await withTransaction(deps, async (tx) => {
    const count = await revokeEverySessionOf(tx, user, 'revoked_by_admin');
    await recordChange(tx, actor, { projectId: scope.projectId, action: 'user.signed_out', target: userTarget(user), after: { sessions_revoked: count } });
    return count;
  });
  return { message: revoked === 1 ? '1 session revoked' : `${revoked} sessions revoked`, revoked };
}

/** A project's developer creates an end user (with or without a password, the address verified or mailed a link); user.created to its webhooks. */
export async function createUser(deps: Deps, scope: MonitorScope, actor: AuditActor, input: CreateUserInput): Promise<User> {
  const realm = await realmOfScope(deps, scope);
  const after = (user: UserRow) => ({ email: user.email, has_password: input.password !== undefined, is_verified: input.email_verified });
  const created = await createManagedAccount(deps, realm, input, (tx, user) => recordChange(tx, actor, { projectId: scope.projectId, action: 'user.created', target: userTarget(user), after: after(user) }));
  return toUser(created);
}

export async function getLoginAttempts(deps: Deps, scope: MonitorScope, q: LoginAttemptListQuery) {
  const { rows, total } = await listLoginAttempts(deps.db, scope.projectId, q);
  return pageOf('attempts', rows.map(toLoginAttempt), total, q);
}

export async function getDevices(deps: Deps, scope: MonitorScope, q: DeviceListQuery) {
  const { rows, total } = await listDevices(deps.db, scope.projectId, q);
  return pageOf('devices', rows.map(toDevice), total, q);
}

async function requireDevice(deps: Deps, scope: MonitorScope, id: string) {
  const device = await findDeviceById(deps.db, scope.projectId, id);
  if (!device) throw new AppError('NOT_FOUND', 'Device not found');
  return device;
}

const deviceTarget = (device: { id: string; fingerprint: string; user_email: string }) => ({ type: 'device', id: device.id, label: `${device.fingerprint} (${device.user_email})` });

/** A blocked device is refused at sign-in and its live sessions end now. */
export async function toggleDeviceBlock(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<Device> {
  const device = await requireDevice(deps, scope, id);
  const is_blocked = device.is_blocked === 1 ? 0 : 1;
  await withTransaction(deps, async (tx) => {
    await setDeviceFlags(tx.db, id, { is_blocked });
    const action = is_blocked === 1 ? 'device.blocked' : 'device.unblocked';
    const event = is_blocked === 1 ? ({ type: 'device.blocked', data: { device: { id: device.fingerprint, user_id: device.user_id, user_email: device.user_email } } } as const) : null;
    await recordChange(tx, actor, { projectId: scope.projectId, action, target: deviceTarget(device), before: { is_blocked: device.is_blocked === 1 }, after: { is_blocked: is_blocked === 1 }, event });
  });
  if (is_blocked === 1) await revokeAllSessionsOfDevice(deps, id, 'device_blocked');
  return toDevice({ ...device, is_blocked });
}

export async function toggleDeviceTrust(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<Device> {
  const device = await requireDevice(deps, scope, id);
  const is_trusted = device.is_trusted === 1 ? 0 : 1;
  await withTransaction(deps, async (tx) => {
    await setDeviceFlags(tx.db, id, { is_trusted });
    const action = is_trusted === 1 ? 'device.trusted' : 'device.untrusted';
    await recordChange(tx, actor, { projectId: scope.projectId, action, target: deviceTarget(device), before: { is_trusted: device.is_trusted === 1 }, after: { is_trusted: is_trusted === 1 } });
  });
  return toDevice({ ...device, is_trusted });
}

export async function getSessions(deps: Deps, scope: MonitorScope, q: SessionListQuery) {
  const { rows, total } = await listLiveSessions(deps.db, scope.projectId, q, isoNow(deps.clock));
  return pageOf('sessions', rows.map(toSession), total, q);
}

/** Its refresh token stops working at once and its access token is refused on the next request; an end user's sends session.revoked. */
export async function revokeSessionById(deps: Deps, scope: MonitorScope, actor: AuditActor, id: string): Promise<{ message: string }> {
  const session = await findSessionById(deps.db, scope.projectId, id);
  if (!session) throw new AppError('NOT_FOUND', 'Session not found');
  await withTransaction(deps, async (tx) => {
    await revokeOneSession(tx, scope, id, 'revoked_by_admin');
    await recordChange(tx, actor, { projectId: scope.projectId, action: 'session.revoked', target: { type: 'session', id, label: session.user_email } });
  });
  return { message: 'Session revoked' };
}

/** Who asks for an export: one of theirs runs at a time. */
type Exporter = Pick<UserRow, 'id'>;

/** Each list as CSV with the list's filters, streamed (see streamCsvExport): at most EXPORT_MAX_ROWS, newest first. */
export function exportUsers(deps: Deps, scope: MonitorScope, exporter: Exporter, q: Omit<UserListQuery, keyof PageQuery>): Promise<CsvExport> {
  return streamCsvExport(deps, exporter.id, readUsersForExport(deps.db, scope.projectId, q, isoNow(deps.clock)), {
    columns: ['id', 'email', 'first_name', 'last_name', 'role', 'is_active', 'is_verified', 'created_at', 'last_login'],
    item: toUser,
  });
}

export function exportLoginAttempts(deps: Deps, scope: MonitorScope, exporter: Exporter, q: Omit<LoginAttemptListQuery, keyof PageQuery>): Promise<CsvExport> {
  return streamCsvExport(deps, exporter.id, readLoginAttemptsForExport(deps.db, scope.projectId, q, isoNow(deps.clock)), {
    columns: ['created_at', 'email', 'user_id', 'success', 'failure_reason', 'method', 'ip_address', 'country_code', 'is_vpn', 'is_proxy', 'device_fingerprint', 'user_agent'],
    item: toLoginAttempt,
  });
}

export function exportDevices(deps: Deps, scope: MonitorScope, exporter: Exporter, q: Omit<DeviceListQuery, keyof PageQuery>): Promise<CsvExport> {
  return streamCsvExport(deps, exporter.id, readDevicesForExport(deps.db, scope.projectId, q, isoNow(deps.clock)), {
    columns: ['device_id', 'user_email', 'user_id', 'is_trusted', 'is_blocked', 'last_ip', 'user_agent', 'first_seen', 'last_seen'],
    item: toDevice,
  });
}

export async function exportSessions(deps: Deps, scope: MonitorScope, exporter: Exporter, q: Omit<SessionListQuery, keyof PageQuery>): Promise<CsvExport> {
  const asOf = isoNow(deps.clock);
  const cutoffs = await idleCutoffsOf(deps.db, scope.projectId, asOf);
  return streamCsvExport(deps, exporter.id, readLiveSessionsForExport(deps.db, scope.projectId, q, asOf, cutoffs), {
    columns: ['id', 'user_email', 'user_id', 'device_id', 'ip_address', 'user_agent', 'created_at', 'last_used_at', 'expires_at', 'client'],
    item: (row) => ({ ...row, client: sessionClientLabel(row.client, row.client_name) }),
  });
}
