import type { AdminStats, Device, PageQuery, UserDetail } from '../../../shared/schemas/admin.js';
import type { Role, User } from '../../../shared/schemas/user.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { revokeSession, revokeSessionsByDeviceId, revokeSessionsByUserId } from '../sessions/sessions.repo.js';
import { realmKey } from '../realms/realm.js';
import { toUser } from '../users/user.mapper.js';
import { findUserById, normalizeEmail, updateUser } from '../users/users.repo.js';
import {
  countLoginAttempts,
  countUniqueDevices,
  countUsers,
  findDeviceById,
  findSessionById,
  listDevices,
  listLiveSessions,
  listLoginAttempts,
  listUsers,
  setDeviceFlags,
} from './admin.repo.js';
import { toDevice, toLoginAttempt } from './admin.mappers.js';

/**
 * The same monitoring serves the platform's admins (projectId null: platform accounts) and each
 * developer over one project's end users. Every lookup is confined to the scope, so an id from
 * another realm is simply not found.
 */
export interface MonitorScope {
  projectId: string | null;
}

const RECENT_ATTEMPTS = 20;
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

export async function getUsers(deps: Deps, scope: MonitorScope, q: PageQuery) {
  const { rows, total } = await listUsers(deps.db, scope.projectId, q);
  return pageOf('users', rows.map(toUser), total, q);
}

async function requireUser(deps: Deps, scope: MonitorScope, id: string): Promise<UserRow> {
  const user = await findUserById(deps.db, id);
  if (!user || user.project_id !== scope.projectId) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}

export async function getUserDetail(deps: Deps, scope: MonitorScope, id: string): Promise<UserDetail> {
  const user = await requireUser(deps, scope, id);
  const now = isoNow(deps.clock);
  const [devices, sessions, attempts] = await Promise.all([
    listDevices(deps.db, scope.projectId, DETAIL_LIST, { userId: id }),
    listLiveSessions(deps.db, scope.projectId, DETAIL_LIST, now, { userId: id }),
    listLoginAttempts(deps.db, scope.projectId, { page: 1, per_page: RECENT_ATTEMPTS }, { userId: id }),
  ]);
  return { ...toUser(user), devices: devices.rows.map(toDevice), sessions: sessions.rows, login_attempts: attempts.rows.map(toLoginAttempt) };
}

/** Deactivating signs the account out everywhere at once; nobody can lock themself out. */
export async function toggleUserActive(deps: Deps, scope: MonitorScope, actor: UserRow, id: string): Promise<User> {
  const user = await requireUser(deps, scope, id);
  if (user.id === actor.id && user.is_active === 1) throw new AppError('FORBIDDEN', 'You cannot deactivate your own account');
  const now = isoNow(deps.clock);
  const is_active = user.is_active === 1 ? 0 : 1;
  const updated = (await updateUser(deps.db, id, { is_active, updated_at: now }))!;
  if (is_active === 0) await revokeSessionsByUserId(deps.db, id, now, 'account_deactivated');
  return toUser(updated);
}

/** Lifts the failed-login throttle of an account. */
export async function unlockUser(deps: Deps, scope: MonitorScope, id: string): Promise<User> {
  const user = await requireUser(deps, scope, id);
  await deps.limiters.loginPerAccount.reset(realmKey(scope, normalizeEmail(user.email)));
  return toUser(user);
}

export async function getLoginAttempts(deps: Deps, scope: MonitorScope, q: PageQuery) {
  const { rows, total } = await listLoginAttempts(deps.db, scope.projectId, q);
  return pageOf('attempts', rows.map(toLoginAttempt), total, q);
}

export async function getDevices(deps: Deps, scope: MonitorScope, q: PageQuery) {
  const { rows, total } = await listDevices(deps.db, scope.projectId, q);
  return pageOf('devices', rows.map(toDevice), total, q);
}

async function requireDevice(deps: Deps, scope: MonitorScope, id: string) {
  const device = await findDeviceById(deps.db, scope.projectId, id);
  if (!device) throw new AppError('NOT_FOUND', 'Device not found');
  return device;
}

/** A blocked device is refused at sign-in and its live sessions end now. */
export async function toggleDeviceBlock(deps: Deps, scope: MonitorScope, id: string): Promise<Device> {
  const device = await requireDevice(deps, scope, id);
  const is_blocked = device.is_blocked === 1 ? 0 : 1;
  await setDeviceFlags(deps.db, id, { is_blocked });
  if (is_blocked === 1) await revokeSessionsByDeviceId(deps.db, id, isoNow(deps.clock), 'device_blocked');
  return toDevice({ ...device, is_blocked });
}

export async function toggleDeviceTrust(deps: Deps, scope: MonitorScope, id: string): Promise<Device> {
  const device = await requireDevice(deps, scope, id);
  const is_trusted = device.is_trusted === 1 ? 0 : 1;
  await setDeviceFlags(deps.db, id, { is_trusted });
  return toDevice({ ...device, is_trusted });
}

export async function getSessions(deps: Deps, scope: MonitorScope, q: PageQuery) {
  const { rows, total } = await listLiveSessions(deps.db, scope.projectId, q, isoNow(deps.clock));
  return pageOf('sessions', rows, total, q);
}

/** Its refresh token stops working at once and its access token is refused on the next request. */
export async function revokeSessionById(deps: Deps, scope: MonitorScope, id: string): Promise<{ message: string }> {
  const session = await findSessionById(deps.db, scope.projectId, id);
  if (!session) throw new AppError('NOT_FOUND', 'Session not found');
  await revokeSession(deps.db, id, isoNow(deps.clock), 'revoked_by_admin');
  return { message: 'Session revoked' };
}

/** For the `npm run admin` CLI. */
export async function setRoleByEmail(deps: Pick<Deps, 'db' | 'clock'>, email: string, role: Role): Promise<User> {
  const normalized = normalizeEmail(email);
  const result = await deps.db
    .updateTable('users')
    .set({ role, updated_at: isoNow(deps.clock) })
    .where('email', '=', normalized)
    .where('project_id', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new AppError('NOT_FOUND', `No account with the e-mail ${normalized}`);
  const row = await deps.db.selectFrom('users').selectAll().where('email', '=', normalized).where('project_id', 'is', null).executeTakeFirstOrThrow();
  return toUser(row);
}

export async function listAdmins(deps: Pick<Deps, 'db'>): Promise<User[]> {
  const rows = await deps.db.selectFrom('users').selectAll().where('role', '=', 'admin').where('project_id', 'is', null).orderBy('email').execute();
  return rows.map(toUser);
}
